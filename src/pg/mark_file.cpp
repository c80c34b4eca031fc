// The server's own copy of each database's mark (mark_file.hpp).
#include "postgres_api.hpp"

#include "mark_file.hpp"

#include <fcntl.h>
#include <unistd.h>

extern "C" {
#include "miscadmin.h"
#include "port/pg_crc32c.h"
#include "storage/fd.h"
#include "storage/lmgr.h"
}

#include "mark_store.hpp"
#include "timestamps.hpp"

namespace ulid_tsid::pg {
namespace {

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

}  // namespace

const char* node_mark_fault_text() { return g_node_fault.text; }

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
bool node_mark_write(std::int64_t ms, bool lower, bool wait) {
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
  const char* failed_path = path;
  int failed_errno = 0;
  bool existed = true;
  int fd = -1;
  if (MakePGDirectory(kNodeMarkDir) < 0 && errno != EEXIST) {
    failed = "create directory";
    failed_path = kNodeMarkDir;
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
    node_mark_fault(failed, failed_path, failed_errno, false);
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

}  // namespace ulid_tsid::pg
