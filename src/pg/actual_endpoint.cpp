// Reads a key column's current minimum or maximum from its btree index, the
// way Postgres does for its own types when a constant falls at a histogram's
// end (get_actual_variable_range() and get_actual_variable_endpoint() in
// selfuncs.c, which are not exported): keys made from the clock always land
// past the histogram taken at the last ANALYZE, and "the last minute" lies
// right there. As there:
//  - the snapshot is SnapshotNonVacuumable, so an entry of a row deleted but
//    not yet removable still counts: the endpoint is close to the index's
//    extreme, and a long run of dead entries at the end (a queue's head)
//    does not make the planner walk them all;
//  - the value comes from the index entry itself, the heap being visited only
//    where the visibility map does not say the page is all visible;
//  - the scan key "IS NOT NULL" skips NULLs inside the index;
//  - a descending index is read the other way round;
//  - partitioned tables have no real indexes: nothing is read for them.
#include "postgres_api.hpp"

extern "C" {
#include "access/genam.h"
#include "access/itup.h"
#include "access/relscan.h"
#include "access/skey.h"
#include "access/table.h"
#include "access/tableam.h"
#include "access/visibilitymap.h"
#include "catalog/pg_am.h"
#include "catalog/pg_class.h"
#include "executor/tuptable.h"
#include "nodes/pathnodes.h"
#include "parser/parsetree.h"
#include "storage/bufmgr.h"
#include "utils/datum.h"
#include "utils/lsyscache.h"
#include "utils/memutils.h"
#include "utils/rel.h"
#include "utils/snapmgr.h"
}

#include "actual_endpoint.hpp"

namespace ulid_tsid::pg {

namespace {

// Heap pages visited for entries with no visible row before giving up (as in
// Postgres 16+): beyond that the histogram's end is as good a guess as any,
// and planning stays quick.
constexpr int kMaxHeapPagesVisited = 100;

// A plain (not partial, not hypothetical) btree index whose first column is
// the variable and whose order is `less_operator`'s, ascending or descending:
// *forward says which way its first entries are the smallest values.
IndexOptInfo* endpoint_index(RelOptInfo* rel, const Var* var, Oid less_operator, bool* forward) {
  ListCell* cell;
  foreach (cell, rel->indexlist) {
    IndexOptInfo* index = lfirst_node(IndexOptInfo, cell);
    if (index->relam != BTREE_AM_OID || index->indpred != NIL || index->hypothetical) continue;
    if (index->indexkeys[0] != var->varattno || index->sortopfamily == nullptr) continue;
    switch (get_op_opfamily_strategy(less_operator, index->sortopfamily[0])) {
      case BTLessStrategyNumber:
        *forward = !index->reverse_sort[0];
        return index;
      case BTGreaterStrategyNumber:
        *forward = index->reverse_sort[0];
        return index;
      default:
        continue;
    }
  }
  return nullptr;
}

// The first value `direction` finds in `index_rel` that belongs to a row not
// yet removable, copied into `out_context`.
bool first_value(Relation heap, Relation index_rel, ScanDirection direction, int16 length, bool by_value,
                 MemoryContext out_context, Datum* value) {
  SnapshotData snapshot;
#if PG_VERSION_NUM >= 140000
  InitNonVacuumableSnapshot(snapshot, GlobalVisTestFor(heap));
#else
  InitNonVacuumableSnapshot(snapshot, RecentGlobalXmin);
#endif
  ScanKeyData not_null;
  ScanKeyEntryInitialize(&not_null, SK_ISNULL | SK_SEARCHNOTNULL, 1, InvalidStrategy, InvalidOid, InvalidOid,
                         InvalidOid, static_cast<Datum>(0));
#if PG_VERSION_NUM >= 190000
  IndexScanDesc scan = index_beginscan(heap, index_rel, &snapshot, nullptr, 1, 0, 0);
#elif PG_VERSION_NUM >= 180000
  IndexScanDesc scan = index_beginscan(heap, index_rel, &snapshot, nullptr, 1, 0);
#else
  IndexScanDesc scan = index_beginscan(heap, index_rel, &snapshot, 1, 0);
#endif
  scan->xs_want_itup = true;  // an index-only read
  index_rescan(scan, &not_null, 1, nullptr, 0);
  TupleTableSlot* slot = table_slot_create(heap, nullptr);
  Buffer vm_buffer = InvalidBuffer;
  BlockNumber last_block = InvalidBlockNumber;
  int pages_visited = 0;
  bool found = false;
  ItemPointer tid;
  while ((tid = index_getnext_tid(scan, direction)) != nullptr) {
    const BlockNumber block = ItemPointerGetBlockNumber(tid);
    if (!VM_ALL_VISIBLE(heap, block, &vm_buffer)) {
      if (!index_fetch_heap(scan, slot)) {
        // No row of this entry is visible even to this snapshot: the next one.
        CHECK_FOR_INTERRUPTS();
        if (block != last_block) ++pages_visited;
        last_block = block;
        if (pages_visited > kMaxHeapPagesVisited) break;
        continue;
      }
      ExecClearTuple(slot);
    }
    if (scan->xs_itup == nullptr) break;  // a btree always returns its tuples; never fail here
    Datum values[INDEX_MAX_KEYS];
    bool is_null[INDEX_MAX_KEYS];
    index_deform_tuple(scan->xs_itup, scan->xs_itupdesc, values, is_null);
    if (is_null[0]) break;
    const MemoryContext scan_context = MemoryContextSwitchTo(out_context);
    *value = datumCopy(values[0], by_value, length);
    MemoryContextSwitchTo(scan_context);
    found = true;
    break;
  }
  if (vm_buffer != InvalidBuffer) ReleaseBuffer(vm_buffer);
  ExecDropSingleTupleTableSlot(slot);
  index_endscan(scan);
  return found;
}

}  // namespace

bool actual_endpoint(PlannerInfo* root, VariableStatData* vardata, Oid less_operator, bool largest, Datum* value) {
  if (vardata->var == nullptr || !IsA(vardata->var, Var) || vardata->rel == nullptr) return false;
  const Var* var = reinterpret_cast<const Var*>(vardata->var);
  RelOptInfo* rel = vardata->rel;
  if (rel->rtekind != RTE_RELATION || rel->indexlist == NIL) return false;
  RangeTblEntry* rte = planner_rt_fetch(rel->relid, root);
  if (rte->relkind == RELKIND_PARTITIONED_TABLE) return false;  // its indexes are not real indexes
  bool forward = true;
  IndexOptInfo* index = endpoint_index(rel, var, less_operator, &forward);
  if (index == nullptr) return false;
  int16 length;
  bool by_value;
  get_typlenbyval(vardata->atttype, &length, &by_value);
  // Whatever the scan allocates goes with this context.
  const MemoryContext caller_context = CurrentMemoryContext;
  const MemoryContext scan_context =
      AllocSetContextCreate(CurrentMemoryContext, "ulid_tsid actual_endpoint", ALLOCSET_SMALL_SIZES);
  MemoryContextSwitchTo(scan_context);
  // The planner holds locks on the table and its indexes already.
  Relation heap = table_open(rte->relid, NoLock);
  Relation index_rel = index_open(index->indexoid, NoLock);
  const ScanDirection direction = (forward != largest) ? ForwardScanDirection : BackwardScanDirection;
  const bool found = first_value(heap, index_rel, direction, length, by_value, caller_context, value);
  index_close(index_rel, NoLock);
  table_close(heap, NoLock);
  MemoryContextSwitchTo(caller_context);
  MemoryContextDelete(scan_context);
  return found;
}

}  // namespace ulid_tsid::pg
