// Restriction selectivity of <, <=, >, >= on ulid and tsid keys (and on the
// cross-type operators that compare a key with a uuid or an integer).
//
// Postgres's scalarltsel() and kin interpolate inside a histogram bucket only
// for types convert_to_scalar() knows; for any other type they take half a
// bucket. With 100 buckets over a day that makes "the last minute" 1/200 of
// the table, ten times too many rows. Here a key is placed inside its bucket
// by its 128-bit position (key_position.hpp: the time first), as Postgres does
// for numbers. Where there is no histogram, or the other side is not a
// constant, the answer is Postgres's own. Join selectivity stays Postgres's.
#include "postgres_api.hpp"

extern "C" {
#include "access/htup_details.h"
#include "catalog/pg_statistic.h"
#include "catalog/pg_type.h"
#include "nodes/pathnodes.h"
#include "optimizer/optimizer.h"
#include "utils/fmgrprotos.h"
#include "utils/lsyscache.h"
#include "utils/selfuncs.h"
}

#include "../core/key_position.hpp"
#include "actual_endpoint.hpp"
#include "extension_objects.hpp"
#include "selectivity.hpp"

extern "C" {
PG_FUNCTION_INFO_V1(ulid_tsid_scalarltsel);
PG_FUNCTION_INFO_V1(ulid_tsid_scalarlesel);
PG_FUNCTION_INFO_V1(ulid_tsid_scalargtsel);
PG_FUNCTION_INFO_V1(ulid_tsid_scalargesel);
}

using namespace ulid_tsid;
using namespace ulid_tsid::pg;

