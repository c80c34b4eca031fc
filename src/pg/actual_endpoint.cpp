// Reads a key column's current minimum or maximum from its btree index, as
// Postgres does for its own types when a constant falls at a histogram's end
// (get_actual_variable_range(), which is not exported): keys made from the
// clock always land past the histogram taken at the last ANALYZE, and "the
// last minute" lies right there.
#include "postgres_api.hpp"

extern "C" {
#include "access/genam.h"
#include "access/relscan.h"
#include "access/table.h"
#include "access/tableam.h"
#include "catalog/pg_am.h"
#include "executor/tuptable.h"
#include "nodes/pathnodes.h"
#include "parser/parsetree.h"
#include "utils/datum.h"
#include "utils/lsyscache.h"
#include "utils/rel.h"
#include "utils/snapmgr.h"
}

#include "actual_endpoint.hpp"

namespace ulid_tsid::pg {

namespace {

// Enough to step over a few deleted rows at the end; beyond that the
// histogram's end is as good a guess as any, and planning stays quick.
constexpr int kMaxEntriesVisited = 100;

// A plain (not partial, not expression) btree index whose first column is
// the variable and whose order is `less_operator`'s.
IndexOptInfo* endpoint_index(RelOptInfo* rel, const Var* var, Oid less_operator) {
  ListCell* cell;
  foreach (cell, rel->indexlist) {
    IndexOptInfo* index = lfirst_node(IndexOptInfo, cell);
    if (index->relam != BTREE_AM_OID || index->indpred != NIL || index->hypothetical) continue;
    if (index->indexkeys[0] != var->varattno || index->sortopfamily == nullptr) continue;
    if (index->reverse_sort[0]) continue;
    if (get_op_opfamily_strategy(less_operator, index->sortopfamily[0]) != BTLessStrategyNumber) continue;
    return index;
  }
  return nullptr;
}

}  // namespace

bool actual_endpoint(PlannerInfo* root, VariableStatData* vardata, Oid less_operator, bool largest, Datum* value) {
  if (vardata->var == nullptr || !IsA(vardata->var, Var) || vardata->rel == nullptr) return false;
  if (!ActiveSnapshotSet()) return false;
  const Var* var = reinterpret_cast<const Var*>(vardata->var);
  RelOptInfo* rel = vardata->rel;
  if (rel->rtekind != RTE_RELATION || rel->indexlist == NIL) return false;
  IndexOptInfo* index = endpoint_index(rel, var, less_operator);
  if (index == nullptr) return false;
  RangeTblEntry* rte = planner_rt_fetch(rel->relid, root);
  // The planner holds locks on the table and its indexes already.
  Relation heap = table_open(rte->relid, NoLock);
  Relation index_rel = index_open(index->indexoid, NoLock);
  TupleTableSlot* slot = table_slot_create(heap, nullptr);
#if PG_VERSION_NUM >= 190000
  IndexScanDesc scan = index_beginscan(heap, index_rel, GetActiveSnapshot(), nullptr, 0, 0, 0);
#elif PG_VERSION_NUM >= 180000
  IndexScanDesc scan = index_beginscan(heap, index_rel, GetActiveSnapshot(), nullptr, 0, 0);
#else
  IndexScanDesc scan = index_beginscan(heap, index_rel, GetActiveSnapshot(), 0, 0);
#endif
  index_rescan(scan, nullptr, 0, nullptr, 0);
  bool found = false;
  for (int visited = 0; visited < kMaxEntriesVisited && !found; ++visited) {
    if (index_getnext_tid(scan, largest ? BackwardScanDirection : ForwardScanDirection) == nullptr) break;
    if (!index_fetch_heap(scan, slot)) continue;  // not visible: the next entry
    bool is_null = false;
    const Datum datum = slot_getattr(slot, var->varattno, &is_null);
    if (is_null) continue;  // NULLs sort last in a btree: the largest real value is further in
    int16 length;
    bool by_value;
    get_typlenbyval(vardata->atttype, &length, &by_value);
    *value = datumCopy(datum, by_value, length);
    found = true;
  }
  index_endscan(scan);
  ExecDropSingleTupleTableSlot(slot);
  index_close(index_rel, NoLock);
  table_close(heap, NoLock);
  return found;
}

}  // namespace ulid_tsid::pg
