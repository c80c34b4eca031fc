// Time predicates ("time_fn(key) op t") recognised, and the key range each
// comes down to: what the planner hooks of time_predicates.cpp add.
#include "postgres_api.hpp"

#include "time_predicate_ranges.hpp"

extern "C" {
#include "access/stratnum.h"
#include "catalog/pg_type.h"
#include "nodes/makefuncs.h"
#include "nodes/nodeFuncs.h"
#include "optimizer/clauses.h"
#include "optimizer/optimizer.h"
#include "utils/lsyscache.h"
#include "utils/typcache.h"
}

namespace ulid_tsid::pg {
namespace {

// The kind of key `node` takes the time of, if it is a call of one of the
// extension's time functions.
bool match_time_call(const ExtensionObjects* objects, Node* node, KeyKind* kind, Node** key) {
  if (node == nullptr || !IsA(node, FuncExpr)) return false;
  FuncExpr* call = reinterpret_cast<FuncExpr*>(node);
  if (list_length(call->args) != 1) return false;
  for (int k = 0; k < kKeyKinds; ++k) {
    if (call->funcid != objects->time_function[k] || !OidIsValid(call->funcid)) continue;
    *kind = static_cast<KeyKind>(k);
    *key = static_cast<Node*>(linitial(call->args));
    return exprType(*key) == objects->key_type[k];
  }
  return false;
}

// The btree strategy of a timestamptz comparison operator, else 0 (the type
// cache keeps timestamptz's btree operator family).
int timestamptz_strategy(Oid opno) {
  const TypeCacheEntry* entry = lookup_type_cache(TIMESTAMPTZOID, TYPECACHE_BTREE_OPFAMILY);
  if (!OidIsValid(entry->btree_opf)) return 0;
  return get_op_opfamily_strategy(opno, entry->btree_opf);
}

int commuted(int strategy) {
  switch (strategy) {
    case BTLessStrategyNumber: return BTGreaterStrategyNumber;
    case BTLessEqualStrategyNumber: return BTGreaterEqualStrategyNumber;
    case BTGreaterEqualStrategyNumber: return BTLessEqualStrategyNumber;
    case BTGreaterStrategyNumber: return BTLessStrategyNumber;
    default: return strategy;
  }
}

Expr* compare(Oid opno, Node* key, Expr* bound) {
  return make_opclause(opno, BOOLOID, false, static_cast<Expr*>(copyObjectImpl(key)), bound, InvalidOid, InvalidOid);
}

// bound_fn(t), relabeled to the key's type where that differs (tsid -> bigint).
Expr* bound_call(Oid bound_fn, Oid bound_type, Oid key_type, Node* t) {
  Expr* call = reinterpret_cast<Expr*>(
      makeFuncExpr(bound_fn, bound_type, lappend(NIL, copyObjectImpl(t)), InvalidOid, InvalidOid, COERCE_EXPLICIT_CALL));
  if (key_type == bound_type) return call;
  return reinterpret_cast<Expr*>(makeRelabelType(call, key_type, -1, InvalidOid, COERCE_IMPLICIT_CAST));
}

}  // namespace

// Whether `clause` is a time predicate: an operator of timestamptz's btree
// family between a time function's call and a time free of the table's
// columns, of volatile functions and of subqueries.
bool match_time_predicate(const ExtensionObjects* objects, Node* clause, TimePredicate* predicate) {
  if (clause == nullptr || !IsA(clause, OpExpr)) return false;
  OpExpr* op = reinterpret_cast<OpExpr*>(clause);
  if (list_length(op->args) != 2) return false;
  Node* left = static_cast<Node*>(linitial(op->args));
  Node* right = static_cast<Node*>(lsecond(op->args));
  bool time_on_left = true;
  if (match_time_call(objects, left, &predicate->kind, &predicate->key)) {
    predicate->t = right;
  } else if (match_time_call(objects, right, &predicate->kind, &predicate->key)) {
    predicate->t = left;
    time_on_left = false;
  } else {
    return false;
  }
  Node* t = predicate->t;
  if (exprType(t) != TIMESTAMPTZOID || contain_var_clause(t) || contain_volatile_functions(t) || contain_subplans(t)) {
    return false;
  }
  const int strategy = timestamptz_strategy(op->opno);
  if (strategy == 0) return false;
  predicate->strategy = time_on_left ? strategy : commuted(strategy);
  return true;
}

bool derive_key_range(const ExtensionObjects* objects, const TimePredicate& predicate, KeyRange* out) {
  const Oid bound_type = objects->key_type[predicate.kind];
  Node* key = predicate.key;
  // A bigint key read as a tsid (tsid_timestamp(id::tsid), the cast being a
  // relabeling): the conditions go on the bigint, with bigint's operators.
  if (predicate.kind == kTsidKey && IsA(key, RelabelType) &&
      exprType(reinterpret_cast<Node*>(reinterpret_cast<RelabelType*>(key)->arg)) == INT8OID) {
    key = reinterpret_cast<Node*>(reinterpret_cast<RelabelType*>(key)->arg);
  }
  const Oid key_type = exprType(key);
  // The key type's btree operators, from the type cache's operator family.
  const TypeCacheEntry* entry = lookup_type_cache(key_type, TYPECACHE_BTREE_OPFAMILY);
  if (!OidIsValid(entry->btree_opf)) return false;
  const Oid ge = get_opfamily_member(entry->btree_opf, key_type, key_type, BTGreaterEqualStrategyNumber);
  const Oid le = get_opfamily_member(entry->btree_opf, key_type, key_type, BTLessEqualStrategyNumber);
  const Oid lt = get_opfamily_member(entry->btree_opf, key_type, key_type, BTLessStrategyNumber);
  const Oid lower_fn = objects->lower_bound_clamped[predicate.kind];
  const Oid upper_fn = objects->upper_bound_clamped[predicate.kind];
  if (!OidIsValid(ge) || !OidIsValid(le) || !OidIsValid(lt) || !OidIsValid(lower_fn) || !OidIsValid(upper_fn)) {
    return false;
  }
  const int strategy = predicate.strategy;
  const bool wants_lower = strategy == BTGreaterStrategyNumber || strategy == BTGreaterEqualStrategyNumber ||
                           strategy == BTEqualStrategyNumber;
  const bool wants_upper = strategy == BTLessStrategyNumber || strategy == BTLessEqualStrategyNumber ||
                           strategy == BTEqualStrategyNumber;
  List* parts = NIL;
  if (wants_lower) parts = lappend(parts, compare(ge, key, bound_call(lower_fn, bound_type, key_type, predicate.t)));
  if (wants_upper) parts = lappend(parts, compare(le, key, bound_call(upper_fn, bound_type, key_type, predicate.t)));
  if (parts == NIL) return false;
  out->range = list_length(parts) == 1 ? static_cast<Expr*>(linitial(parts)) : make_andclause(parts);
  out->index_condition = out->range;
  // A negative tsid sorts before every bound above yet has a time after 2089:
  // wherever a late time can satisfy the predicate, such keys are added.
  if (predicate.kind == kTsidKey && wants_lower) {
    Expr* zero = reinterpret_cast<Expr*>(
        makeConst(key_type, -1, InvalidOid, sizeof(int64), Int64GetDatum(0), false, FLOAT8PASSBYVAL));
    out->index_condition = make_orclause(lappend(lappend(NIL, out->range), compare(lt, key, zero)));
  }
  return true;
}

// `clause` with each time predicate in it, at any depth of AND, OR and NOT,
// replaced by its key range; null when it holds none.
Expr* as_key_ranges(const ExtensionObjects* objects, Node* clause) {
  TimePredicate predicate;
  KeyRange range;
  if (match_time_predicate(objects, clause, &predicate)) {
    return derive_key_range(objects, predicate, &range) ? range.range : nullptr;
  }
  if (clause == nullptr || !IsA(clause, BoolExpr)) return nullptr;
  BoolExpr* expr = reinterpret_cast<BoolExpr*>(clause);
  List* args = NIL;
  bool changed = false;
  ListCell* cell;
  foreach (cell, expr->args) {
    Expr* arg = as_key_ranges(objects, static_cast<Node*>(lfirst(cell)));
    changed = changed || arg != nullptr;
    args = lappend(args, arg != nullptr ? arg : lfirst(cell));
  }
  return changed ? makeBoolExpr(expr->boolop, args, expr->location) : nullptr;
}

}  // namespace ulid_tsid::pg
