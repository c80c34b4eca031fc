// What time_predicates.cpp asks of the key estimators (selectivity.cpp).
#pragma once

#include "postgres_api.hpp"

extern "C" {
#include "nodes/pathnodes.h"
}

namespace ulid_tsid::pg {

// clauselist_selectivity() of `clauses` (restrictions of one relation, ANDed),
// where a lower and an upper bound on the same key among them, or inside one
// AND of an OR among them, are estimated as one range.
double key_range_selectivity(PlannerInfo* root, List* clauses);

}  // namespace ulid_tsid::pg
