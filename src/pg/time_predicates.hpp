// Index range scans on a key from time predicates on it (time_predicates.cpp).
#pragma once

namespace ulid_tsid::pg {

// Called once from _PG_init.
void install_time_predicate_hook();

}  // namespace ulid_tsid::pg
