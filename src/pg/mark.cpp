// The persisted high-water mark in the database (see mark.hpp and
// src/core/mark.hpp): three sequences of the extension, in its schema:
//   ulid_tsid_mark         last_value: the reservation, in Unix ms; log_cnt: the
//                          lifetime that wrote it (the library's alone);
//   ulid_tsid_mark_floor   last_value: the floor of new backends of that
//                          lifetime (the library's alone);
//   ulid_tsid_mark_dumped  last_value: at least both, for pg_dump to carry (the
//                          one the dump sets, owned by the extension's owner, so
//                          that the database's owner can restore it); read back
//                          as a floor that can only raise the mark.
// They are written here the way core's nextval() writes a sequence (the tuple
// changed in place under an exclusive buffer lock, an XLOG_SEQ_LOG record of
// the whole tuple), so crash recovery, a physical standby and pg_upgrade see
// them as any sequence. No ACL is checked (the caller needs no privilege on
// them), and a read-only transaction may write them, as hint bits are written:
// they are not user data.
//
// Beside them, the server keeps its own copy of each database's mark in a file
// (see node_mark_read()): a sequence can be written from outside the library.
//
// Every entry point of the library (the native functions, the compat aliases)
// finds the same three: by the ulid_tsid extension's schema and membership,
// never by the calling function's schema or a name another role can plant.
// Heavyweight locks are all taken before any buffer is locked, so a generator
// waiting behind a lock on a sequence holds no buffer lock and can be
// cancelled, and nothing else waits behind it.
#include "postgres_api.hpp"

#include "mark.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <limits>

extern "C" {
#include "access/genam.h"
#include "access/htup_details.h"
#include "access/table.h"
#include "access/relation.h"
#include "access/rmgr.h"
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
#include "commands/sequence.h"
#if __has_include("commands/sequence_xlog.h")
#include "commands/sequence_xlog.h"  // xl_seq_rec moved here in 19
#endif
#include "funcapi.h"
#include "miscadmin.h"
#include "port/pg_crc32c.h"
#include "storage/fd.h"
#include "storage/lmgr.h"
#include "storage/bufmgr.h"
#include "storage/proc.h"
#include "utils/acl.h"
#include "utils/builtins.h"
#include "utils/fmgroids.h"
#include "utils/guc.h"
#include "utils/inval.h"
#include "utils/lsyscache.h"
#include "utils/rel.h"
#include "utils/syscache.h"
}

#include "../core/tsid.hpp"
#include "settings.hpp"
#include "shared_state.hpp"
#include "timestamps.hpp"

extern "C" {
PG_FUNCTION_INFO_V1(ulid_tsid_status);
PG_FUNCTION_INFO_V1(ulid_tsid_mark_raise);
PG_FUNCTION_INFO_V1(ulid_tsid_mark_reset);
}

