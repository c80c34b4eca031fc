// The persisted high-water mark in the database (see mark.hpp and
// src/core/mark.hpp): two sequences of the extension, ulid_tsid_mark
// (last_value: the reservation, in Unix ms; log_cnt: the lifetime that wrote
// it) and ulid_tsid_mark_floor (last_value: the floor of new backends of that
// lifetime). They are written here the way core's nextval() writes a sequence
// (the tuple changed in place under an exclusive buffer lock, an XLOG_SEQ_LOG
// record of the whole tuple), so crash recovery, a physical standby and
// pg_upgrade see them as any sequence; pg_dump carries their last_value.
// No ACL is checked (the caller needs no privilege on them), and a read-only
// transaction may write them, as hint bits are written: they are not user data.
#include "postgres_api.hpp"

#include "mark.hpp"

#include <limits>

extern "C" {
#include "access/htup_details.h"
#include "access/relation.h"
#include "access/rmgr.h"
#include "access/xlog.h"
#include "access/xloginsert.h"
#if PG_VERSION_NUM >= 150000
#include "access/xlogrecovery.h"
#endif
#include "catalog/dependency.h"
#include "catalog/pg_class.h"
#include "commands/extension.h"
#include "commands/sequence.h"
#if __has_include("commands/sequence_xlog.h")
#include "commands/sequence_xlog.h"  // xl_seq_rec moved here in 19
#endif
#include "storage/bufmgr.h"
#include "utils/lsyscache.h"
#include "utils/rel.h"
}

