// The mark's SQL functions: ulid_tsid_status() for DBAs, and the two ways to
// move the mark by hand, ulid_tsid_mark_raise() and ulid_tsid_mark_reset().
#include "postgres_api.hpp"

#include <limits>

extern "C" {
#include "access/genam.h"
#include "access/htup_details.h"
#include "access/table.h"
#include "access/xlog.h"
#include "catalog/indexing.h"
#include "catalog/pg_extension.h"
#include "utils/fmgroids.h"
#include "utils/rel.h"
#include "funcapi.h"
#include "miscadmin.h"
#include "utils/acl.h"
#include "utils/builtins.h"
#include "utils/inval.h"
}

#include "mark.hpp"
#include "mark_file.hpp"
#include "mark_store.hpp"
#include "settings.hpp"
#include "shared_state.hpp"
#include "timestamps.hpp"

extern "C" {
PG_FUNCTION_INFO_V1(ulid_tsid_status);
PG_FUNCTION_INFO_V1(ulid_tsid_mark_raise);
PG_FUNCTION_INFO_V1(ulid_tsid_mark_reset);
}

using namespace ulid_tsid;
using namespace ulid_tsid::pg;

namespace {

Datum timestamptz_or_null_ms(std::int64_t ms, bool* is_null) {
  *is_null = ms <= 0;
  return TimestampTzGetDatum(timestamptz_from_unix_ms(ms));
}

// The Unix millisecond of a timestamptz argument, within the keys' range.
std::int64_t mark_ms_arg(FunctionCallInfo fcinfo, int n) {
  return unix_ms_from_timestamptz(PG_GETARG_TIMESTAMPTZ(n), 0, std::numeric_limits<std::int64_t>::max() / 4,
                                  OutOfRange::kError, "the mark");
}

// The version of the ulid_tsid extension installed in this database
// (pg_extension.extversion), or null.
const char* extension_version() {
  const char* version = nullptr;
  Relation rel = table_open(ExtensionRelationId, AccessShareLock);
  ScanKeyData key;
  ScanKeyInit(&key, Anum_pg_extension_extname, BTEqualStrategyNumber, F_NAMEEQ, CStringGetDatum("ulid_tsid"));
  SysScanDesc scan = systable_beginscan(rel, ExtensionNameIndexId, true, nullptr, 1, &key);
  HeapTuple tuple = systable_getnext(scan);
  if (HeapTupleIsValid(tuple)) {
    bool is_null = true;
    const Datum datum = heap_getattr(tuple, Anum_pg_extension_extversion, RelationGetDescr(rel), &is_null);
    if (!is_null) version = text_to_cstring(DatumGetTextPP(datum));
  }
  systable_endscan(scan);
  table_close(rel, AccessShareLock);
  return version;
}

void refuse_on_standby(const char* function_name) {
  if (RecoveryInProgress()) {
    ereport(ERROR, (errcode(ERRCODE_READ_ONLY_SQL_TRANSACTION),
                    errmsg("%s() cannot run on a standby", function_name),
                    errhint("Run it on the primary: the standby replays its mark.")));
  }
}

}  // namespace