namespace ulid_tsid::pg {
namespace {

// The three sequences, in the one order their locks are taken.
enum MarkSequence { kFloorSeq = 0, kReservedSeq = 1, kDumpedSeq = 2, kMarkSequences = 3 };
constexpr const char* kSequenceNames[kMarkSequences] = {"ulid_tsid_mark_floor", "ulid_tsid_mark",
                                                        "ulid_tsid_mark_dumped"};
constexpr uint32 kSequenceMagic = 0x1717;  // sequence.c's SEQ_MAGIC, in a sequence page's special space

// Where the mark is, as found once per backend (or retried: see find_mark()).
struct MarkLocation {
  bool found = false;
  Oid schema = InvalidOid;
  Oid extension_owner = InvalidOid;
  Oid relid[kMarkSequences] = {InvalidOid, InvalidOid, InvalidOid};  // the dumped one may be missing
};
MarkLocation g_location;
// The transaction in which the mark was last looked for and not found: a
// lookup that fails is retried in the next transaction, never remembered.
LocalTransactionId g_absent_in = InvalidLocalTransactionId;

int g_max_lead_ms = 60000;           // ulid_tsid.max_lead
int g_raise_limit_s = 86400;         // ulid_tsid.raise_limit
bool g_warned = false;               // the lead WARNING: given yet, and when
std::int64_t g_warned_at_ms = 0;
bool g_callback_registered = false;
std::int64_t g_ahead_step = 0;       // mark_next_ahead_step(): this backend's next per-backend ahead step

LocalTransactionId current_local_xid() {
#if PG_VERSION_NUM >= 170000
  return MyProc->vxid.lxid;
#else
  return MyProc->lxid;
#endif
}

// The three sequences, locked.
struct MarkTuples {
  Relation rel[kMarkSequences];
  Buffer buffer[kMarkSequences];
  HeapTupleData tuple[kMarkSequences];
  Form_pg_sequence_data data[kMarkSequences];
  LOCKMODE lockmode;
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

void close_relations(MarkTuples* seq, int count) {
  for (int i = 0; i < count; ++i) {
    if (seq->rel[i] != nullptr) relation_close(seq->rel[i], seq->lockmode);
  }
}

// Opens and locks the mark's sequences: first every relation lock (a wait
// there holds no buffer lock: lock_timeout, statement_timeout, a cancel or a
// terminate end it), then every buffer, pinned and then locked in one order.
// False when this database has no mark. Sequences gone since this backend found
// them (the extension dropped, and perhaps made again) are looked up again.
// With `wait` false (exclusive only) every lock is only tried: false too when
// one is taken, with nothing held.
bool open_mark(LOCKMODE lockmode, bool exclusive, MarkTuples* out, bool wait = true) {
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

std::int64_t unix_ms_now() { return (GetCurrentTimestamp() + kUnixEpochInPgMicros) / 1000; }

// How far ahead of the clock a mark set from outside the library may reach: a
// non-superuser (the extension's owner) must not date the database's keys to
// the year 2100 by mistake (a dump of a server whose clock was wrong, a typo).
std::int64_t raise_limit_ms() { return unix_ms_now() + static_cast<std::int64_t>(g_raise_limit_s) * 1000; }

// The stored record and the LSN that made it. The library keeps the dumped
// value at the larger of the other two; above them it was set from outside (a
// restore, the owner's setval()) and raises the floor, up to
// ulid_tsid.raise_limit ahead of the clock (`*capped` says it was cut); below
// them it is ignored: it can only raise the mark.
// `node_ms` is the server's own copy (node_mark_read(), read before the
// sequences were locked): above both times, the sequences were set back from
// outside, and it raises the floor to what this server reserved, up to
// ulid_tsid.raise_limit ahead of the clock, as a mark set from outside.
MarkRecord read_record(const MarkTuples& seq, std::int64_t node_ms, XLogRecPtr* lsn, bool* capped = nullptr) {
  MarkRecord stored = {seq.data[kReservedSeq]->last_value, seq.data[kFloorSeq]->last_value,
                       static_cast<std::uint64_t>(seq.data[kReservedSeq]->log_cnt)};
  if (capped != nullptr) *capped = false;
  if (node_ms > mark_max(stored.reserved_ms, stored.floor_ms)) {
    const std::int64_t limit = raise_limit_ms();
    stored.floor_ms = node_ms < limit ? node_ms : limit;
    if (capped != nullptr) *capped = node_ms > limit;
  }
  *lsn = InvalidXLogRecPtr;
  for (int i = 0; i < kMarkSequences; ++i) {
    if (seq.rel[i] != nullptr) *lsn = Max(*lsn, PageGetLSN(BufferGetPage(seq.buffer[i])));
  }
  if (seq.rel[kDumpedSeq] != nullptr && seq.data[kDumpedSeq]->last_value > mark_max(stored.reserved_ms, stored.floor_ms)) {
    const std::int64_t limit = raise_limit_ms();
    const std::int64_t dumped = seq.data[kDumpedSeq]->last_value;
    stored.floor_ms = mark_max(stored.floor_ms, dumped < limit ? dumped : limit);
    if (capped != nullptr && dumped > limit) *capped = true;
  }
  return stored;
}

// The server's own copy of a database's mark: a file in the data directory,
// pg_ulid_tsid/mark.<database oid>. The sequences can be written from outside
// the library: PostgreSQL 19's logical replication copies a publisher's
// sequences over a subscriber's (a publication FOR ALL SEQUENCES, at CREATE
// SUBSCRIPTION and each REFRESH), and setval() or a tool that copies sequences
// does the same. Nothing copies this file, so a mark set back that way is
// raised again to what this server itself reserved, also after a restart. It
// is written and fsynced after each reservation, before a value past the old
// one is returned, and only ever grows but for ulid_tsid_mark_reset(). A hot
// standby neither writes nor reads it (its values start above what it
// replayed); a base backup carries a copy, which can only raise the mark.
//
// The file names the mark it copies (the relation of ulid_tsid_mark): one left
// by a dropped database whose OID was used again, or by an extension dropped
// and created again, is not that mark's and is ignored. It is a second copy:
// when it cannot be read or written (its mode, the directory's, a full disk),
// keys are still made from the sequences, with a WARNING at most once a
// minute per session, the fault shown by ulid_tsid_status(), and the file is
// written again by the first reservation that can.
constexpr const char* kNodeMarkDir = "pg_ulid_tsid";
constexpr uint32 kNodeMarkMagic = 0x756C6D32;  // "ulm2"
struct NodeMarkFile {
  uint32 magic;
  uint32 database;
  int64 ms;
  uint32 mark;    // the relation of ulid_tsid_mark it copies
  pg_crc32c crc;  // of the fields above
};

pg_crc32c node_mark_crc(const NodeMarkFile& f) {
  pg_crc32c crc;
  INIT_CRC32C(crc);
  COMP_CRC32C(crc, &f, offsetof(NodeMarkFile, crc));
  FIN_CRC32C(crc);
  return crc;
}

void node_mark_path(char* path) { snprintf(path, MAXPGPATH, "%s/mark.%u", kNodeMarkDir, MyDatabaseId); }

// The last fault of the file this backend met, until a write (or, for a fault
// met reading it, a read) succeeds.
struct NodeMarkFault {
  char text[MAXPGPATH + 128] = "";
  bool from_read = false;
  std::int64_t warned_at_ms = 0;  // the last WARNING (0: none yet)
  std::int64_t logged_at_ms = 0;  // the last LOG of a damaged file
};
NodeMarkFault g_node_fault;

// Records a fault with `err` (an errno), and warns at most once a minute.
void node_mark_fault(const char* action, const char* path, int err, bool from_read) {
  snprintf(g_node_fault.text, sizeof g_node_fault.text, "could not %s \"%s\": %s", action, path, strerror(err));
  g_node_fault.from_read = from_read;
  const std::int64_t now = unix_ms_now();
  if (g_node_fault.warned_at_ms != 0 && now - g_node_fault.warned_at_ms < 60000) return;
  g_node_fault.warned_at_ms = now;
  ereport(WARNING, (errcode(ERRCODE_IO_ERROR), errmsg("ulid_tsid: %s", g_node_fault.text),
                    errdetail("The file is this server's copy of the generators' mark, which raises the mark again "
                              "when its sequences are set back from outside (setval(), sequences copied by "
                              "replication). Keys are still made, above the sequences; the copy is written again "
                              "once it can be."),
                    errhint("Give the data directory's %s back to the server's user, or free disk space.",
                            kNodeMarkDir)));
}

void node_mark_fault_cleared(bool by_read) {
  if (g_node_fault.text[0] == '\0' || (by_read && !g_node_fault.from_read)) return;
  g_node_fault.text[0] = '\0';
}

// The mark this backend found, whose copy the file holds.
Oid node_mark_owner() { return g_location.found ? g_location.relid[kReservedSeq] : InvalidOid; }

// The file's mark, or 0 when there is none (or it is another mark's, or it
// cannot be read: then a fault). A damaged one (a torn write, which a 24-byte
// write at offset 0 should never see) counts as none, logged; the next
// reservation writes it whole again.
std::int64_t node_mark_read() {
  char path[MAXPGPATH];
  node_mark_path(path);
  const int fd = OpenTransientFile(path, O_RDONLY | PG_BINARY);
  if (fd < 0) {
    if (errno == ENOENT) {
      node_mark_fault_cleared(true);
      return 0;
    }
    node_mark_fault("open file", path, errno, true);
    return 0;
  }
  NodeMarkFile f = {};
  const ssize_t got = read(fd, &f, sizeof f);
  const int read_errno = errno;
  CloseTransientFile(fd);
  if (got < 0) {
    node_mark_fault("read file", path, read_errno, true);
    return 0;
  }
  if (got != sizeof f || f.magic != kNodeMarkMagic || f.database != MyDatabaseId || !EQ_CRC32C(f.crc, node_mark_crc(f))) {
    const std::int64_t now = unix_ms_now();
    if (g_node_fault.logged_at_ms == 0 || now - g_node_fault.logged_at_ms >= 60000) {
      g_node_fault.logged_at_ms = now;
      ereport(LOG, (errcode(ERRCODE_DATA_CORRUPTED), errmsg("ulid_tsid: ignoring the damaged file \"%s\"", path),
                    errdetail("It holds this server's copy of the generators' mark; the next reservation writes it "
                              "again.")));
    }
    return 0;
  }
  node_mark_fault_cleared(true);
  if (f.mark != node_mark_owner()) return 0;  // another mark's: a dropped database's, a dropped extension's
  return f.ms;
}

// Writes `ms` into the file: only upwards unless `lower` (a reset). Writers
// take turns on a lock that no generator otherwise takes (ShareUpdateExclusive
// on the floor sequence, released at once), never while holding a buffer, so
// a wait there can be cancelled. Without `wait`, false when another writer has
// the lock (nothing written). A file that cannot be written is a fault
// (node_mark_fault()), not an error: true, the sequences cover the value.
bool node_mark_write(std::int64_t ms, bool lower, bool wait = true) {
  if (!OidIsValid(g_location.relid[kFloorSeq])) return true;
  if (wait) {
    LockRelationOid(g_location.relid[kFloorSeq], ShareUpdateExclusiveLock);
  } else if (!ConditionalLockRelationOid(g_location.relid[kFloorSeq], ShareUpdateExclusiveLock)) {
    return false;
  }
  char path[MAXPGPATH];
  node_mark_path(path);
  const std::int64_t current = node_mark_read();
  if (g_node_fault.text[0] == '\0' && (current == ms || (!lower && current > ms))) {
    UnlockRelationOid(g_location.relid[kFloorSeq], ShareUpdateExclusiveLock);
    return true;
  }
  const char* failed = nullptr;
  int failed_errno = 0;
  bool existed = true;
  int fd = -1;
  if (MakePGDirectory(kNodeMarkDir) < 0 && errno != EEXIST) {
    failed = "create directory";
    failed_errno = errno;
  } else {
    existed = access(path, F_OK) == 0;
    fd = OpenTransientFile(path, O_RDWR | O_CREAT | PG_BINARY);
    if (fd < 0) {
      failed = "open file";
      failed_errno = errno;
    }
  }
  if (fd >= 0) {
    NodeMarkFile f = {};
    f.magic = kNodeMarkMagic;
    f.database = MyDatabaseId;
    f.ms = ms;
    f.mark = node_mark_owner();
    f.crc = node_mark_crc(f);
    errno = 0;
    if (pwrite(fd, &f, sizeof f, 0) != static_cast<ssize_t>(sizeof f)) {
      failed = "write file";
      failed_errno = errno == 0 ? ENOSPC : errno;
    } else if (pg_fsync(fd) != 0) {
      // The whole file is written again by the next reservation: unlike a
      // data file's, a failed fsync of it loses nothing the sequences lack.
      failed = "fsync file";
      failed_errno = errno;
    }
    CloseTransientFile(fd);
  }
  if (failed == nullptr && !existed) {
    fsync_fname(kNodeMarkDir, true);
    fsync_fname(".", true);
  }
  UnlockRelationOid(g_location.relid[kFloorSeq], ShareUpdateExclusiveLock);
  if (failed != nullptr) {
    node_mark_fault(failed, strcmp(failed, "create directory") == 0 ? kNodeMarkDir : path, failed_errno, false);
  } else {
    node_mark_fault_cleared(false);
  }
  return true;
}

// Makes the file cover `stored` (read with the file at `node_ms`) before a
// value relies on a reservation another backend wrote: when that backend has
// not written the file yet, this one waits for it (the lock of
// node_mark_write()) or writes it itself.
void node_mark_cover(std::int64_t node_ms, const MarkRecord& stored) {
  const std::int64_t top = mark_max(stored.reserved_ms, stored.floor_ms);
  if (node_ms < top) node_mark_write(top, false);
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

// Writes `next` over what the sequences hold (the dumped one gets the larger
// of its two times); the caller flushes up to `lsn`.
void write_record(MarkTuples* seq, const MarkRecord& next, XLogRecPtr* lsn) {
  START_CRIT_SECTION();
  set_sequence(seq, kFloorSeq, next.floor_ms, 0, lsn);
  set_sequence(seq, kReservedSeq, next.reserved_ms, static_cast<std::int64_t>(next.lifetime), lsn);
  set_sequence(seq, kDumpedSeq, mark_max(next.reserved_ms, next.floor_ms), 0, lsn);
  END_CRIT_SECTION();
}

// `known` becomes `record`, and the fast path's numbers follow it.
void know(MarkState& mark, const MarkRecord& record) {
  mark.known = record;
  const bool ours = record.lifetime == mark.lifetime;
  mark.renew_ms = ours ? record.reserved_ms - kMarkRenewMs : std::numeric_limits<std::int64_t>::min();
  mark.cover_floor_ms = ours ? record.floor_ms : std::numeric_limits<std::int64_t>::min();
}

// A record that covers every value: no mark to keep here (none in this
// database, or a hot standby, which cannot write one).
void cover_everything(MarkState& mark) {
  mark.lifetime = 1;
  know(mark, {std::numeric_limits<std::int64_t>::max(), std::numeric_limits<std::int64_t>::max(), 1});
}

// Where generators set back to `target` start: never below the clock plus a
// reservation's step, since values made just before the reset may run a few
// milliseconds ahead of the clock (a burst within a tick, a TSID's full
// millisecond), and a tick set below them could repeat them.
std::int64_t reset_point_ms(std::int64_t target) {
  return mark_max(target, unix_ms_now() + kMarkAheadReserveMs);
}

// After a superuser set the mark back (ulid_tsid_mark_reset() in another
// session): this backend's own generators go back to it too. Shared ticks (and
// the shared monotonic sequence) are not touched here: the reset moved them
// once, and values made since are above.
void apply_reset(ProcessState& state, std::int64_t target) {
  const std::int64_t ms = reset_point_ms(target);
  if (!state.ulid.ticks().shared()) state.ulid.reset_above_ms(ms);
  if (!state.uuidv7.ticks().shared()) state.uuidv7.reset_above_ms(ms);
  if (!state.tsid.ticks().shared()) state.tsid.reset_above_ms(ms);
  if (!state.ulid_monotonic.shared()) state.ulid_monotonic.reset_above_ms(ms);
}

void apply_floor(ProcessState& state, std::int64_t ms) {
  if (ms <= 0) return;
  state.ulid.start_above_ms(ms);
  state.ulid_monotonic.start_above_ms(ms);
  state.tsid.start_above_ms(ms);
  state.uuidv7.start_above_ms(ms);
}

Datum timestamptz_or_null_ms(std::int64_t ms, bool* is_null) {
  *is_null = ms <= 0;
  return TimestampTzGetDatum(timestamptz_from_unix_ms(ms));
}

// The Unix millisecond of a timestamptz argument, within the keys' range.
std::int64_t mark_ms_arg(FunctionCallInfo fcinfo, int n) {
  return unix_ms_from_timestamptz(PG_GETARG_TIMESTAMPTZ(n), 0, std::numeric_limits<std::int64_t>::max() / 4,
                                  OutOfRange::kError, "the mark");
}

// Preloaded: this backend's generators on its database's ticks (once, after
// find_mark()). Ticks that start afresh must start above the whole mark.
void share_ticks(ProcessState& state) {
  if (!shared_ticks_available() || state.ulid_monotonic.shared()) return;
  if (share_database_ticks(state, g_location.found ? g_location.relid[kReservedSeq] : InvalidOid)) {
    g_mark_state.fresh_ticks = true;
  }
}

void refuse_on_standby(const char* function_name) {
  if (RecoveryInProgress()) {
    ereport(ERROR, (errcode(ERRCODE_READ_ONLY_SQL_TRANSACTION),
                    errmsg("%s() cannot run on a standby", function_name),
                    errhint("Run it on the primary: the standby replays its mark.")));
  }
}

}  // namespace

MarkState g_mark_state;

void define_mark_settings() {
  DefineCustomIntVariable("ulid_tsid.max_lead", "How far keys may run ahead of the clock before a WARNING.",
                          "After a restart onto a clock that is behind the mark, keys continue above it and run "
                          "ahead of the clock; past this lead each session warns (at most once a minute). "
                          "0 turns the warning off.",
                          &g_max_lead_ms, 60000, 0, INT_MAX, PGC_SIGHUP, GUC_UNIT_MS, nullptr, nullptr, nullptr);
  DefineCustomIntVariable("ulid_tsid.raise_limit",
                          "How far ahead of the clock a restored mark or the extension owner's raise may reach.",
                          "A restore (ulid_tsid_mark_dumped) or ulid_tsid_mark_raise() by a role that is not a "
                          "superuser moves the mark at most this far past the clock; a superuser's raise is not "
                          "limited.",
                          &g_raise_limit_s, 86400, 0, INT_MAX / 1000, PGC_SIGHUP, GUC_UNIT_S, nullptr, nullptr, nullptr);
}

void mark_prepare_slow(FunctionCallInfo, ProcessState& state) {
  MarkState& mark = g_mark_state;
  const bool recovery = RecoveryInProgress();
  if (mark.ready && mark.in_recovery && recovery) return;  // still a hot standby, prepared
  // Nothing is marked prepared before the end: an ERROR on the way (a lock
  // wait cancelled, say) leaves the next call to prepare again.
  find_mark();
  share_ticks(state);
  const std::int64_t node_ms = recovery ? 0 : node_mark_read();
  MarkTuples seq;
  if (!open_mark(recovery ? AccessShareLock : RowExclusiveLock, false, &seq)) {
    // No mark in this database (its SQL objects predate 0.4.0): values follow
    // the clock as before, and the next transaction looks again.
    cover_everything(mark);
    mark.in_recovery = recovery;
    mark.settled = false;
    return;
  }
  XLogRecPtr lsn;
  bool capped = false;
  const MarkRecord stored = read_record(seq, node_ms, &lsn, &capped);
  close_mark(&seq);
  if (capped) {
    ereport(WARNING, (errmsg("ulid_tsid: the mark set from outside (ulid_tsid_mark_dumped, or this server's copy "
                             "above sequences set back) is more than ulid_tsid.raise_limit ahead of the clock; keys "
                             "start at that limit"),
                      errhint("If the clock is right and the mark is too (a dump restored onto a server whose "
                              "clock is far behind), a superuser can raise it: SELECT ulid_tsid_mark_raise(...).")));
  }
  if (recovery) {
    // A standby's values are never stored on it: they start above everything
    // it has replayed, and it reserves nothing (it cannot write WAL). Its
    // ULIDs and UUIDv7s are told apart by their random bits; it makes no TSIDs.
    apply_floor(state, mark_max(stored.reserved_ms, stored.floor_ms));
    mark.fresh_ticks = false;
    cover_everything(mark);
    mark.ready = true;
    mark.in_recovery = true;
    mark.settled = false;
    return;
  }
  XLogFlush(lsn);  // what `known` covers must be durable before a value relies on it
  // So must the server's copy: the backend that wrote this reservation may
  // not have written the file yet (it does so right after its WAL flush), and
  // a crash in between would leave the copy below values made here.
  node_mark_cover(node_ms, stored);
  const std::uint64_t lifetime = current_lifetime();
  // The reservation of this lifetime lower than this backend saw it: a
  // superuser set the mark back (nothing else lowers it within a lifetime).
  if (mark.settled_once && stored.lifetime == lifetime && mark.lifetime == lifetime &&
      stored.reserved_ms < mark.known.reserved_ms) {
    apply_reset(state, mark_start_floor(stored, lifetime));
  }
  mark.lifetime = lifetime;
  // Ticks that start afresh know nothing of what this lifetime made: above
  // its whole reservation, as after a restart.
  apply_floor(state, mark.fresh_ticks ? mark_max(stored.reserved_ms, stored.floor_ms)
                                      : mark_start_floor(stored, mark.lifetime));
  mark.fresh_ticks = false;
  know(mark, stored);
  mark.ready = true;
  mark.in_recovery = false;
  mark.settled = mark.settled_once = true;
}

// A renewal (mark_renewal_due()): the reservation moved on before it runs out,
// by this backend when it gets every lock at once, else by whoever holds them
// (that backend's record is taken over once it is flushed). It never waits:
// the value at hand is covered already, and the next value tries again.
void mark_renew(std::int64_t value_ms, std::int64_t now_ms) {
  MarkState& mark = g_mark_state;
  const std::int64_t node_ms = node_mark_read();
  MarkTuples seq;
  if (!open_mark(RowExclusiveLock, true, &seq, false)) return;
  XLogRecPtr lsn;
  const MarkRecord stored = read_record(seq, node_ms, &lsn);
  if (!mark_renewal_due(stored, mark.lifetime, value_ms, now_ms)) {
    // Moved on by another backend: known once that backend's WAL and file
    // writes are done, without waiting for them.
    close_mark(&seq);
#if PG_VERSION_NUM >= 150000
    const XLogRecPtr flushed = GetFlushRecPtr(nullptr);
#else
    const XLogRecPtr flushed = GetFlushRecPtr();
#endif
    if (stored.lifetime == mark.lifetime && stored.reserved_ms > mark.known.reserved_ms && lsn <= flushed &&
        node_ms >= mark_max(stored.reserved_ms, stored.floor_ms)) {
      know(mark, stored);
    }
    return;
  }
  const MarkRecord next = mark_reserve(stored, mark.lifetime, value_ms, now_ms, false);
  write_record(&seq, next, &lsn);
  close_mark(&seq);
  XLogFlush(lsn);
  // Another writer of the file: the next value takes over from it.
  if (node_mark_write(mark_max(next.reserved_ms, next.floor_ms), false, false)) know(mark, next);
}

void mark_reserve_slow(std::int64_t value_ms, std::int64_t now_ms, bool per_backend) {
  MarkState& mark = g_mark_state;
  if (!mark.settled) return;
  if (mark_covers(mark.known, mark.lifetime, value_ms, now_ms, per_backend)) {
    if (mark_renewal_due(mark.known, mark.lifetime, value_ms, now_ms)) mark_renew(value_ms, now_ms);
    return;
  }
  const std::int64_t node_ms = node_mark_read();
  MarkTuples seq;
  if (!open_mark(RowExclusiveLock, true, &seq)) {
    // The mark is gone (the extension dropped): nothing left to keep.
    mark.settled = false;
    cover_everything(mark);
    return;
  }
  XLogRecPtr lsn;
  MarkRecord stored = read_record(seq, node_ms, &lsn);
  bool wrote = false;
  if (!mark_covers(stored, mark.lifetime, value_ms, now_ms, per_backend)) {
    const bool backend_ahead = per_backend && value_ms > now_ms + kMarkAheadSlackMs;
    const MarkRecord next = mark_reserve(stored, mark.lifetime, value_ms, now_ms, per_backend, g_ahead_step);
    if (backend_ahead) g_ahead_step = mark_next_ahead_step(g_ahead_step);
    write_record(&seq, next, &lsn);
    stored = next;
    wrote = true;
  }
  close_mark(&seq);
  // The value leaves only once the reservation that covers it is on disk, in
  // the sequences and in the server's own copy.
  XLogFlush(lsn);
  if (wrote) {
    node_mark_write(mark_max(stored.reserved_ms, stored.floor_ms), false);
  } else {
    node_mark_cover(node_ms, stored);  // another backend's reservation: see mark_prepare_slow()
  }
  know(mark, stored);
  const std::int64_t lead = value_ms - now_ms;
  if (g_max_lead_ms > 0 && lead > g_max_lead_ms && (!g_warned || now_ms - g_warned_at_ms >= 60000)) {
    g_warned = true;
    g_warned_at_ms = now_ms;
    ereport(WARNING, (errmsg("ulid_tsid: keys run %lld ms ahead of the clock", static_cast<long long>(lead)),
                      errdetail("They continue above the generators' mark, which earlier keys set; the clock is "
                                "behind it (ulid_tsid.max_lead is %d ms).",
                                g_max_lead_ms),
                      errhint("If the clock is right now and was wrong before, a superuser can set the mark back "
                              "with SELECT ulid_tsid_mark_reset(); new keys may then sort below those made while "
                              "the clock was wrong.")));
  }
}

}  // namespace ulid_tsid::pg

using namespace ulid_tsid;
using namespace ulid_tsid::pg;

// One row for DBAs: the mark, its lead over the clock, and how this server
// makes TSIDs.
Datum ulid_tsid_status(PG_FUNCTION_ARGS) {
  TupleDesc desc;
  if (get_call_result_type(fcinfo, nullptr, &desc) != TYPEFUNC_COMPOSITE) {
    ereport(ERROR, (errcode(ERRCODE_FEATURE_NOT_SUPPORTED), errmsg("ulid_tsid_status() must return a record")));
  }
  constexpr int kColumns = 11;
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
    stored = read_record(seq, node_ms, &lsn);
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
  values[10] = CStringGetTextDatum(g_node_fault.text);
  nulls[10] = g_node_fault.text[0] == '\0';
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
  MarkRecord next = read_record(seq, node_ms, &lsn);
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
  g_ahead_step = 0;
  PG_RETURN_TIMESTAMPTZ(timestamptz_from_unix_ms(target));
}
