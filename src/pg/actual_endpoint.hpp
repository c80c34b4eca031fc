// The smallest or largest value a key column holds right now, read from its
// btree index (selectivity.cpp uses it where a histogram's end is out of date).
#pragma once

#include "postgres_api.hpp"

extern "C" {
#include "utils/selfuncs.h"
}

namespace ulid_tsid::pg {

// The first (largest = false) or last value of the column in `vardata` per
// a btree index on it whose order is `less_operator` (either way round), of a
// row not yet removable (SnapshotNonVacuumable, as Postgres); false (and
// *value unset) when there is no such index, the table is partitioned, or the
// entries of 100 heap pages all belong to removable rows. The value is copied
// into the current memory context.
bool actual_endpoint(PlannerInfo* root, VariableStatData* vardata, Oid less_operator, bool largest, Datum* value);

}  // namespace ulid_tsid::pg
