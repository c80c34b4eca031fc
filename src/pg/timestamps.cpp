#include "postgres_api.hpp"

#include "timestamps.hpp"

#include "../core/clock_ticks.hpp"
#include "../core/tsid.hpp"

namespace ulid_tsid::pg {

int64 unix_ms_from_timestamptz(TimestampTz ts, int64 min_ms, int64 max_ms, OutOfRange out_of_range,
                               const char* what) {
  if (!TIMESTAMP_NOT_FINITE(ts)) {
    // Divide before shifting the epoch: timestamptz's own range would overflow.
    int64 ms = ts / 1000;
    if (ts % 1000 < 0) --ms;
    ms += kUnixEpochInPgMicros / 1000;
    if (ms >= min_ms && ms <= max_ms) return ms;
    if (out_of_range == OutOfRange::kClamp) return ms < min_ms ? min_ms : max_ms;
  } else if (out_of_range == OutOfRange::kClamp) {
    return TIMESTAMP_IS_NOBEGIN(ts) ? min_ms : max_ms;
  }
  ereport(ERROR,
          (errcode(ERRCODE_NUMERIC_VALUE_OUT_OF_RANGE),
           errmsg("timestamp out of range for %s: \"%s\"", what, timestamptz_to_str(ts)),
           errdetail("A %s holds times from %s to %s.", what,
                     // timestamptz_to_str() reuses one static buffer.
                     pstrdup(timestamptz_to_str(timestamptz_from_unix_ms(min_ms))),
                     pstrdup(timestamptz_to_str(timestamptz_from_unix_ms(max_ms) + 999)))));
  pg_unreachable();
}

Datum uuid_bound_of(FunctionCallInfo fcinfo, void (*bound)(std::uint64_t ms, bool upper, std::uint8_t out[16]),
                    bool upper, OutOfRange out_of_range, const char* what) {
  const int64 ms = unix_ms_from_timestamptz(PG_GETARG_TIMESTAMPTZ(0), 0, static_cast<int64>(kMax48BitMs),
                                            out_of_range, what);
  pg_uuid_t* out = palloc_uuid();
  bound(static_cast<std::uint64_t>(ms), upper, out->data);
  PG_RETURN_UUID_P(out);
}

Datum tsid_bound_of(FunctionCallInfo fcinfo, bool upper, std::uint64_t max_ms, OutOfRange out_of_range) {
  const int64 unix_ms = unix_ms_from_timestamptz(PG_GETARG_TIMESTAMPTZ(0), kTsidEpochUnixMs,
                                                 kTsidEpochUnixMs + static_cast<int64>(max_ms), out_of_range, "tsid");
  PG_RETURN_INT64(static_cast<int64>(tsid_bound(static_cast<std::uint64_t>(unix_ms - kTsidEpochUnixMs), upper)));
}

}  // namespace ulid_tsid::pg