// One row for DBAs: the mark, its lead over the clock, and how this server
// makes TSIDs.
Datum ulid_tsid_status(PG_FUNCTION_ARGS) {
  TupleDesc desc;
  if (get_call_result_type(fcinfo, nullptr, &desc) != TYPEFUNC_COMPOSITE) {
    ereport(ERROR, (errcode(ERRCODE_FEATURE_NOT_SUPPORTED), errmsg("ulid_tsid_status() must return a record")));
  }
  constexpr int kColumns = 13;
  if (desc->natts != kColumns) {
    ereport(ERROR, (errcode(ERRCODE_DATATYPE_MISMATCH), errmsg("ulid_tsid_status(): the SQL declaration has %d columns, not %d",
                                                            desc->natts, kColumns)));
  }
  Datum values[kColumns];
  bool nulls[kColumns] = {};
  const bool recovery = RecoveryInProgress();
  find_mark();
  const std::int64_t node_ms = recovery ? 0 : node_mark_read();
  MarkTuples seq;
  MarkRecord stored;
  bool have_mark = false;
  if (open_mark(AccessShareLock, false, &seq)) {
    XLogRecPtr lsn;
    stored = read_record(seq, node_ms, raise_limit_ms(), &lsn);
    close_mark(&seq);
    have_mark = true;
  }
  // A copy behind the mark (lost, or not writable at the last reservation) is
  // written now, so that server_copy_error tells whether it can be.
  if (have_mark && !recovery) node_mark_cover(node_ms, stored);
  const std::int64_t now_ms = unix_ms_now();
  // `mark`: no value made so far is above it (the reservation, or a floor a
  // restore or a raise put above it).
  values[0] = timestamptz_or_null_ms(mark_max(stored.reserved_ms, stored.floor_ms), &nulls[0]);
  values[1] = timestamptz_or_null_ms(stored.floor_ms, &nulls[1]);
  const std::int64_t top = mark_max(stored.reserved_ms, stored.floor_ms);
  Interval* lead = static_cast<Interval*>(palloc0(sizeof(Interval)));
  lead->time = (top - now_ms) * 1000;
  values[2] = PointerGetDatum(lead);
  nulls[2] = !have_mark || top <= 0;
  Interval* max_lead = static_cast<Interval*>(palloc0(sizeof(Interval)));
  max_lead->time = static_cast<int64>(g_max_lead_ms) * 1000;
  values[3] = PointerGetDatum(max_lead);
  values[4] = BoolGetDatum(shared_ticks_available());
  values[5] = BoolGetDatum(RecoveryInProgress());
  const TsidSettings tsid = describe_tsid_settings(shared_ticks_available());
  values[6] = Int32GetDatum(tsid.node_bits);
  values[7] = Int32GetDatum(tsid.node_id);
  nulls[7] = tsid.node_id < 0;
  values[8] = Int32GetDatum(tsid.slot_bits);
  values[9] = Int32GetDatum(tsid.counter_bits);
  const char* fault = node_mark_fault_text();
  values[10] = CStringGetTextDatum(fault);
  nulls[10] = fault[0] == '\0';
  values[11] = CStringGetTextDatum(ULID_TSID_VERSION);  // the library this backend runs
  const char* installed = extension_version();
  values[12] = installed != nullptr ? CStringGetTextDatum(installed) : Datum(0);
  nulls[12] = installed == nullptr;
  PG_RETURN_DATUM(HeapTupleGetDatum(heap_form_tuple(desc, values, nulls)));
}

