// Conversions between timestamptz (microseconds since 2000-01-01) and the Unix
// milliseconds that every key here stores.
#pragma once

#include "postgres_api.hpp"

#include <cstdint>

namespace ulid_tsid::pg {

inline constexpr int64 kUnixEpochInPgMicros =
    int64{POSTGRES_EPOCH_JDATE - UNIX_EPOCH_JDATE} * SECS_PER_DAY * USECS_PER_SEC;

inline TimestampTz timestamptz_from_unix_ms(int64 ms) {
  return ms * 1000 - kUnixEpochInPgMicros;
}

// Unix milliseconds of `ts`, rounded down, checked against [min_ms, max_ms];
// anything else (infinity included) is ERROR 22003 naming `what`.
int64 unix_ms_from_timestamptz(TimestampTz ts, int64 min_ms, int64 max_ms, const char* what);

// ulid_lower_bound() and its kin for the 16-byte keys: the smallest (or, with
// `upper`, largest) value that `bound` writes for the millisecond of the
// timestamptz argument, which must lie in 1970..10889 (ERROR 22003 naming `what`).
Datum uuid_bound_of(FunctionCallInfo fcinfo, void (*bound)(std::uint64_t ms, bool upper, std::uint8_t out[16]),
                    bool upper, const char* what);

}  // namespace ulid_tsid::pg
