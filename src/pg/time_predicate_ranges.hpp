// Time predicates ("time_fn(key) op t") and the key ranges they come down to
// (time_predicate_ranges.cpp), for the planner hooks of time_predicates.cpp.
#pragma once

#include "postgres_api.hpp"

extern "C" {
#include "nodes/primnodes.h"
}

#include "extension_objects.hpp"

namespace ulid_tsid::pg {

// "time_fn(key) <strategy> t", strategy read with time_fn(key) on the left.
struct TimePredicate {
  KeyKind kind;
  Node* key;
  int strategy;
  Node* t;
};

// What a time predicate comes down to on its key: `range`, the key's range
// of the times it keeps, for the estimate; `index_condition`, the range with
// the negative tsids a late time can also hold, for the index scan.
struct KeyRange {
  Expr* range;
  Expr* index_condition;
};

// Whether `clause` is a time predicate: an operator of timestamptz's btree
// family between a time function's call and a time free of the table's
// columns, of volatile functions and of subqueries.
bool match_time_predicate(const ExtensionObjects* objects, Node* clause, TimePredicate* predicate);

// The key range of `predicate`, false when the key type has no usable btree
// operators or the extension's bound functions are missing.
bool derive_key_range(const ExtensionObjects* objects, const TimePredicate& predicate, KeyRange* out);

// `clause` with each time predicate in it, at any depth of AND, OR and NOT,
// replaced by its key range; null when it holds none.
Expr* as_key_ranges(const ExtensionObjects* objects, Node* clause);

}  // namespace ulid_tsid::pg
