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
#include "utils/fmgrprotos.h"
#include "utils/lsyscache.h"
#include "utils/selfuncs.h"
}

#include "../core/key_position.hpp"
#include "actual_endpoint.hpp"

extern "C" {
PG_FUNCTION_INFO_V1(ulid_tsid_scalarltsel);
PG_FUNCTION_INFO_V1(ulid_tsid_scalarlesel);
PG_FUNCTION_INFO_V1(ulid_tsid_scalargtsel);
PG_FUNCTION_INFO_V1(ulid_tsid_scalargesel);
}

using namespace ulid_tsid;
using ulid_tsid::pg::actual_endpoint;

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
bool our_restriction(Oid operator_oid, Oid our_namespace, bool* is_greater, bool* or_equal) {
  const RegProcedure restrict_fn = get_oprrest(operator_oid);
  if (!OidIsValid(restrict_fn) || get_func_namespace(restrict_fn) != our_namespace) return false;
  const char* name = get_func_name(restrict_fn);
  if (name == nullptr || strncmp(name, "ulid_tsid_scalar", 16) != 0 || strlen(name) != 21) return false;
  *is_greater = name[16] == 'g';
  *or_equal = name[17] == 'e';
  return strcmp(name + 18, "sel") == 0 && (name[17] == 't' || name[17] == 'e');
}

Node* without_relabel(Node* node) {
  while (node != nullptr && IsA(node, RelabelType)) node = reinterpret_cast<Node*>(reinterpret_cast<RelabelType*>(node)->arg);
  return node;
}

// Postgres estimates "x > a AND x < b" as one range (the two selectivities
// added, minus one) only for operators whose estimator is its own
// scalarltsel() & co.; for any other it multiplies them, which for a narrow
// window in the middle of a table is off by orders of magnitude. So an upper
// bound that finds a lower bound on the same column among the relation's
// restrictions returns range / lower: multiplied by the lower bound's own
// estimate, that is the range Postgres would have estimated.
double range_share(PlannerInfo* root, List* args, int var_relid, Oid collation, Oid our_namespace,
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
  ListCell* cell;
  foreach (cell, rel->baserestrictinfo) {
    RestrictInfo* info = lfirst_node(RestrictInfo, cell);
    if (!IsA(info->clause, OpExpr)) continue;
    OpExpr* op = reinterpret_cast<OpExpr*>(info->clause);
    bool is_greater, or_equal;
    if (list_length(op->args) != 2 || !our_restriction(op->opno, our_namespace, &is_greater, &or_equal)) continue;
    const bool on_left = equal(without_relabel(static_cast<Node*>(linitial(op->args))), var);
    const bool on_right = !on_left && equal(without_relabel(static_cast<Node*>(lsecond(op->args))), var);
    if (!(on_left && is_greater) && !(on_right && !is_greater)) continue;  // not a lower bound on var
    const double lower =
        clause_selectivity(root, op->opno, op->args, var_relid, collation, is_greater, or_equal);
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
  return upper_selectivity;
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
  PG_RETURN_FLOAT8(
      range_share(root, args, var_relid, collation, get_func_namespace(fcinfo->flinfo->fn_oid), selectivity));
}

}  // namespace

Datum ulid_tsid_scalarltsel(PG_FUNCTION_ARGS) { return inequality_selectivity(fcinfo, false, false); }
Datum ulid_tsid_scalarlesel(PG_FUNCTION_ARGS) { return inequality_selectivity(fcinfo, false, true); }
Datum ulid_tsid_scalargtsel(PG_FUNCTION_ARGS) { return inequality_selectivity(fcinfo, true, false); }
Datum ulid_tsid_scalargesel(PG_FUNCTION_ARGS) { return inequality_selectivity(fcinfo, true, true); }
