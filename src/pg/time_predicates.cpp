// Time predicates on a key, as users write them (WHERE ulid_timestamp(id) >=
// now() - interval '1 hour'), become index range scans on the key.
//
// Postgres asks a planner support function for index conditions only about a
// clause whose operator (or boolean function) takes the indexed column itself
// as an argument; here the operator is timestamptz's >=, whose argument is
// ulid_timestamp(id), so no support function of ours is ever asked. Instead:
//  - ulid_timestamp(), tsid_timestamp() and uuidv7_timestamp() carry a support
//    function that answers SupportRequestSimplify by leaving the call as it is
//    and noting the extension it belongs to (extension_objects.hpp: its
//    functions by OID, never by name). The planner calls it while it
//    simplifies the query's expressions, which loads this library, so the
//    hook below is in place before paths are built, even for the first query
//    of a session.
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
//  - On a table that is scanned through its children (a partitioned table,
//    an inheritance parent, a TimescaleDB hypertable, whose chunks inherit
//    from it), a hook where the relation is built (get_relation_info_hook;
//    build_simple_rel_hook on 19), before the query's clauses are given to
//    their relations, adds the same derived range next to each time predicate
//    on the parent's key in the query's own qualifications, as one more
//    conjunct: partition pruning and TimescaleDB's chunk exclusion (at
//    planning for a constant time, at executor start for now()) work on the
//    relation's restrictions, which then hold it, and every child inherits it
//    as a restriction. The conjunct is implied by the predicate beside it
//    (its range is a superset), so the qualification keeps the same rows. A
//    plain table gets no such conjunct: its range serves as index condition
//    only, as above, and the children's paths do not add it twice.
//  - The relation's row estimate takes each time predicate, inside an OR or
//    not, as its key range (the derived bounds, estimated by selectivity.cpp)
//    instead of Postgres's default third of the table for an expression
//    without statistics, partitions included. This is done in the same step,
//    before the index paths with the derived conditions are built, so those
//    carry it from the start; the paths Postgres built before (their costs do
//    not depend on the row estimate, only their row counts do) and the sizes
//    of a partition's parents get the new row count.
#include "postgres_api.hpp"

extern "C" {
#include "access/stratnum.h"
#include "catalog/pg_class.h"
#include "catalog/pg_inherits.h"
#include "catalog/pg_type.h"
#include "nodes/makefuncs.h"
#include "nodes/nodeFuncs.h"
#include "nodes/pathnodes.h"
#include "nodes/supportnodes.h"
#include "optimizer/clauses.h"
#include "optimizer/cost.h"
#include "optimizer/optimizer.h"
#include "optimizer/pathnode.h"
#include "optimizer/paths.h"
#include "optimizer/plancat.h"
#include "optimizer/restrictinfo.h"
#include "parser/parsetree.h"
#include "utils/lsyscache.h"
#include "utils/typcache.h"
}

#include "extension_objects.hpp"
#include "selectivity.hpp"
#include "time_predicate_ranges.hpp"
#include "time_predicates.hpp"

extern "C" {
PG_FUNCTION_INFO_V1(ulid_tsid_time_support);
}

using namespace ulid_tsid::pg;

