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

// TSIDs keep time order only while they are non-negative int8s (until
// 2089-09-06, 2^41 ms after the epoch): the bounds stay in that half. A
// negative tsid (a later time, or any negative bigint cast to tsid) sorts
// before every non-negative one, so the planner adds "OR id < 0" where such a
// tsid can satisfy the predicate.
constexpr std::uint64_t kTsidLastOrderedMs = (std::uint64_t{1} << 41) - 1;

}  // namespace

Datum ulid_lower_bound_clamped(PG_FUNCTION_ARGS) { return uuid_bound_of(fcinfo, ulid_bound, false, OutOfRange::kClamp, "ulid"); }
Datum ulid_upper_bound_clamped(PG_FUNCTION_ARGS) { return uuid_bound_of(fcinfo, ulid_bound, true, OutOfRange::kClamp, "ulid"); }
Datum uuidv7_lower_bound_clamped(PG_FUNCTION_ARGS) { return uuid_bound_of(fcinfo, uuidv7_bound, false, OutOfRange::kClamp, "uuidv7"); }
Datum uuidv7_upper_bound_clamped(PG_FUNCTION_ARGS) { return uuid_bound_of(fcinfo, uuidv7_bound, true, OutOfRange::kClamp, "uuidv7"); }
Datum tsid_lower_bound_clamped(PG_FUNCTION_ARGS) { return tsid_bound_of(fcinfo, false, kTsidLastOrderedMs, OutOfRange::kClamp); }
Datum tsid_upper_bound_clamped(PG_FUNCTION_ARGS) { return tsid_bound_of(fcinfo, true, kTsidLastOrderedMs, OutOfRange::kClamp); }