namespace {

// The position of a key or of a value compared with one: 16-byte values
// (ulid, uuid) by their bytes, 8-byte by-value ones (tsid, int8) and int4,
// int2 as signed integers. False for anything else.
bool position_of(Datum value, Oid type, KeyPosition* position) {
  if (type == INT4OID) {
    *position = key_position_64(DatumGetInt32(value));
    return true;
  }
  if (type == INT2OID) {
    *position = key_position_64(DatumGetInt16(value));
    return true;
  }
  const int16 length = get_typlen(type);
  if (length == 16 && !get_typbyval(type)) {
    *position = key_position_128(reinterpret_cast<const std::uint8_t*>(DatumGetPointer(value)));
    return true;
  }
  if (length == 8 && get_typbyval(type)) {
    *position = key_position_64(DatumGetInt64(value));
    return true;
  }
  return false;
}

// The fraction of the histogram below `key`, or -1 when it cannot be placed.
// `outside` says that the key lies beyond the histogram's ends, where its
// bounds (possibly out of date) are all there is to go by.
double histogram_fraction_below(const AttStatsSlot& histogram, Oid value_type, KeyPosition key, bool* outside) {
  const int n = histogram.nvalues;
  KeyPosition first, last;
  if (!position_of(histogram.values[0], value_type, &first) ||
      !position_of(histogram.values[n - 1], value_type, &last)) {
    return -1.0;
  }
  *outside = key < first || key > last;
  if (key <= first) return 0.0;
  if (key >= last) return 1.0;
  // The bucket [values[low], values[low + 1]] that holds the key.
  int low = 0, high = n - 1;
  while (high - low > 1) {
    const int mid = (low + high) / 2;
    KeyPosition at;
    if (!position_of(histogram.values[mid], value_type, &at)) return -1.0;
    if (at <= key) {
      low = mid;
    } else {
      high = mid;
    }
  }
  KeyPosition bucket_low, bucket_high;
  position_of(histogram.values[low], value_type, &bucket_low);
  position_of(histogram.values[high], value_type, &bucket_high);
  return (low + fraction_between(bucket_low, bucket_high, key)) / (n - 1);
}

// Our selectivity of one clause "var op constant": -1 when Postgres's own must
// answer (no histogram, not a constant, a type we cannot place).
double histogram_selectivity_of(PlannerInfo* root, Oid operator_oid, List* args, int var_relid, Oid collation,
                                bool is_greater) {
  VariableStatData vardata;
  Node* other;
  bool var_on_left;
  if (!get_restriction_variable(root, args, var_relid, &vardata, &other, &var_on_left)) return -1.0;
  if (!IsA(other, Const) || !HeapTupleIsValid(vardata.statsTuple)) {
    ReleaseVariableStats(vardata);
    return -1.0;
  }
  const Const* constant = reinterpret_cast<const Const*>(other);
  if (constant->constisnull) {
    ReleaseVariableStats(vardata);
    return 0.0;
  }
  KeyPosition key;
  AttStatsSlot histogram;
  if (!position_of(constant->constvalue, constant->consttype, &key) ||
      !get_attstatsslot(&histogram, vardata.statsTuple, STATISTIC_KIND_HISTOGRAM, InvalidOid, ATTSTATSSLOT_VALUES)) {
    ReleaseVariableStats(vardata);
    return -1.0;
  }
  // A key in the first or last bucket, or beyond: the histogram's end there
  // is replaced by the column's actual minimum or maximum where an index
  // gives it, as Postgres does for its own types.
  bool have_end = false;
  const int n = histogram.nvalues;
  KeyPosition near_end;
  if (n > 2 && position_of(histogram.values[n - 2], vardata.atttype, &near_end) && key >= near_end) {
    have_end = actual_endpoint(root, &vardata, histogram.staop, true, &histogram.values[n - 1]);
  } else if (n > 2 && position_of(histogram.values[1], vardata.atttype, &near_end) && key <= near_end) {
    have_end = actual_endpoint(root, &vardata, histogram.staop, false, &histogram.values[0]);
  }
  bool outside = false;
  const double below = n >= 2 ? histogram_fraction_below(histogram, vardata.atttype, key, &outside) : -1.0;
  const int buckets = n - 1;
  free_attstatsslot(&histogram);
  if (below < 0.0) {
    ReleaseVariableStats(vardata);
    return -1.0;
  }
  // "constant < column" asks for the rows above the constant.
  const bool wants_above = var_on_left ? is_greater : !is_greater;
  double histogram_selectivity = wants_above ? 1.0 - below : below;
  if (outside && !have_end) {
    // As Postgres does without fresh endpoints: beyond the histogram, trust
    // it to no finer than a hundredth of a bucket.
    const double cutoff = 0.01 / buckets;
    if (histogram_selectivity < cutoff) histogram_selectivity = cutoff;
    if (histogram_selectivity > 1.0 - cutoff) histogram_selectivity = 1.0 - cutoff;
  }
  // The most common values (none for unique keys) count apart, as in Postgres.
  FmgrInfo operator_proc;
  fmgr_info(get_opcode(operator_oid), &operator_proc);
  double common_total = 0.0;
  const double common_selectivity =
      mcv_selectivity(&vardata, &operator_proc, collation, constant->constvalue, var_on_left, &common_total);
  const double null_fraction = reinterpret_cast<Form_pg_statistic>(GETSTRUCT(vardata.statsTuple))->stanullfrac;
  ReleaseVariableStats(vardata);
  double selectivity = histogram_selectivity * (1.0 - null_fraction - common_total) + common_selectivity;
  CLAMP_PROBABILITY(selectivity);
  return selectivity;
}

PGFunction postgres_own(bool is_greater, bool or_equal) {
  if (is_greater) return or_equal ? scalargesel : scalargtsel;
  return or_equal ? scalarlesel : scalarltsel;
}

double clause_selectivity(PlannerInfo* root, Oid operator_oid, List* args, int var_relid, Oid collation,
                          bool is_greater, bool or_equal) {
  const double ours = histogram_selectivity_of(root, operator_oid, args, var_relid, collation, is_greater);
  if (ours >= 0.0) return ours;
  return DatumGetFloat8(DirectFunctionCall4Coll(postgres_own(is_greater, or_equal), collation,
                                                PointerGetDatum(root), ObjectIdGetDatum(operator_oid),
                                                PointerGetDatum(args), Int32GetDatum(var_relid)));
}

// Which of this file's functions estimates `operator_oid`: false if none.
bool our_restriction(const ExtensionObjects* objects, Oid operator_oid, bool* is_greater, bool* or_equal) {
  const RegProcedure restrict_fn = get_oprrest(operator_oid);
  if (!OidIsValid(restrict_fn)) return false;
  for (int i = 0; i < kInequalities; ++i) {
    if (objects->estimator[i] != restrict_fn) continue;
    *is_greater = i == kGreater || i == kGreaterEqual;
    *or_equal = i == kLessEqual || i == kGreaterEqual;
    return true;
  }
  return false;
}

Node* without_relabel(Node* node) {
  while (node != nullptr && IsA(node, RelabelType)) node = reinterpret_cast<Node*>(reinterpret_cast<RelabelType*>(node)->arg);
  return node;
}

// The restrictions of key_range_selectivity()'s call, while it runs.
List* g_estimated_clauses = NIL;

Node* bare_clause(Node* node) {
  if (node != nullptr && IsA(node, RestrictInfo)) {
    RestrictInfo* info = reinterpret_cast<RestrictInfo*>(node);
    return reinterpret_cast<Node*>(info->orclause != nullptr ? info->orclause : info->clause);
  }
  return node;
}

// Whether `op` is the clause the estimator was given `args` of: the very
// list, or (by_content) the same arguments either way round, as in the
// commuted copy of a clause that index matching makes ("c > id" as "id < c").
bool is_clause_of(const OpExpr* op, const List* args, bool by_content) {
  if (op->args == args) return true;
  if (!by_content || list_length(op->args) != 2 || list_length(args) != 2) return false;
  const void* a = linitial(op->args);
  const void* b = lsecond(op->args);
  return (equal(a, linitial(args)) && equal(b, lsecond(args))) || (equal(a, lsecond(args)) && equal(b, linitial(args)));
}

// Finds the clause of `args` in `node`, one of the ANDed clauses `conjuncts`
// (NIL for an arm of an OR that is no AND): *found is the innermost AND list
// that holds it, the only clauses it is ANDed with for certain.
bool find_conjunction(Node* node, List* conjuncts, const List* args, bool by_content, List** found) {
  node = bare_clause(node);
  if (node == nullptr) return false;
  if (IsA(node, OpExpr)) {
    if (!is_clause_of(reinterpret_cast<OpExpr*>(node), args, by_content)) return false;
    *found = conjuncts;
    return true;
  }
  if (!IsA(node, BoolExpr)) return false;
  BoolExpr* expr = reinterpret_cast<BoolExpr*>(node);
  ListCell* cell;
  foreach (cell, expr->args) {
    Node* arg = static_cast<Node*>(lfirst(cell));
    // Below an AND its own arguments are the conjuncts; below an OR or a NOT
    // an argument stands alone (or is an AND, which the call handles).
    if (find_conjunction(arg, expr->boolop == AND_EXPR ? expr->args : NIL, args, by_content, found)) return true;
  }
  return false;
}

bool find_in(List* clauses, const List* args, bool by_content, List** found) {
  ListCell* cell;
  foreach (cell, clauses) {
    if (find_conjunction(static_cast<Node*>(lfirst(cell)), clauses, args, by_content, found)) return true;
  }
  return false;
}

// The clauses ANDed with the clause of `args`: its innermost AND among
// key_range_selectivity()'s clauses or the relation's restrictions, where the
// relation's restrictions and its join clauses count as one AND (a
// parameterized path applies both). NIL when it stands alone or is not found.
List* conjunction_of(RelOptInfo* rel, const List* args, bool* top_level) {
  List* found = NIL;
  *top_level = false;
  for (int pass = 0; pass < 2; ++pass) {
    const bool by_content = pass == 1;
    if (g_estimated_clauses != NIL && find_in(g_estimated_clauses, args, by_content, &found)) return found;
    if (find_in(rel->baserestrictinfo, args, by_content, &found) || find_in(rel->joininfo, args, by_content, &found)) {
      *top_level = found != NIL && (found == rel->baserestrictinfo || found == rel->joininfo);
      return found;
    }
  }
  return NIL;
}

// The lower bound on `var` among `conjuncts`, if one is estimated here: its
// selectivity.
bool lower_bound_in(PlannerInfo* root, const ExtensionObjects* objects, List* conjuncts, const List* args, Node* var,
                    int var_relid, Oid collation, double* lower) {
  ListCell* cell;
  foreach (cell, conjuncts) {
    Node* node = bare_clause(static_cast<Node*>(lfirst(cell)));
    if (node == nullptr || !IsA(node, OpExpr)) continue;
    OpExpr* op = reinterpret_cast<OpExpr*>(node);
    bool is_greater, or_equal;
    if (is_clause_of(op, args, false) || list_length(op->args) != 2 || !our_restriction(objects, op->opno, &is_greater, &or_equal)) {
      continue;
    }
    const bool on_left = equal(without_relabel(static_cast<Node*>(linitial(op->args))), var);
    const bool on_right = !on_left && equal(without_relabel(static_cast<Node*>(lsecond(op->args))), var);
    if (!(on_left && is_greater) && !(on_right && !is_greater)) continue;  // not a lower bound on var
    *lower = clause_selectivity(root, op->opno, op->args, var_relid, collation, is_greater, or_equal);
    return true;
  }
  return false;
}

// Postgres estimates "x > a AND x < b" as one range (the two selectivities
// added, minus one) only for operators whose estimator is its own
// scalarltsel() & co.; for any other it multiplies them, which for a narrow
// window in the middle of a table is off by orders of magnitude. So an upper
// bound ANDed with a lower bound on the same column (in the same AND: the
// relation's restrictions, or one arm of an OR) returns range / lower:
// multiplied by the lower bound's own estimate, that is the range Postgres
// would have estimated.
double range_share(PlannerInfo* root, const ExtensionObjects* objects, List* args, int var_relid, Oid collation,
                   double upper_selectivity) {
  VariableStatData vardata;
  Node* other;
  bool var_on_left;
  if (!get_restriction_variable(root, args, var_relid, &vardata, &other, &var_on_left)) return upper_selectivity;
  Node* var = vardata.var;
  const double null_fraction =
      HeapTupleIsValid(vardata.statsTuple)
          ? reinterpret_cast<Form_pg_statistic>(GETSTRUCT(vardata.statsTuple))->stanullfrac
          : 0.0;
  ReleaseVariableStats(vardata);
  if (var == nullptr || !IsA(var, Var)) return upper_selectivity;
  const Index varno = var_relid != 0 ? static_cast<Index>(var_relid) : reinterpret_cast<Var*>(var)->varno;
  if (varno == 0 || static_cast<int>(varno) >= root->simple_rel_array_size) return upper_selectivity;
  RelOptInfo* rel = root->simple_rel_array[varno];
  if (rel == nullptr) return upper_selectivity;
  bool top_level;
  List* conjuncts = conjunction_of(rel, args, &top_level);
  double lower;
  if (!lower_bound_in(root, objects, conjuncts, args, var, var_relid, collation, &lower) &&
      !(top_level && lower_bound_in(root, objects, conjuncts == rel->baserestrictinfo ? rel->joininfo : rel->baserestrictinfo,
                                    args, var, var_relid, collation, &lower))) {
    return upper_selectivity;
  }
  double range;
  if (lower == DEFAULT_INEQ_SEL || upper_selectivity == DEFAULT_INEQ_SEL) {
    range = DEFAULT_RANGE_INEQ_SEL;  // as Postgres: no real estimate of either end
  } else {
    range = upper_selectivity + lower - 1.0 + null_fraction;
    if (range <= 0.0) range = range < -0.01 ? DEFAULT_RANGE_INEQ_SEL : 1.0e-10;
  }
  if (lower <= 0.0) return upper_selectivity;
  double share = range / lower;
  CLAMP_PROBABILITY(share);
  return share;
}

Datum inequality_selectivity(FunctionCallInfo fcinfo, bool is_greater, bool or_equal) {
  PlannerInfo* root = reinterpret_cast<PlannerInfo*>(PG_GETARG_POINTER(0));
  const Oid operator_oid = PG_GETARG_OID(1);
  List* args = reinterpret_cast<List*>(PG_GETARG_POINTER(2));
  const int var_relid = PG_GETARG_INT32(3);
  const Oid collation = PG_GET_COLLATION();
  const double selectivity = clause_selectivity(root, operator_oid, args, var_relid, collation, is_greater, or_equal);
  // Only an upper bound ("var < c", "c > var") looks for its lower bound.
  VariableStatData vardata;
  Node* other;
  bool var_on_left;
  if (!get_restriction_variable(root, args, var_relid, &vardata, &other, &var_on_left)) PG_RETURN_FLOAT8(selectivity);
  ReleaseVariableStats(vardata);
  const bool is_upper_bound = var_on_left ? !is_greater : is_greater;
  if (!is_upper_bound) PG_RETURN_FLOAT8(selectivity);
  const ExtensionObjects* objects = extension_objects_of(fcinfo->flinfo->fn_oid);
  PG_RETURN_FLOAT8(range_share(root, objects, args, var_relid, collation, selectivity));
}

}  // namespace

Datum ulid_tsid_scalarltsel(PG_FUNCTION_ARGS) { return inequality_selectivity(fcinfo, false, false); }
Datum ulid_tsid_scalarlesel(PG_FUNCTION_ARGS) { return inequality_selectivity(fcinfo, false, true); }
Datum ulid_tsid_scalargtsel(PG_FUNCTION_ARGS) { return inequality_selectivity(fcinfo, true, false); }
Datum ulid_tsid_scalargesel(PG_FUNCTION_ARGS) { return inequality_selectivity(fcinfo, true, true); }

namespace ulid_tsid::pg {

double key_range_selectivity(PlannerInfo* root, List* clauses) {
  // The clauses are no relation's restrictions (yet): the estimators look for
  // a range's other end among them. An ERROR leaves nothing behind.
  g_estimated_clauses = clauses;
  double selectivity = 0.0;
  PG_TRY();
  { selectivity = clauselist_selectivity(root, clauses, 0, JOIN_INNER, nullptr); }
  PG_FINALLY();
  { g_estimated_clauses = NIL; }
  PG_END_TRY();
  return selectivity;
}

}  // namespace ulid_tsid::pg
