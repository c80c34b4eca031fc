// Time predicates on a key, as users write them (WHERE ulid_timestamp(id) >=
// now() - interval '1 hour'), become index range scans on the key.
//
// Postgres asks a planner support function for index conditions only about a
// clause whose operator (or boolean function) takes the indexed column itself
// as an argument; here the operator is timestamptz's >=, whose argument is
// ulid_timestamp(id), so no support function of ours is ever asked. Instead:
//  - ulid_timestamp(), tsid_timestamp() and uuidv7_timestamp() carry a support
//    function that answers SupportRequestSimplify by leaving the call as it is
//    and noting its own OID. The planner calls it while it simplifies the
//    query's expressions, which loads this library, so the hook below is in
//    place before paths are built, even for the first query of a session.
//  - A set_rel_pathlist_hook finds restriction clauses "time_fn(key) op t"
//    (op one of < <= = >= >, either side, t free of the table's columns and
//    of volatile functions), derives "key >= lower(t)", "key <= upper(t)" from
//    the key's clamped bounds (planner_bounds.cpp), and builds the index paths
//    again with those clauses added. The derived clauses only serve as index
//    conditions: the time predicate stays in the plan as a filter, so rounding
//    (keys hold milliseconds, timestamptz microseconds), clamping and NULLs
//    are all decided by the predicate itself. A derived condition is a
//    superset: it never drops a row the predicate keeps, and the bounds never
//    raise an error.
//  - The relation's row estimate takes each time predicate as its key range
//    (the derived bounds, estimated by selectivity.cpp) instead of Postgres's
//    default third of the table for an expression without statistics.
#include "postgres_api.hpp"

extern "C" {
#include "access/stratnum.h"
#include "catalog/pg_am.h"
#include "catalog/pg_class.h"
#include "catalog/pg_type.h"
#include "commands/defrem.h"
#include "nodes/makefuncs.h"
#include "nodes/nodeFuncs.h"
#include "nodes/pathnodes.h"
#include "nodes/supportnodes.h"
#include "optimizer/clauses.h"
#include "optimizer/cost.h"
#include "optimizer/optimizer.h"
#include "optimizer/paths.h"
#include "optimizer/restrictinfo.h"
#include "parser/parse_func.h"
#include "utils/lsyscache.h"
}

#include "time_predicates.hpp"

extern "C" {
PG_FUNCTION_INFO_V1(ulid_tsid_time_support);
}

