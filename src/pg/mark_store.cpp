// Where the mark lives (mark_store.hpp): found by the ulid_tsid extension's
// schema and membership, read and written in place the way core's nextval()
// writes a sequence.
#include "postgres_api.hpp"

#include "mark_store.hpp"

extern "C" {
#include "access/genam.h"
#include "access/htup_details.h"
#include "access/relation.h"
#include "access/rmgr.h"
#include "access/table.h"
#include "access/xact.h"
#include "access/xlog.h"
#include "access/xloginsert.h"
#if PG_VERSION_NUM >= 150000
#include "access/xlogrecovery.h"
#endif
#include "catalog/dependency.h"
#include "catalog/indexing.h"
#include "catalog/namespace.h"
#include "catalog/pg_class.h"
#include "catalog/pg_extension.h"
#include "commands/extension.h"
#if __has_include("commands/sequence_xlog.h")
#include "commands/sequence_xlog.h"  // xl_seq_rec moved here in 19
#endif
#include "miscadmin.h"
#include "storage/bufmgr.h"
#include "storage/lmgr.h"
#include "storage/proc.h"
#include "utils/acl.h"
#include "utils/fmgroids.h"
#include "utils/inval.h"
#include "utils/lsyscache.h"
#include "utils/rel.h"
#include "utils/syscache.h"
}

#include "mark.hpp"