namespace ulid_tsid::pg {
namespace {

constexpr const char* kMarkName = "ulid_tsid_mark";
constexpr const char* kFloorName = "ulid_tsid_mark_floor";
constexpr uint32 kSequenceMagic = 0x1717;  // sequence.c's SEQ_MAGIC, in a sequence page's special space

bool g_resolved = false;
Oid g_mark_oid = InvalidOid;
Oid g_floor_oid = InvalidOid;

// A sequence's one tuple, its buffer locked.
struct SequenceTuple {
  Relation rel;
  Buffer buffer;
  HeapTupleData tuple;
  Form_pg_sequence_data data;
};

std::uint64_t mix64(std::uint64_t x) {
  x += 0x9E3779B97F4A7C15ull;
  x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ull;
  x = (x ^ (x >> 27)) * 0x94D049BB133111EBull;
  return x ^ (x >> 31);
}

// This server lifetime: the postmaster's start time, and where WAL replay ended
// (it moves with every crash recovery, also one after which the postmaster
// lives on, and differs after a promotion); never 0, and positive as an int8.
std::uint64_t current_lifetime() {
  const auto started = static_cast<std::uint64_t>(PgStartTime);
  const auto replayed = static_cast<std::uint64_t>(GetXLogReplayRecPtr(nullptr));
  return (mix64(started ^ mix64(replayed)) >> 1) | 1;
}

// The relation `name` in the schema of the calling function, when it is a
// sequence of this extension.
Oid extension_sequence(Oid namespace_oid, const char* name) {
  const Oid relid = get_relname_relid(name, namespace_oid);
  if (!OidIsValid(relid) || get_rel_relkind(relid) != RELKIND_SEQUENCE) return InvalidOid;
  const Oid extension = get_extension_oid("ulid_tsid", true);
  if (!OidIsValid(extension) || getExtensionOfObject(RelationRelationId, relid) != extension) return InvalidOid;
  return relid;
}

// Finds the two sequences once per backend, by the OID of the calling
// function: its schema is the extension's, whatever schema that is.
bool resolve(FunctionCallInfo fcinfo) {
  if (!g_resolved) {
    g_resolved = true;
    if (fcinfo != nullptr && fcinfo->flinfo != nullptr && OidIsValid(fcinfo->flinfo->fn_oid)) {
      const Oid schema = get_func_namespace(fcinfo->flinfo->fn_oid);
      if (OidIsValid(schema)) {
        g_mark_oid = extension_sequence(schema, kMarkName);
        g_floor_oid = extension_sequence(schema, kFloorName);
      }
    }
  }
  return OidIsValid(g_mark_oid) && OidIsValid(g_floor_oid);
}

// Opens sequence `oid` and locks its buffer, shared or exclusive; false when
// it is gone.
bool open_sequence(Oid oid, LOCKMODE lockmode, bool exclusive, SequenceTuple* out) {
  Relation rel = try_relation_open(oid, lockmode);
  if (rel == nullptr) return false;
  if (rel->rd_rel->relkind != RELKIND_SEQUENCE) {
    relation_close(rel, lockmode);
    return false;
  }
  const Buffer buffer = ReadBuffer(rel, 0);
  LockBuffer(buffer, exclusive ? BUFFER_LOCK_EXCLUSIVE : BUFFER_LOCK_SHARE);  // an enum in 19
  const Page page = BufferGetPage(buffer);
  if (PageGetSpecialSize(page) < sizeof(uint32) ||
      *reinterpret_cast<uint32*>(PageGetSpecialPointer(page)) != kSequenceMagic) {
    ereport(ERROR, (errcode(ERRCODE_DATA_CORRUPTED),
                    errmsg("bad magic number in sequence \"%s\"", RelationGetRelationName(rel))));
  }
  const ItemId item = PageGetItemId(page, FirstOffsetNumber);
  out->rel = rel;
  out->buffer = buffer;
  out->tuple.t_data = reinterpret_cast<HeapTupleHeader>(PageGetItem(page, item));
  out->tuple.t_len = ItemIdGetLength(item);
  out->data = reinterpret_cast<Form_pg_sequence_data>(GETSTRUCT(&out->tuple));
  return true;
}

void close_sequence(SequenceTuple* seq) {
  UnlockReleaseBuffer(seq->buffer);
  relation_close(seq->rel, NoLock);  // the lock is kept to the end of the transaction
}

XLogRecPtr page_lsn(const SequenceTuple& seq) { return PageGetLSN(BufferGetPage(seq.buffer)); }

// Logs the sequence's tuple as nextval() does (inside a critical section).
XLogRecPtr log_sequence(SequenceTuple* seq) {
  MarkBufferDirty(seq->buffer);
  if (!RelationNeedsWAL(seq->rel)) return InvalidXLogRecPtr;
  xl_seq_rec record;
#if PG_VERSION_NUM >= 160000
  record.locator = seq->rel->rd_locator;
#else
  record.node = seq->rel->rd_node;
#endif
  XLogBeginInsert();
  XLogRegisterBuffer(0, seq->buffer, REGBUF_WILL_INIT);
  XLogRegisterData(reinterpret_cast<char*>(&record), sizeof record);
  XLogRegisterData(reinterpret_cast<char*>(seq->tuple.t_data), seq->tuple.t_len);
  const XLogRecPtr lsn = XLogInsert(RM_SEQ_ID, XLOG_SEQ_LOG);
  PageSetLSN(BufferGetPage(seq->buffer), lsn);
  return lsn;
}

// `known` becomes `record`, and the fast path's numbers follow it.
void know(MarkState& mark, const MarkRecord& record) {
  mark.known = record;
  const bool ours = record.lifetime == mark.lifetime;
  mark.cover_ms = ours ? record.reserved_ms : std::numeric_limits<std::int64_t>::min();
  mark.cover_floor_ms = ours ? record.floor_ms : std::numeric_limits<std::int64_t>::min();
}

// A record that covers every value: no mark to keep (none in this database,
// or a hot standby, which cannot write one).
void cover_everything(MarkState& mark) {
  mark.lifetime = 1;
  know(mark, {std::numeric_limits<std::int64_t>::max(), std::numeric_limits<std::int64_t>::max(), 1});
}

// Back to unprepared, the sequences to be looked up again.
void forget(MarkState& mark) {
  g_resolved = false;
  g_mark_oid = g_floor_oid = InvalidOid;
  mark.ready = mark.settled = mark.in_recovery = false;
  cover_everything(mark);
}

void apply_floor(ProcessState& state, std::int64_t ms) {
  if (ms <= 0) return;
  state.ulid.start_above_ms(ms);
  state.ulid_monotonic.start_above_ms(ms);
  state.tsid.start_above_ms(ms);
  state.uuidv7.start_above_ms(ms);
}

}  // namespace

MarkState g_mark_state;

// Marks the backend prepared: `recovery` (a hot standby) prepares again on
// every call until promoted.
void settle(MarkState& mark, bool recovery) {
  mark.ready = true;
  mark.in_recovery = recovery;
  mark.settled = !recovery;
}

void mark_prepare_slow(FunctionCallInfo fcinfo, ProcessState& state) {
  MarkState& mark = g_mark_state;
  const bool recovery = RecoveryInProgress();
  if (mark.ready && recovery) return;  // still a hot standby
  // Nothing is marked prepared before the end: an ERROR on the way (a lock
  // wait cancelled, say) leaves the next call to prepare again.
  SequenceTuple reserved, floor;
  const LOCKMODE lockmode = recovery ? AccessShareLock : RowExclusiveLock;
  if (!resolve(fcinfo) || !open_sequence(g_floor_oid, lockmode, false, &floor)) {
    cover_everything(mark);  // the database's extension predates the mark (0.3.0 SQL objects)
    settle(mark, recovery);
    return;
  }
  if (!open_sequence(g_mark_oid, lockmode, false, &reserved)) {
    close_sequence(&floor);
    cover_everything(mark);
    settle(mark, recovery);
    return;
  }
  const MarkRecord stored = {reserved.data->last_value, floor.data->last_value,
                             static_cast<std::uint64_t>(reserved.data->log_cnt)};
  const XLogRecPtr lsn = Max(page_lsn(reserved), page_lsn(floor));
  close_sequence(&reserved);
  close_sequence(&floor);
  if (recovery) {
    // A standby's values are never stored on it: they start above everything
    // it has replayed, and it reserves nothing (it cannot write WAL).
    apply_floor(state, Max(stored.reserved_ms, stored.floor_ms));
    cover_everything(mark);
    settle(mark, recovery);
    return;
  }
  XLogFlush(lsn);  // what `known` covers must be durable before a value relies on it
  apply_floor(state, mark_start_floor(stored, current_lifetime()));
  mark.lifetime = current_lifetime();
  know(mark, stored);
  settle(mark, recovery);
}

void mark_reserve_slow(std::int64_t value_ms, std::int64_t now_ms, bool per_backend) {
  MarkState& mark = g_mark_state;
  if (!mark.settled) return;
  SequenceTuple reserved, floor;
  // Gone since this backend found them (the extension dropped, perhaps made
  // again with new OIDs): the next call looks them up again; this value,
  // made for the extension as it was, goes out without a reservation.
  if (!open_sequence(g_floor_oid, RowExclusiveLock, true, &floor)) {
    forget(mark);
    return;
  }
  if (!open_sequence(g_mark_oid, RowExclusiveLock, true, &reserved)) {
    close_sequence(&floor);
    forget(mark);
    return;
  }
  MarkRecord stored = {reserved.data->last_value, floor.data->last_value,
                       static_cast<std::uint64_t>(reserved.data->log_cnt)};
  XLogRecPtr lsn = Max(page_lsn(reserved), page_lsn(floor));
  if (!mark_covers(stored, mark.lifetime, value_ms, now_ms, per_backend)) {
    const MarkRecord next = mark_reserve(stored, mark.lifetime, value_ms, now_ms, per_backend);
    START_CRIT_SECTION();
    if (next.floor_ms != stored.floor_ms) {
      floor.data->last_value = next.floor_ms;
      floor.data->log_cnt = 0;
      floor.data->is_called = true;
      lsn = Max(lsn, log_sequence(&floor));
    }
    reserved.data->last_value = next.reserved_ms;
    reserved.data->log_cnt = static_cast<int64>(next.lifetime);
    reserved.data->is_called = true;
    lsn = Max(lsn, log_sequence(&reserved));
    END_CRIT_SECTION();
    stored = next;
  }
  close_sequence(&reserved);
  close_sequence(&floor);
  // The value leaves only once the reservation that covers it is on disk.
  XLogFlush(lsn);
  know(mark, stored);
}

}  // namespace ulid_tsid::pg