namespace {

set_rel_pathlist_hook_type g_previous_hook = nullptr;
#if PG_VERSION_NUM >= 190000
build_simple_rel_hook_type g_previous_rel_hook = nullptr;
#else
get_relation_info_hook_type g_previous_rel_hook = nullptr;
#endif

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

// `rel`'s restrictions read once: `index_conditions`, the key ranges of its
// time predicates (each one a restriction of its own) as index conditions;
// `for_estimate`, the restrictions with every time predicate replaced by its
// key range. Both NIL when there is no time predicate.
struct Derived {
  List* index_conditions;
  List* for_estimate;
};

// Whether `clause` equals the clause of one of `infos`.
bool clause_in(List* infos, Expr* clause) {
  ListCell* cell;
  foreach (cell, infos) {
    if (equal(lfirst_node(RestrictInfo, cell)->clause, clause)) return true;
  }
  return false;
}

Derived derive(PlannerInfo* root, const ExtensionObjects* objects, RelOptInfo* rel) {
  Derived derived = {NIL, NIL};
  bool any = false;
  ListCell* cell;
  // The index conditions first. A parent's time predicates put their ranges
  // among its restrictions (add_parent_key_ranges below), which a child
  // inherits: a range that is already a restriction is not added again.
  List* ranges = NIL;
  foreach (cell, rel->baserestrictinfo) {
    RestrictInfo* info = lfirst_node(RestrictInfo, cell);
    TimePredicate predicate;
    KeyRange range;
    if (!info->pseudoconstant && match_time_predicate(objects, reinterpret_cast<Node*>(info->clause), &predicate) &&
        derive_key_range(objects, predicate, &range)) {
      ranges = append_conjuncts(root, ranges, range.index_condition, info);
    }
  }
  foreach (cell, ranges) {
    RestrictInfo* info = lfirst_node(RestrictInfo, cell);
    if (!clause_in(rel->baserestrictinfo, info->clause)) derived.index_conditions = lappend(derived.index_conditions, info);
  }
  foreach (cell, rel->baserestrictinfo) {
    RestrictInfo* info = lfirst_node(RestrictInfo, cell);
    TimePredicate predicate;
    KeyRange range;
    Expr* estimated = nullptr;
    if (info->pseudoconstant) {
      // a constant condition: nothing to derive
    } else if (match_time_predicate(objects, reinterpret_cast<Node*>(info->clause), &predicate)) {
      if (derive_key_range(objects, predicate, &range)) estimated = range.range;
    } else if (clause_in(ranges, info->clause)) {
      continue;  // a time predicate's range, put there for its parent: the predicate counts it
    } else {
      estimated = as_key_ranges(objects, reinterpret_cast<Node*>(info->clause));
    }
    if (estimated != nullptr) {
      derived.for_estimate = append_conjuncts(root, derived.for_estimate, estimated, info);
      any = true;
    } else {
      derived.for_estimate = lappend(derived.for_estimate, info);
    }
  }
  if (!any) derived.for_estimate = NIL;
  return derived;
}

// The row estimate of `rel` with its time predicates estimated as the key
// ranges they come down to (Postgres has no statistics on ulid_timestamp(id)
// and would take a third of the table for each), carried over to the paths
// built so far (their costs do not depend on it) and, for an appendrel member
// (a partition, a UNION ALL arm), to the sizes of its parents, which are the
// sums of their members' and were added up before any path was built.
void estimate_as_key_ranges(PlannerInfo* root, RelOptInfo* rel, List* for_estimate) {
  if (rel->rows <= 0) return;
  const double rows = clamp_row_est(rel->tuples * key_range_selectivity(root, for_estimate));
  const double old_rows = rel->rows;
  const double ratio = rows / old_rows;
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
  if (rel->reloptkind != RELOPT_OTHER_MEMBER_REL || root->append_rel_array == nullptr) return;
  Index relid = rel->relid;
  while (root->append_rel_array[relid] != nullptr) {
    relid = root->append_rel_array[relid]->parent_relid;
    RelOptInfo* parent = root->simple_rel_array[relid];
    if (parent == nullptr) break;
    parent->rows = clamp_row_est(parent->rows + rows - old_rows);
  }
}

// Index paths with the derived conditions taking part in index matching
// only: the filter (the restrictions at plan creation) is the time
// predicates themselves. Index matching reads each index's own copy of the
// restrictions (indrestrictinfo), OR clauses the relation's.
void add_index_paths(PlannerInfo* root, RelOptInfo* rel, List* index_conditions) {
  List* restrictions = rel->baserestrictinfo;
  rel->baserestrictinfo = list_concat(list_copy(restrictions), index_conditions);
  ListCell* cell;
  foreach (cell, rel->indexlist) {
    IndexOptInfo* index = lfirst_node(IndexOptInfo, cell);
    index->indrestrictinfo = list_concat(list_copy(index->indrestrictinfo), index_conditions);
  }
  create_index_paths(root, rel);
  foreach (cell, rel->indexlist) {
    IndexOptInfo* index = lfirst_node(IndexOptInfo, cell);
    index->indrestrictinfo =
        list_truncate(index->indrestrictinfo, list_length(index->indrestrictinfo) - list_length(index_conditions));
  }
  rel->baserestrictinfo = restrictions;
}

void add_time_index_paths(PlannerInfo* root, RelOptInfo* rel, Index rti, RangeTblEntry* rte) {
  if (g_previous_hook != nullptr) g_previous_hook(root, rel, rti, rte);
  // Plain tables and materialized views only: a partitioned or inheritance
  // parent (rte->inh) is scanned through its children, which come here each,
  // and its index list may hold partitioned indexes, which cannot be scanned.
  if (rte->rtekind != RTE_RELATION || rte->inh || rel->baserestrictinfo == NIL) return;
  if (rte->relkind != RELKIND_RELATION && rte->relkind != RELKIND_MATVIEW) return;
  if (rel->reloptkind != RELOPT_BASEREL && rel->reloptkind != RELOPT_OTHER_MEMBER_REL) return;
  const ExtensionObjects* objects = known_extension_objects();
  if (objects == nullptr) return;
  const Derived derived = derive(root, objects, rel);
  if (derived.for_estimate == NIL) return;
  estimate_as_key_ranges(root, rel, derived.for_estimate);
  if (derived.index_conditions != NIL && rel->indexlist != NIL) add_index_paths(root, rel, derived.index_conditions);
}

// Whether the key of a time predicate is a column of the relation `relid`
// of this query level (a bigint key read as a tsid included).
bool key_of(const TimePredicate& predicate, Index relid) {
  Node* key = predicate.key;
  if (IsA(key, RelabelType)) key = reinterpret_cast<Node*>(reinterpret_cast<RelabelType*>(key)->arg);
  if (!IsA(key, Var)) return false;
  const Var* var = reinterpret_cast<const Var*>(key);
  return static_cast<long>(var->varno) == static_cast<long>(relid) && var->varlevelsup == 0;  // Index before 16, int since
}

// `quals` (a qualification as the planner keeps it once preprocessed: a list
// of conjuncts) with the key range of each time predicate on relation
// `relid` appended, conjunct by conjunct, unless it is there already.
List* with_key_ranges(PlannerInfo* root, const ExtensionObjects* objects, List* quals, Index relid) {
  List* added = NIL;
  ListCell* cell;
  foreach (cell, quals) {
    TimePredicate predicate;
    KeyRange range;
    if (!match_time_predicate(objects, static_cast<Node*>(lfirst(cell)), &predicate) || !key_of(predicate, relid) ||
        !derive_key_range(objects, predicate, &range)) {
      continue;
    }
    Node* condition = eval_const_expressions(root, reinterpret_cast<Node*>(range.index_condition));
    List* conjuncts = is_andclause(condition) ? reinterpret_cast<BoolExpr*>(condition)->args : lappend(NIL, condition);
    ListCell* part;
    foreach (part, conjuncts) {
      if (!list_member(quals, lfirst(part)) && !list_member(added, lfirst(part))) added = lappend(added, lfirst(part));
    }
  }
  return added == NIL ? quals : list_concat(quals, added);
}

// Every qualification of the query's join tree (WHERE and JOIN ... ON) with
// the key ranges of its time predicates on relation `relid`.
void add_key_ranges_to_jointree(PlannerInfo* root, const ExtensionObjects* objects, Node* node, Index relid) {
  if (node == nullptr) return;
  if (IsA(node, FromExpr)) {
    FromExpr* from = reinterpret_cast<FromExpr*>(node);
    ListCell* cell;
    foreach (cell, from->fromlist) add_key_ranges_to_jointree(root, objects, static_cast<Node*>(lfirst(cell)), relid);
    if (from->quals != nullptr && IsA(from->quals, List)) {
      from->quals = reinterpret_cast<Node*>(with_key_ranges(root, objects, reinterpret_cast<List*>(from->quals), relid));
    }
  } else if (IsA(node, JoinExpr)) {
    JoinExpr* join = reinterpret_cast<JoinExpr*>(node);
    add_key_ranges_to_jointree(root, objects, join->larg, relid);
    add_key_ranges_to_jointree(root, objects, join->rarg, relid);
    if (join->quals != nullptr && IsA(join->quals, List)) {
      join->quals = reinterpret_cast<Node*>(with_key_ranges(root, objects, reinterpret_cast<List*>(join->quals), relid));
    }
  }
}

// A relation scanned through its children: a partitioned table, or a table
// that others inherit from (a TimescaleDB hypertable's chunks do; TimescaleDB
// expands it itself, after the query's clauses have become its
// restrictions).
void add_parent_key_ranges(PlannerInfo* root, RelOptInfo* rel, RangeTblEntry* rte) {
  if (rel->reloptkind != RELOPT_BASEREL || rte == nullptr || rte->rtekind != RTE_RELATION) return;
  if (root->parse == nullptr || root->parse->jointree == nullptr) return;
  if (rte->relkind != RELKIND_PARTITIONED_TABLE && !(rte->relkind == RELKIND_RELATION && has_subclass(rte->relid))) return;
  const ExtensionObjects* objects = known_extension_objects();
  if (objects == nullptr) return;
  add_key_ranges_to_jointree(root, objects, reinterpret_cast<Node*>(root->parse->jointree), rel->relid);
}

// Ours first, then the hooks installed before: one of them may expand the
// relation into its children there (TimescaleDB before 2.2x did).
#if PG_VERSION_NUM >= 190000
void on_build_simple_rel(PlannerInfo* root, RelOptInfo* rel, RangeTblEntry* rte) {
  add_parent_key_ranges(root, rel, rte);
  if (g_previous_rel_hook != nullptr) g_previous_rel_hook(root, rel, rte);
}
#else
void on_relation_info(PlannerInfo* root, Oid relation_id, bool inhparent, RelOptInfo* rel) {
  add_parent_key_ranges(root, rel, planner_rt_fetch(rel->relid, root));
  if (g_previous_rel_hook != nullptr) g_previous_rel_hook(root, relation_id, inhparent, rel);
}
#endif

}  // namespace

namespace ulid_tsid::pg {

void install_time_predicate_hook() {
  g_previous_hook = set_rel_pathlist_hook;
  set_rel_pathlist_hook = add_time_index_paths;
#if PG_VERSION_NUM >= 190000
  g_previous_rel_hook = build_simple_rel_hook;
  build_simple_rel_hook = on_build_simple_rel;
#else
  g_previous_rel_hook = get_relation_info_hook;
  get_relation_info_hook = on_relation_info;
#endif
}

}  // namespace ulid_tsid::pg

// Support function of the time functions: see the top of this file.
Datum ulid_tsid_time_support(PG_FUNCTION_ARGS) {
  Node* request = reinterpret_cast<Node*>(PG_GETARG_POINTER(0));
  if (IsA(request, SupportRequestSimplify)) extension_objects_of(fcinfo->flinfo->fn_oid);
  return static_cast<Datum>(0);  // no replacement: the call stays as it is
}
