// Conversions between timestamptz (microseconds since 2000-01-01) and the Unix
// milliseconds that every key here stores, and the key bounds of a time
// (ulid_lower_bound() and kin, and the planner's clamped ones) built on them.
#pragma once

#include "postgres_api.hpp"

#include <cstdint>

namespace ulid_tsid::pg {

inline constexpr int64 kUnixEpochInPgMicros =
    int64{POSTGRES_EPOCH_JDATE - UNIX_EPOCH_JDATE} * SECS_PER_DAY * USECS_PER_SEC;

inline TimestampTz timestamptz_from_unix_ms(int64 ms) {
  return ms * 1000 - kUnixEpochInPgMicros;
}

// The wall clock (GetCurrentTimestamp()) in Unix milliseconds.
std::int64_t unix_ms_now();

// What a time outside a key's range becomes: ERROR 22003 naming the key type
// (the SQL functions), or the range's first or last millisecond (the
// planner's bounds, which must never fail where the predicate does not).
enum class OutOfRange { kError, kClamp };

// The SQL type of a time argument, which its error message prints it as:
// timestamptz, or timestamp (without time zone; its microseconds read as UTC).
enum class TimeType { kTimestamptz, kTimestamp };

// Unix milliseconds of `ts`, rounded down, within [min_ms, max_ms]; infinity
// counts as outside. `what` names the key type in the error ("ulid": "A ulid
// holds times from ..."), or a thing with its article ("the mark": "The mark
// holds ..."); the range it gives stops at timestamptz's own ends.
int64 unix_ms_from_timestamptz(TimestampTz ts, int64 min_ms, int64 max_ms, OutOfRange out_of_range,
                               const char* what, TimeType type = TimeType::kTimestamptz);

// The bound of the 16-byte keys (ulid, uuidv7) for the millisecond of the
// timestamptz (or, with TimeType::kTimestamp, timestamp) argument
// (1970..10889): the smallest, or with `upper` the largest, value `bound`
// writes for it.
Datum uuid_bound_of(FunctionCallInfo fcinfo, void (*bound)(std::uint64_t ms, bool upper, std::uint8_t out[16]),
                    bool upper, OutOfRange out_of_range, const char* what,
                    TimeType type = TimeType::kTimestamptz);

// The same for tsid, whose times run from 2020 to the last millisecond of
// `max_ms` after its epoch.
Datum tsid_bound_of(FunctionCallInfo fcinfo, bool upper, std::uint64_t max_ms, OutOfRange out_of_range);

}  // namespace ulid_tsid::pg
