// Where the generators' persisted high-water mark (src/core/mark.hpp) lives in
// a database: three sequences of the ulid_tsid extension, in its schema:
//   ulid_tsid_mark         last_value: the reservation, in Unix ms; log_cnt: the
//                          lifetime that wrote it (the library's alone);
//   ulid_tsid_mark_floor   last_value: the floor of new backends of that
//                          lifetime (the library's alone);
//   ulid_tsid_mark_dumped  last_value: at least both, for pg_dump to carry (the
//                          one the dump sets, owned by the extension's owner, so
//                          that the database's owner can restore it); read back
//                          as a floor that can only raise the mark.
// They are written the way core's nextval() writes a sequence (the tuple
// changed in place under an exclusive buffer lock, an XLOG_SEQ_LOG record of
// the whole tuple), so crash recovery, a physical standby and pg_upgrade see
// them as any sequence. No ACL is checked (the caller needs no privilege on
// them), and a read-only transaction may write them, as hint bits are written:
// they are not user data.
//
// Every entry point of the library (the native functions, the compat aliases)
// finds the same three: by the ulid_tsid extension's schema and membership,
// never by the calling function's schema or a name another role can plant.
// Heavyweight locks are all taken before any buffer is locked, so a generator
// waiting behind a lock on a sequence holds no buffer lock and can be
// cancelled, and nothing else waits behind it.
#pragma once

#include "postgres_api.hpp"

#include <cstdint>

extern "C" {
#include "access/htup.h"
#include "access/xlogdefs.h"
#include "commands/sequence.h"
#include "storage/buf.h"
#include "storage/lockdefs.h"
#include "utils/relcache.h"
}

#include "../core/mark.hpp"

namespace ulid_tsid::pg {

// The three sequences, in the one order their locks are taken.
enum MarkSequence { kFloorSeq = 0, kReservedSeq = 1, kDumpedSeq = 2, kMarkSequences = 3 };
inline constexpr const char* kSequenceNames[kMarkSequences] = {"ulid_tsid_mark_floor", "ulid_tsid_mark",
                                                               "ulid_tsid_mark_dumped"};

// Where the mark is, as found once per backend (or retried: see find_mark()).
struct MarkLocation {
  bool found = false;
  Oid schema = InvalidOid;
  Oid extension_owner = InvalidOid;
  Oid relid[kMarkSequences] = {InvalidOid, InvalidOid, InvalidOid};  // the dumped one may be missing
};
extern MarkLocation g_location;

// The three sequences, locked.
struct MarkTuples {
  Relation rel[kMarkSequences];
  Buffer buffer[kMarkSequences];
  HeapTupleData tuple[kMarkSequences];
  Form_pg_sequence_data data[kMarkSequences];
  LOCKMODE lockmode;
};

// This server lifetime (a start, a crash recovery, a promotion): never 0.
std::uint64_t current_lifetime();

// Finds the mark into g_location: false when this database has none.
bool find_mark();
// Forgets it: the next find_mark() looks again (the owner may have changed).
void forget_location();

// Opens and locks the sequences (relation locks first, then the buffers):
// false when there is no mark, or, without `wait`, when a lock is taken.
bool open_mark(LOCKMODE lockmode, bool exclusive, MarkTuples* out, bool wait = true);
// Unlocks the buffers; the relation locks are kept to the end of the transaction.
void close_mark(MarkTuples* seq);

// The stored record and the LSN that made it, raised by `node_ms` (the
// server's copy) and the dumped sequence up to `limit_ms`.
MarkRecord read_record(const MarkTuples& seq, std::int64_t node_ms, std::int64_t limit_ms, XLogRecPtr* lsn,
                       bool* capped = nullptr);
// Writes `next` over what the sequences hold; the caller flushes up to `lsn`.
void write_record(MarkTuples* seq, const MarkRecord& next, XLogRecPtr* lsn);

}  // namespace ulid_tsid::pg