namespace {

// The OIDs of our support function seen in this backend (one per database the
// backend has used it in is plenty; a re-created extension adds one).
constexpr int kMaxSupportOids = 4;
Oid g_support_oids[kMaxSupportOids];
int g_support_oid_count = 0;

set_rel_pathlist_hook_type g_previous_hook = nullptr;

void note_support_oid(Oid oid) {
  for (int i = 0; i < g_support_oid_count; ++i) {
    if (g_support_oids[i] == oid) return;
  }
  if (g_support_oid_count < kMaxSupportOids) {
    g_support_oids[g_support_oid_count++] = oid;
  } else {
    g_support_oids[kMaxSupportOids - 1] = oid;
  }
}

bool is_our_time_function(Oid funcid) {
  const RegProcedure support = get_func_support(funcid);
  if (!OidIsValid(support)) return false;
  for (int i = 0; i < g_support_oid_count; ++i) {
    if (g_support_oids[i] == support) return true;
  }
  return false;
}

enum class KeyKind { kUlid, kTsid, kUuidv7 };

// The call time_fn(key) if `node` is one: its key argument and the key's kind.
bool match_time_call(Node* node, Node** key, KeyKind* kind) {
  if (node == nullptr || !IsA(node, FuncExpr)) return false;
  FuncExpr* call = reinterpret_cast<FuncExpr*>(node);
  if (call->funcresulttype != TIMESTAMPTZOID || list_length(call->args) != 1) return false;
  if (!is_our_time_function(call->funcid)) return false;
  *key = static_cast<Node*>(linitial(call->args));
  const Oid key_type = exprType(*key);
  if (key_type == UUIDOID) {
    *kind = KeyKind::kUuidv7;
  } else if (get_typlen(key_type) == 16) {
    *kind = KeyKind::kUlid;
  } else if (get_typlen(key_type) == 8) {
    *kind = KeyKind::kTsid;
  } else {
    return false;
  }
  return true;
}

// The btree strategy of a timestamptz comparison operator, else 0.
int timestamptz_strategy(Oid opno) {
  const Oid opclass = GetDefaultOpClass(TIMESTAMPTZOID, BTREE_AM_OID);
  if (!OidIsValid(opclass)) return 0;
  return get_op_opfamily_strategy(opno, get_opclass_family(opclass));
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

// key_type's btree comparison operator of `strategy` (its default opclass's).
Oid key_operator(Oid key_type, int strategy) {
  const Oid opclass = GetDefaultOpClass(key_type, BTREE_AM_OID);
  if (!OidIsValid(opclass)) return InvalidOid;
  return get_opfamily_member(get_opclass_family(opclass), key_type, key_type, static_cast<int16>(strategy));
}

// The bound function `name`(timestamptz) in the time function's own schema.
Oid bound_function(Oid time_funcid, const char* name) {
  char* schema = get_namespace_name(get_func_namespace(time_funcid));
  if (schema == nullptr) return InvalidOid;
  const Oid arg_type = TIMESTAMPTZOID;
  return LookupFuncName(lappend(lappend(NIL, makeString(schema)), makeString(pstrdup(name))), 1, &arg_type, true);
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

// The index condition implied by "time_fn(key) <strategy> t", or null.
Expr* derive_condition(Oid time_funcid, KeyKind kind, Node* key, int strategy, Node* t, bool with_negative_tsids) {
  const char* prefix = kind == KeyKind::kUlid ? "ulid" : (kind == KeyKind::kTsid ? "tsid" : "uuidv7");
  const Oid bound_type = exprType(key);
  // A bigint key read as a tsid (tsid_timestamp(id::tsid), the cast being a
  // relabeling): the conditions go on the bigint, with bigint's operators.
  if (kind == KeyKind::kTsid && IsA(key, RelabelType) &&
      exprType(reinterpret_cast<Node*>(reinterpret_cast<RelabelType*>(key)->arg)) == INT8OID) {
    key = reinterpret_cast<Node*>(reinterpret_cast<RelabelType*>(key)->arg);
  }
  const Oid key_type = exprType(key);
  const Oid ge = key_operator(key_type, BTGreaterEqualStrategyNumber);
  const Oid le = key_operator(key_type, BTLessEqualStrategyNumber);
  const Oid lt = key_operator(key_type, BTLessStrategyNumber);
  const Oid lower_fn = bound_function(time_funcid, psprintf("%s_lower_bound_clamped", prefix));
  const Oid upper_fn = bound_function(time_funcid, psprintf("%s_upper_bound_clamped", prefix));
  if (!OidIsValid(ge) || !OidIsValid(le) || !OidIsValid(lt) || !OidIsValid(lower_fn) || !OidIsValid(upper_fn)) {
    return nullptr;
  }
  const bool wants_lower = strategy == BTGreaterStrategyNumber || strategy == BTGreaterEqualStrategyNumber ||
                           strategy == BTEqualStrategyNumber;
  const bool wants_upper = strategy == BTLessStrategyNumber || strategy == BTLessEqualStrategyNumber ||
                           strategy == BTEqualStrategyNumber;
  List* parts = NIL;
  if (wants_lower) parts = lappend(parts, compare(ge, key, bound_call(lower_fn, bound_type, key_type, t)));
  if (wants_upper) parts = lappend(parts, compare(le, key, bound_call(upper_fn, bound_type, key_type, t)));
  if (parts == NIL) return nullptr;
  Expr* range = list_length(parts) == 1 ? static_cast<Expr*>(linitial(parts)) : make_andclause(parts);
  // A negative tsid sorts before every bound above yet has a time after 2089:
  // wherever a late time can satisfy the predicate, such keys are added.
  if (with_negative_tsids && kind == KeyKind::kTsid && wants_lower) {
    Expr* zero = reinterpret_cast<Expr*>(
        makeConst(key_type, -1, InvalidOid, sizeof(int64), Int64GetDatum(0), false, FLOAT8PASSBYVAL));
    range = make_orclause(lappend(lappend(NIL, range), compare(lt, key, zero)));
  }
  return range;
}

RestrictInfo* restrict_info(PlannerInfo* root, Expr* clause, const RestrictInfo* original) {
#if PG_VERSION_NUM >= 140000
  RestrictInfo* info = make_simple_restrictinfo(root, clause);
#else
  RestrictInfo* info = make_simple_restrictinfo(clause);
#endif
  info->security_level = original->security_level;
  return info;
}

// Appends `condition`'s conjuncts to `list` as restrictions like `original`:
// index matching takes the conjuncts of a restriction one by one.
List* append_conjuncts(PlannerInfo* root, List* list, Expr* condition, const RestrictInfo* original) {
  condition = reinterpret_cast<Expr*>(eval_const_expressions(root, reinterpret_cast<Node*>(condition)));
  if (!is_andclause(condition)) return lappend(list, restrict_info(root, condition, original));
  ListCell* part;
  foreach (part, reinterpret_cast<BoolExpr*>(condition)->args) {
    list = lappend(list, restrict_info(root, static_cast<Expr*>(lfirst(part)), original));
  }
  return list;
}

// Derived index conditions for the time predicates among `rel`'s restrictions;
// *for_estimate gets the restrictions with each such predicate replaced by
// its key range (without the negative tsids, which only widen the scan).
List* derived_conditions(PlannerInfo* root, RelOptInfo* rel, List** for_estimate) {
  List* derived = NIL;
  *for_estimate = NIL;
  ListCell* cell;
  foreach (cell, rel->baserestrictinfo) {
    RestrictInfo* info = lfirst_node(RestrictInfo, cell);
    *for_estimate = lappend(*for_estimate, info);
    if (info->pseudoconstant || !IsA(info->clause, OpExpr)) continue;
    OpExpr* op = reinterpret_cast<OpExpr*>(info->clause);
    if (list_length(op->args) != 2) continue;
    Node* left = static_cast<Node*>(linitial(op->args));
    Node* right = static_cast<Node*>(lsecond(op->args));
    Node* key = nullptr;
    KeyKind kind;
    Node* t;
    Node* call;
    bool time_on_left;
    if (match_time_call(left, &key, &kind)) {
      call = left;
      t = right;
      time_on_left = true;
    } else if (match_time_call(right, &key, &kind)) {
      call = right;
      t = left;
      time_on_left = false;
    } else {
      continue;
    }
    if (exprType(t) != TIMESTAMPTZOID || contain_var_clause(t) || contain_volatile_functions(t) ||
        contain_subplans(t)) {
      continue;
    }
    int strategy = timestamptz_strategy(op->opno);
    if (strategy == 0) continue;
    if (!time_on_left) strategy = commuted(strategy);
    const Oid time_funcid = reinterpret_cast<FuncExpr*>(call)->funcid;
    Expr* condition = derive_condition(time_funcid, kind, key, strategy, t, true);
    if (condition == nullptr) continue;
    derived = append_conjuncts(root, derived, condition, info);
    *for_estimate = list_delete_last(*for_estimate);
    *for_estimate = append_conjuncts(root, *for_estimate, derive_condition(time_funcid, kind, key, strategy, t, false), info);
  }
  return derived;
}

// The row estimate of `rel` with its time predicates estimated as the key
// ranges they come down to (Postgres has no statistics on ulid_timestamp(id)
// and would take a third of the table for each), carried over to the paths
// built so far. Appendrel members are left alone: their parent's size is
// already summed up.
void estimate_as_key_ranges(PlannerInfo* root, RelOptInfo* rel, List* for_estimate) {
  if (rel->reloptkind != RELOPT_BASEREL || rel->rows <= 0) return;
  // The key estimators look for a range's other end among these.
  List* restrictions = rel->baserestrictinfo;
  rel->baserestrictinfo = for_estimate;
  const double rows = clamp_row_est(rel->tuples * clauselist_selectivity(root, for_estimate, 0, JOIN_INNER, nullptr));
  rel->baserestrictinfo = restrictions;
  const double ratio = rows / rel->rows;
  rel->rows = rows;
  ListCell* cell;
  foreach (cell, rel->pathlist) {
    Path* path = static_cast<Path*>(lfirst(cell));
    path->rows = path->param_info == nullptr ? rows : clamp_row_est(path->rows * ratio);
  }
  foreach (cell, rel->partial_pathlist) {
    Path* path = static_cast<Path*>(lfirst(cell));
    path->rows = clamp_row_est(path->rows * ratio);
  }
  foreach (cell, rel->ppilist) {
    ParamPathInfo* info = static_cast<ParamPathInfo*>(lfirst(cell));
    info->ppi_rows = clamp_row_est(info->ppi_rows * ratio);
  }
}

void add_time_index_paths(PlannerInfo* root, RelOptInfo* rel, Index rti, RangeTblEntry* rte) {
  if (g_previous_hook != nullptr) g_previous_hook(root, rel, rti, rte);
  // Plain tables and materialized views only: a partitioned or inheritance
  // parent (rte->inh) is scanned through its children, which come here each,
  // and its index list may hold partitioned indexes, which cannot be scanned.
  if (g_support_oid_count == 0 || rte->rtekind != RTE_RELATION || rte->inh || rel->indexlist == NIL) return;
  if (rte->relkind != RELKIND_RELATION && rte->relkind != RELKIND_MATVIEW) return;
  if (rel->reloptkind != RELOPT_BASEREL && rel->reloptkind != RELOPT_OTHER_MEMBER_REL) return;
  List* for_estimate;
  List* derived = derived_conditions(root, rel, &for_estimate);
  if (derived == NIL) return;
  estimate_as_key_ranges(root, rel, for_estimate);
  // The derived clauses take part in index matching only: the filter (the
  // restrictions at plan creation) is the time predicates themselves.
  // Index matching reads each index's own copy of the restrictions
  // (indrestrictinfo), OR clauses the relation's.
  List* restrictions = rel->baserestrictinfo;
  rel->baserestrictinfo = list_concat(list_copy(restrictions), derived);
  ListCell* cell;
  foreach (cell, rel->indexlist) {
    IndexOptInfo* index = lfirst_node(IndexOptInfo, cell);
    index->indrestrictinfo = list_concat(list_copy(index->indrestrictinfo), derived);
  }
  create_index_paths(root, rel);
  foreach (cell, rel->indexlist) {
    IndexOptInfo* index = lfirst_node(IndexOptInfo, cell);
    index->indrestrictinfo = list_truncate(index->indrestrictinfo, list_length(index->indrestrictinfo) - list_length(derived));
  }
  rel->baserestrictinfo = restrictions;
}

}  // namespace

namespace ulid_tsid::pg {

void install_time_predicate_hook() {
  g_previous_hook = set_rel_pathlist_hook;
  set_rel_pathlist_hook = add_time_index_paths;
}

}  // namespace ulid_tsid::pg

// Support function of the time functions: see the top of this file.
Datum ulid_tsid_time_support(PG_FUNCTION_ARGS) {
  Node* request = reinterpret_cast<Node*>(PG_GETARG_POINTER(0));
  if (IsA(request, SupportRequestSimplify)) note_support_oid(fcinfo->flinfo->fn_oid);
  return static_cast<Datum>(0);  // no replacement: the call stays as it is
}
