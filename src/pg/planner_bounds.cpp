// The key bounds that the planner puts into the index conditions it derives
// from time predicates (see time_predicates.cpp). Like ulid_lower_bound() and
// kin, but never an ERROR: a time outside the key's range, infinity included,
// is clamped to the range's first or last millisecond. An index condition
// built from them only has to hold for every row the time predicate keeps
// (the predicate stays in the plan and has the last word), and it must not
// fail where the predicate does not.
#include "postgres_api.hpp"

#include "../core/clock_ticks.hpp"
#include "../core/tsid.hpp"
#include "../core/ulid.hpp"
#include "../core/uuidv7.hpp"
#include "timestamps.hpp"

extern "C" {
PG_FUNCTION_INFO_V1(ulid_lower_bound_clamped);
PG_FUNCTION_INFO_V1(ulid_upper_bound_clamped);
PG_FUNCTION_INFO_V1(tsid_lower_bound_clamped);
PG_FUNCTION_INFO_V1(tsid_upper_bound_clamped);
PG_FUNCTION_INFO_V1(uuidv7_lower_bound_clamped);
PG_FUNCTION_INFO_V1(uuidv7_upper_bound_clamped);
}

using namespace ulid_tsid;
using namespace ulid_tsid::pg;

namespace {

// Unix milliseconds of `ts` rounded down, clamped into [min_ms, max_ms].
int64 clamped_unix_ms(TimestampTz ts, int64 min_ms, int64 max_ms) {
  if (TIMESTAMP_IS_NOBEGIN(ts)) return min_ms;
  if (TIMESTAMP_IS_NOEND(ts)) return max_ms;
  int64 ms = ts / 1000;
  if (ts % 1000 < 0) --ms;
  ms += kUnixEpochInPgMicros / 1000;
  return ms < min_ms ? min_ms : (ms > max_ms ? max_ms : ms);
}

Datum uuid_bound_clamped(FunctionCallInfo fcinfo, void (*bound)(std::uint64_t ms, bool upper, std::uint8_t out[16]),
                         bool upper) {
  const int64 ms = clamped_unix_ms(PG_GETARG_TIMESTAMPTZ(0), 0, static_cast<int64>(kMax48BitMs));
  pg_uuid_t* out = palloc_uuid();
  bound(static_cast<std::uint64_t>(ms), upper, out->data);
  PG_RETURN_UUID_P(out);
}

// TSIDs keep time order only while they are non-negative int8s (until
// 2089-09-06, 2^41 ms after the epoch): the bounds stay in that half. A
// negative tsid (a later time, or any negative bigint cast to tsid) sorts
// before every non-negative one, so the planner adds "OR id < 0" where such a
// tsid can satisfy the predicate.
constexpr std::uint64_t kTsidLastOrderedMs = (std::uint64_t{1} << 41) - 1;

Datum tsid_bound_clamped(FunctionCallInfo fcinfo, bool upper) {
  const int64 unix_ms = clamped_unix_ms(PG_GETARG_TIMESTAMPTZ(0), kTsidEpochUnixMs,
                                        kTsidEpochUnixMs + static_cast<int64>(kTsidLastOrderedMs));
  PG_RETURN_INT64(static_cast<int64>(tsid_bound(static_cast<std::uint64_t>(unix_ms - kTsidEpochUnixMs), upper)));
}

}  // namespace

Datum ulid_lower_bound_clamped(PG_FUNCTION_ARGS) { return uuid_bound_clamped(fcinfo, ulid_bound, false); }
Datum ulid_upper_bound_clamped(PG_FUNCTION_ARGS) { return uuid_bound_clamped(fcinfo, ulid_bound, true); }
Datum uuidv7_lower_bound_clamped(PG_FUNCTION_ARGS) { return uuid_bound_clamped(fcinfo, uuidv7_bound, false); }
Datum uuidv7_upper_bound_clamped(PG_FUNCTION_ARGS) { return uuid_bound_clamped(fcinfo, uuidv7_bound, true); }
Datum tsid_lower_bound_clamped(PG_FUNCTION_ARGS) { return tsid_bound_clamped(fcinfo, false); }
Datum tsid_upper_bound_clamped(PG_FUNCTION_ARGS) { return tsid_bound_clamped(fcinfo, true); }
