#include "postgres_api.hpp"

#include "shared_state.hpp"

#include <new>
#include <type_traits>

extern "C" {
#include "miscadmin.h"
#include "postmaster/autovacuum.h"
#include "postmaster/bgworker_internals.h"
#include "replication/walsender.h"
#include "storage/ipc.h"
#include "storage/lwlock.h"
#include "storage/shmem.h"
}

namespace ulid_tsid::pg {
namespace {

constexpr const char* kTrancheName = "ulid_tsid";

struct alignas(64) DatabaseSlot {
  Oid database = InvalidOid;   // InvalidOid: never used
  Oid mark = InvalidOid;       // the mark it was made for
  std::atomic<std::uint32_t> attached{0};  // backends using it (taken under the lock, given back without)
  SharedTicks ticks;
};

// The table: this header, then `capacity` slots.
struct alignas(64) SharedSlots {
  LWLock* lock;  // the table's: taken once per backend, never with a buffer locked
  int capacity;
  DatabaseSlot* slot(int i) { return reinterpret_cast<DatabaseSlot*>(this + 1) + i; }
};

SharedSlots* g_slots = nullptr;
DatabaseSlot* g_attached = nullptr;
shmem_startup_hook_type g_previous_startup_hook = nullptr;
#if PG_VERSION_NUM >= 150000
shmem_request_hook_type g_previous_request_hook = nullptr;
#endif

// Every process that can call a generator is one of MaxBackends (client
// backends, autovacuum, background workers, WAL senders), and each is attached
// to one database at most: there are never more databases in use than slots.
int slot_capacity() {
#if PG_VERSION_NUM >= 150000
  return MaxBackends;
#else
  // MaxBackends is computed after shared_preload_libraries is processed.
  return MaxConnections + autovacuum_max_workers + 1 + max_worker_processes + max_wal_senders;
#endif
}

Size table_size() { return add_size(sizeof(SharedSlots), mul_size(slot_capacity(), sizeof(DatabaseSlot))); }

void request_space() {
  RequestAddinShmemSpace(table_size());
  RequestNamedLWLockTranche(kTrancheName, 1);
}

#if PG_VERSION_NUM >= 150000
void on_shmem_request() {
  if (g_previous_request_hook != nullptr) g_previous_request_hook();
  request_space();
}
#endif

void on_shmem_startup() {
  if (g_previous_startup_hook != nullptr) g_previous_startup_hook();
  bool found = false;
  LWLockAcquire(AddinShmemInitLock, LW_EXCLUSIVE);
  void* memory = ShmemInitStruct("ulid_tsid generator ticks", table_size(), &found);
  auto* slots = static_cast<SharedSlots*>(memory);
  if (!found) {
    slots->lock = &(GetNamedLWLockTranche(kTrancheName))->lock;
    slots->capacity = slot_capacity();
    for (int i = 0; i < slots->capacity; ++i) new (slots->slot(i)) DatabaseSlot();
  }
  LWLockRelease(AddinShmemInitLock);
  g_slots = slots;
}

void detach(int, Datum) {
  if (g_attached != nullptr) g_attached->attached.fetch_sub(1);
  g_attached = nullptr;
}

void start_afresh(DatabaseSlot* slot, Oid database, Oid mark) {
  slot->ticks.~SharedTicks();
  new (&slot->ticks) SharedTicks();
  slot->database = database;
  slot->mark = mark;
}

}  // namespace

void request_shared_ticks() {
  static_assert(std::atomic<std::uint64_t>::is_always_lock_free && std::atomic<std::uint32_t>::is_always_lock_free,
                "shared ticks must be address-free atomics");
  static_assert(std::is_trivially_copyable_v<UlidMonotonicGenerator>,
                "the shared monotonic generator must be plain bytes, valid at any address");
#if PG_VERSION_NUM >= 150000
  g_previous_request_hook = shmem_request_hook;
  shmem_request_hook = on_shmem_request;
#else
  request_space();
#endif
  g_previous_startup_hook = shmem_startup_hook;
  shmem_startup_hook = on_shmem_startup;
}

bool shared_ticks_available() { return g_slots != nullptr; }

SharedTicks* attach_shared_ticks(Oid database, Oid mark, bool* fresh) {
  *fresh = false;
  if (g_slots == nullptr) return nullptr;
  if (g_attached != nullptr) return &g_attached->ticks;
  DatabaseSlot* mine = nullptr;
  DatabaseSlot* never_used = nullptr;
  DatabaseSlot* idle = nullptr;  // another database's, with no backend attached
  LWLockAcquire(g_slots->lock, LW_EXCLUSIVE);
  for (int i = 0; i < g_slots->capacity; ++i) {
    DatabaseSlot* slot = g_slots->slot(i);
    if (slot->database == database) {
      mine = slot;
      break;
    }
    if (slot->database == InvalidOid) {
      if (never_used == nullptr) never_used = slot;
    } else if (idle == nullptr && slot->attached.load() == 0) {
      idle = slot;
    }
  }
  // Taking an idle slot costs its database a fresh start (up to a reservation
  // ahead of the clock) when it is used again: a never-used one comes first.
  DatabaseSlot* unused = never_used != nullptr ? never_used : idle;
  if (mine != nullptr && mine->mark != mark) {
    if (mine->attached.load() == 0) {
      start_afresh(mine, database, mark);
      *fresh = true;
    } else {
      // A backend of this very database is attached (a dropped database has
      // none): the extension was made again or updated while it ran. The
      // ticks go on, so that its values and the new ones never meet.
      mine->mark = mark;
    }
  } else if (mine == nullptr && unused != nullptr) {
    mine = unused;
    start_afresh(mine, database, mark);
    *fresh = true;
  }
  if (mine != nullptr) mine->attached.fetch_add(1);
  LWLockRelease(g_slots->lock);
  if (mine == nullptr) {
    ereport(ERROR, (errcode(ERRCODE_INSUFFICIENT_RESOURCES),
                    errmsg("ulid_tsid: no room for another database's generators in shared memory"),
                    errdetail("All %d slots are in use by databases with backends attached.", g_slots->capacity)));
  }
  g_attached = mine;
  before_shmem_exit(detach, 0);
  return &mine->ticks;
}

}  // namespace ulid_tsid::pg