namespace ulid_tsid::pg {

MarkLocation g_location;

namespace {

constexpr uint32 kSequenceMagic = 0x1717;  // sequence.c's SEQ_MAGIC, in a sequence page's special space

// The transaction in which the mark was last looked for and not found: a
// lookup that fails is retried in the next transaction, never remembered.
LocalTransactionId g_absent_in = InvalidLocalTransactionId;
bool g_callback_registered = false;

LocalTransactionId current_local_xid() {
#if PG_VERSION_NUM >= 170000
  return MyProc->vxid.lxid;
#else
  return MyProc->lxid;
#endif
}

std::uint64_t mix64(std::uint64_t x) {
  x += 0x9E3779B97F4A7C15ull;
  x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ull;
  x = (x ^ (x >> 27)) * 0x94D049BB133111EBull;
  return x ^ (x >> 31);
}

// The sequence `name` of `extension` in `schema`, or InvalidOid when there is
// none of that name or it is not a member (then it is not the mark: the mark's
// own sequence and a relation of its name cannot both be in one schema). A
// member that is not the extension script's sequence (another kind, or
// another owner: a superuser's for the library's own, the extension owner's or
// a superuser's for the dumped one) is an ERROR: generating without the mark
// would break the guarantee silently.
Oid member_sequence(Oid extension, Oid schema, Oid extension_owner, MarkSequence which) {
  const char* name = kSequenceNames[which];
  const Oid relid = get_relname_relid(name, schema);
  if (!OidIsValid(relid) || getExtensionOfObject(RelationRelationId, relid) != extension) return InvalidOid;
  HeapTuple tuple = SearchSysCache1(RELOID, ObjectIdGetDatum(relid));
  if (!HeapTupleIsValid(tuple)) return InvalidOid;
  const Form_pg_class form = reinterpret_cast<Form_pg_class>(GETSTRUCT(tuple));
  const char relkind = form->relkind;
  const Oid owner = form->relowner;
  ReleaseSysCache(tuple);
  const bool owner_ok = superuser_arg(owner) || (which == kDumpedSeq && owner == extension_owner);
  if (relkind != RELKIND_SEQUENCE || !owner_ok) {
    ereport(ERROR,
            (errcode(ERRCODE_OBJECT_NOT_IN_PREREQUISITE_STATE),
             errmsg("ulid_tsid's mark \"%s.%s\" is not the sequence the extension created", get_namespace_name(schema),
                    name),
             errdetail("It is a member of extension ulid_tsid but %s.",
                       relkind != RELKIND_SEQUENCE ? "not a sequence" : "owned by a role that may change it"),
             errhint("The generators keep their high-water mark there; give it back to a superuser "
                     "(ALTER SEQUENCE ... OWNER TO) or reinstall the extension.")));
  }
  return relid;
}

// A relcache invalidation of the mark (ulid_tsid_mark_raise() and _reset()
// send one when they commit), or of every relation: this backend reads the
// mark again before its next value, so that a session opened before a raise
// or a reset follows it from its next transaction.
void mark_moved_by_hand(Datum, Oid relid) {
  if (relid == InvalidOid || relid == g_location.relid[kReservedSeq]) g_mark_state.settled = false;
}

void close_relations(MarkTuples* seq, int count) {
  for (int i = 0; i < count; ++i) {
    if (seq->rel[i] != nullptr) relation_close(seq->rel[i], seq->lockmode);
  }
}

// Logs a sequence's tuple as nextval() does (inside a critical section).
XLogRecPtr log_sequence(MarkTuples* seq, int i) {
  MarkBufferDirty(seq->buffer[i]);
  if (!RelationNeedsWAL(seq->rel[i])) return InvalidXLogRecPtr;
  xl_seq_rec record;
#if PG_VERSION_NUM >= 160000
  record.locator = seq->rel[i]->rd_locator;
#else
  record.node = seq->rel[i]->rd_node;
#endif
  XLogBeginInsert();
  XLogRegisterBuffer(0, seq->buffer[i], REGBUF_WILL_INIT);
  XLogRegisterData(reinterpret_cast<char*>(&record), sizeof record);
  XLogRegisterData(reinterpret_cast<char*>(seq->tuple[i].t_data), seq->tuple[i].t_len);
  const XLogRecPtr lsn = XLogInsert(RM_SEQ_ID, XLOG_SEQ_LOG);
  PageSetLSN(BufferGetPage(seq->buffer[i]), lsn);
  return lsn;
}

void set_sequence(MarkTuples* seq, int i, std::int64_t value, std::int64_t log_cnt, XLogRecPtr* lsn) {
  if (seq->rel[i] == nullptr) return;
  Form_pg_sequence_data data = seq->data[i];
  if (data->last_value == value && data->log_cnt == log_cnt && data->is_called) return;
  data->last_value = value;
  data->log_cnt = log_cnt;
  data->is_called = true;
  *lsn = Max(*lsn, log_sequence(seq, i));
}

}  // namespace

// This server lifetime: the postmaster's start time, and where WAL replay ended
// (it moves with every crash recovery, also one after which the postmaster
// lives on, and differs after a promotion); never 0, and positive as an int8.
std::uint64_t current_lifetime() {
  const auto started = static_cast<std::uint64_t>(PgStartTime);
  const auto replayed = static_cast<std::uint64_t>(GetXLogReplayRecPtr(nullptr));
  return (mix64(started ^ mix64(replayed)) >> 1) | 1;
}

// Finds the mark: the schema and members of the ulid_tsid extension. False
// when this database has none (no extension, or one whose SQL objects predate
// the mark): the caller then generates without one, as before 0.4.0, and the
// next transaction looks again.
bool find_mark() {
  if (g_location.found) return true;
  if (!g_callback_registered) {
    CacheRegisterRelcacheCallback(mark_moved_by_hand, static_cast<Datum>(0));
    g_callback_registered = true;
  }
  if (g_absent_in != InvalidLocalTransactionId && g_absent_in == current_local_xid()) return false;
  MarkLocation location;
  const Oid extension = get_extension_oid("ulid_tsid", true);
  if (OidIsValid(extension)) {
    // Its schema, and its owner (for the dumped sequence's and
    // ulid_tsid_mark_raise()'s checks).
    Relation rel = table_open(ExtensionRelationId, AccessShareLock);
    ScanKeyData key;
    ScanKeyInit(&key, Anum_pg_extension_oid, BTEqualStrategyNumber, F_OIDEQ, ObjectIdGetDatum(extension));
    SysScanDesc scan = systable_beginscan(rel, ExtensionOidIndexId, true, nullptr, 1, &key);
    HeapTuple tuple = systable_getnext(scan);
    if (HeapTupleIsValid(tuple)) {
      const Form_pg_extension form = reinterpret_cast<Form_pg_extension>(GETSTRUCT(tuple));
      location.schema = form->extnamespace;
      location.extension_owner = form->extowner;
    }
    systable_endscan(scan);
    table_close(rel, AccessShareLock);
  }
  if (OidIsValid(location.schema)) {
    for (int i = 0; i < kMarkSequences; ++i) {
      location.relid[i] = member_sequence(extension, location.schema, location.extension_owner,
                                          static_cast<MarkSequence>(i));
    }
    location.found = OidIsValid(location.relid[kFloorSeq]) && OidIsValid(location.relid[kReservedSeq]);
  }
  if (!location.found) {
    g_absent_in = current_local_xid();
    return false;
  }
  g_location = location;
  g_absent_in = InvalidLocalTransactionId;
  return true;
}

void forget_location() {
  g_location = MarkLocation();
  g_absent_in = InvalidLocalTransactionId;
}

// Opens and locks the mark's sequences: first every relation lock (a wait
// there holds no buffer lock: lock_timeout, statement_timeout, a cancel or a
// terminate end it), then every buffer, pinned and then locked in one order.
// False when this database has no mark. Sequences gone since this backend found
// them (the extension dropped, and perhaps made again) are looked up again.
// With `wait` false (exclusive only) every lock is only tried: false too when
// one is taken, with nothing held.
bool open_mark(LOCKMODE lockmode, bool exclusive, MarkTuples* out, bool wait) {
  for (int attempt = 0; attempt < 2; ++attempt) {
    if (!find_mark()) return false;
    out->lockmode = lockmode;
    bool all = true;
    for (int i = 0; i < kMarkSequences; ++i) {
      out->rel[i] = nullptr;
      out->buffer[i] = InvalidBuffer;
      if (!OidIsValid(g_location.relid[i])) continue;
      if (wait) {
        out->rel[i] = try_relation_open(g_location.relid[i], lockmode);
      } else if (ConditionalLockRelationOid(g_location.relid[i], lockmode)) {
        out->rel[i] = try_relation_open(g_location.relid[i], NoLock);
        if (out->rel[i] == nullptr) UnlockRelationOid(g_location.relid[i], lockmode);
      } else {
        close_relations(out, i);
        return false;
      }
      if (out->rel[i] == nullptr || out->rel[i]->rd_rel->relkind != RELKIND_SEQUENCE ||
          RelationGetNamespace(out->rel[i]) != g_location.schema ||
          strcmp(RelationGetRelationName(out->rel[i]), kSequenceNames[i]) != 0) {
        all = false;
        close_relations(out, i + 1);
        break;
      }
    }
    if (!all) {
      forget_location();
      continue;
    }
    for (int i = 0; i < kMarkSequences; ++i) {
      if (out->rel[i] != nullptr) out->buffer[i] = ReadBuffer(out->rel[i], 0);
    }
    for (int i = 0; i < kMarkSequences; ++i) {
      if (out->rel[i] == nullptr) continue;
      if (!wait && !ConditionalLockBuffer(out->buffer[i])) {
        for (int j = 0; j < kMarkSequences; ++j) {
          if (out->rel[j] == nullptr) continue;
          if (j < i) {
            UnlockReleaseBuffer(out->buffer[j]);
          } else {
            ReleaseBuffer(out->buffer[j]);
          }
        }
        close_relations(out, kMarkSequences);
        return false;
      }
      if (wait) LockBuffer(out->buffer[i], exclusive ? BUFFER_LOCK_EXCLUSIVE : BUFFER_LOCK_SHARE);  // an enum in 19
      const Page page = BufferGetPage(out->buffer[i]);
      if (PageGetSpecialSize(page) < sizeof(uint32) ||
          *reinterpret_cast<uint32*>(PageGetSpecialPointer(page)) != kSequenceMagic) {
        ereport(ERROR, (errcode(ERRCODE_DATA_CORRUPTED),
                        errmsg("bad magic number in sequence \"%s\"", RelationGetRelationName(out->rel[i]))));
      }
      const ItemId item = PageGetItemId(page, FirstOffsetNumber);
      out->tuple[i].t_data = reinterpret_cast<HeapTupleHeader>(PageGetItem(page, item));
      out->tuple[i].t_len = ItemIdGetLength(item);
      out->data[i] = reinterpret_cast<Form_pg_sequence_data>(GETSTRUCT(&out->tuple[i]));
    }
    return true;
  }
  return false;
}

// Unlocks the buffers; the relation locks are kept to the end of the transaction.
void close_mark(MarkTuples* seq) {
  for (int i = 0; i < kMarkSequences; ++i) {
    if (seq->rel[i] == nullptr) continue;
    UnlockReleaseBuffer(seq->buffer[i]);
    relation_close(seq->rel[i], NoLock);
  }
}

// The stored record and the LSN that made it. The library keeps the dumped
// value at the larger of the other two; above them it was set from outside (a
// restore, the owner's setval()) and raises the floor, up to
// `limit_ms` (ulid_tsid.raise_limit ahead of the clock; `*capped` says it was cut); below
// them it is ignored: it can only raise the mark.
// `node_ms` is the server's own copy (node_mark_read(), read before the
// sequences were locked): above both times, the sequences were set back from
// outside, and it raises the floor to what this server reserved, up to
// `limit_ms` too, as a mark set from outside.
MarkRecord read_record(const MarkTuples& seq, std::int64_t node_ms, std::int64_t limit_ms, XLogRecPtr* lsn,
                       bool* capped) {
  MarkRecord stored = {seq.data[kReservedSeq]->last_value, seq.data[kFloorSeq]->last_value,
                       static_cast<std::uint64_t>(seq.data[kReservedSeq]->log_cnt)};
  if (capped != nullptr) *capped = false;
  if (node_ms > mark_max(stored.reserved_ms, stored.floor_ms)) {
    const std::int64_t limit = limit_ms;
    stored.floor_ms = node_ms < limit ? node_ms : limit;
    if (capped != nullptr) *capped = node_ms > limit;
  }
  *lsn = InvalidXLogRecPtr;
  for (int i = 0; i < kMarkSequences; ++i) {
    if (seq.rel[i] != nullptr) *lsn = Max(*lsn, PageGetLSN(BufferGetPage(seq.buffer[i])));
  }
  if (seq.rel[kDumpedSeq] != nullptr && seq.data[kDumpedSeq]->last_value > mark_max(stored.reserved_ms, stored.floor_ms)) {
    const std::int64_t limit = limit_ms;
    const std::int64_t dumped = seq.data[kDumpedSeq]->last_value;
    stored.floor_ms = mark_max(stored.floor_ms, dumped < limit ? dumped : limit);
    if (capped != nullptr && dumped > limit) *capped = true;
  }
  return stored;
}

// Writes `next` over what the sequences hold (the dumped one gets the larger
// of its two times); the caller flushes up to `lsn`.
void write_record(MarkTuples* seq, const MarkRecord& next, XLogRecPtr* lsn) {
  START_CRIT_SECTION();
  set_sequence(seq, kFloorSeq, next.floor_ms, 0, lsn);
  set_sequence(seq, kReservedSeq, next.reserved_ms, static_cast<std::int64_t>(next.lifetime), lsn);
  set_sequence(seq, kDumpedSeq, mark_max(next.reserved_ms, next.floor_ms), 0, lsn);
  END_CRIT_SECTION();
}

}  // namespace ulid_tsid::pg