// Raises the mark so that every new value is above `at_least` (a logical
// replication cut-over, a restore of chosen tables): never lowers it. For a
// superuser or a member of the extension's owner role.
Datum ulid_tsid_mark_raise(PG_FUNCTION_ARGS) {
  const std::int64_t target = mark_ms_arg(fcinfo, 0);
  refuse_on_standby("ulid_tsid_mark_raise");
  // Looked up again at each call: the extension's owner may have changed
  // (REASSIGN OWNED, ALTER EXTENSION ... OWNER) since this backend found it.
  forget_location();
  if (!find_mark()) {
    ereport(ERROR, (errcode(ERRCODE_OBJECT_NOT_IN_PREREQUISITE_STATE),
                    errmsg("this database has no ulid_tsid mark"),
                    errhint("Update the extension: ALTER EXTENSION ulid_tsid UPDATE.")));
  }
  ProcessState& state = process_state();
  share_ticks(state);
  // Refused before any lock is taken: a role that may not raise the mark
  // never queues behind (or in front of) the generators.
  if (!superuser()) {
    if (!has_privs_of_role(GetUserId(), g_location.extension_owner)) {
      ereport(ERROR, (errcode(ERRCODE_INSUFFICIENT_PRIVILEGE),
                      errmsg("permission denied for function ulid_tsid_mark_raise"),
                      errdetail("Only a superuser or the owner of extension ulid_tsid may raise the mark.")));
    }
    if (target > raise_limit_ms()) {
      ereport(ERROR, (errcode(ERRCODE_INVALID_PARAMETER_VALUE),
                      errmsg("ulid_tsid_mark_raise(): the time is more than ulid_tsid.raise_limit (%d s) ahead of "
                             "the clock",
                             g_raise_limit_s),
                      errdetail("Keys made after the raise start there: the extension's owner may move them only "
                                "this far ahead of the clock."),
                      errhint("A superuser may raise it further.")));
    }
  }
  const std::int64_t node_ms = node_mark_read();
  MarkTuples seq;
  if (!open_mark(RowExclusiveLock, true, &seq)) {
    ereport(ERROR, (errcode(ERRCODE_OBJECT_NOT_IN_PREREQUISITE_STATE),
                    errmsg("this database has no ulid_tsid mark"),
                    errhint("Update the extension: ALTER EXTENSION ulid_tsid UPDATE.")));
  }
  XLogRecPtr lsn;
  MarkRecord next = read_record(seq, node_ms, raise_limit_ms(), &lsn);
  next.floor_ms = mark_max(next.floor_ms, target);
  write_record(&seq, next, &lsn);
  close_mark(&seq);
  XLogFlush(lsn);
  node_mark_write(mark_max(next.floor_ms, next.reserved_ms), false);
  CacheInvalidateRelcacheByRelid(g_location.relid[kReservedSeq]);  // other sessions read it again
  // This backend's generators (and, preloaded, every backend's of this
  // database) start above it now.
  apply_floor(state, g_mark_state.fresh_ticks ? mark_max(next.floor_ms, next.reserved_ms) : next.floor_ms);
  g_mark_state.fresh_ticks = false;
  if (g_mark_state.settled) know(g_mark_state, next);
  PG_RETURN_TIMESTAMPTZ(timestamptz_from_unix_ms(mark_max(next.floor_ms, next.reserved_ms)));
}

// Sets the mark back to `to_time`: the way back from a clock that ran far
// ahead. Superuser only. Keys made afterwards may sort below those made while
// the clock was wrong.
Datum ulid_tsid_mark_reset(PG_FUNCTION_ARGS) {
  if (!superuser()) {
    ereport(ERROR, (errcode(ERRCODE_INSUFFICIENT_PRIVILEGE),
                    errmsg("permission denied for function ulid_tsid_mark_reset"),
                    errdetail("Only a superuser may set the mark back.")));
  }
  const std::int64_t target = mark_ms_arg(fcinfo, 0);
  refuse_on_standby("ulid_tsid_mark_reset");
  MarkTuples seq;
  if (!open_mark(RowExclusiveLock, true, &seq)) {
    ereport(ERROR, (errcode(ERRCODE_OBJECT_NOT_IN_PREREQUISITE_STATE),
                    errmsg("this database has no ulid_tsid mark"),
                    errhint("Update the extension: ALTER EXTENSION ulid_tsid UPDATE.")));
  }
  MarkState& mark = g_mark_state;
  ProcessState& state = process_state();
  share_ticks(state);
  mark.lifetime = current_lifetime();
  const MarkRecord next = {target, target, mark.lifetime};
  XLogRecPtr lsn = InvalidXLogRecPtr;
  write_record(&seq, next, &lsn);
  close_mark(&seq);
  XLogFlush(lsn);
  // The server's copy goes back too. A reservation made just before the
  // reset may still write its higher one after this (it covers values made
  // before the reset): the mark then stays there until the next reset.
  node_mark_write(target, true);
  CacheInvalidateRelcacheByRelid(g_location.relid[kReservedSeq]);  // other sessions follow (apply_reset())
  // Every generator of this backend, and preloaded the database's shared
  // ticks, continue from the new mark.
  mark.fresh_ticks = false;
  const std::int64_t restart_ms = reset_point_ms(target);
  state.ulid.reset_above_ms(restart_ms);
  state.ulid_monotonic.reset_above_ms(restart_ms);
  state.tsid.reset_above_ms(restart_ms);
  state.uuidv7.reset_above_ms(restart_ms);
  know(mark, next);
  mark.ready = mark.settled = mark.settled_once = true;
  mark.in_recovery = false;
  mark_forget_ahead_step();
  PG_RETURN_TIMESTAMPTZ(timestamptz_from_unix_ms(target));
}
