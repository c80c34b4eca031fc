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
#pragma once

#include "postgres_api.hpp"

#include <cstdint>

#include "../core/mark.hpp"

namespace ulid_tsid::pg {

// The file's mark for this database's mark (find_mark() first), or 0 when
// there is none, it is another mark's, or it cannot be read (a fault).
std::int64_t node_mark_read();

// Writes `ms` (only upwards unless `lower`) under the writers' lock; without
// `wait`, false when another writer holds it. A fault is reported, not raised.
bool node_mark_write(std::int64_t ms, bool lower, bool wait = true);

// Makes the file cover `stored` (read with the file at `node_ms`).
void node_mark_cover(std::int64_t node_ms, const MarkRecord& stored);

// This backend's last fault of the file, or "" (ulid_tsid_status()).
const char* node_mark_fault_text();

}  // namespace ulid_tsid::pg
