// Generator state shared between the backends of one database, present only
// when the library is in shared_preload_libraries: for each database, one
// atomic tick per generator, each on its own cache line, and
// generate_ulid_monotonic()'s one sequence under a spinlock. Without preload
// every generator keeps its state per backend.
//
// One slot per database, never one for the server: what the roles of one
// database do (a raise of its mark, a restore, a setval() of its dumped
// sequence) moves that database's keys only, and no database sees another's
// generation (how many monotonic values it made in a millisecond, say).
#pragma once

#include "postgres_api.hpp"

#include <atomic>
#include <cstdint>

extern "C" {
#include "storage/spin.h"
}

#include "../core/ulid_generator.hpp"

namespace ulid_tsid::pg {

struct alignas(64) SharedTick {
  std::atomic<std::uint64_t> last{0};
};

// A Postgres spinlock as GuardedUlidMonotonic's Lock: initialized when the
// slot is (re)initialized, under the table's lock.
class SpinLock {
 public:
  SpinLock() noexcept { SpinLockInit(&lock_); }
  void lock() noexcept { SpinLockAcquire(&lock_); }
  void unlock() noexcept { SpinLockRelease(&lock_); }

 private:
  slock_t lock_;
};

using SharedUlidMonotonic = GuardedUlidMonotonic<SpinLock>;

// One database's ticks.
struct SharedTicks {
  SharedTick ulid;
  SharedTick uuidv7;
  SharedTick tsid;
  alignas(64) SharedUlidMonotonic ulid_monotonic;
};

// Called from _PG_init while shared_preload_libraries is being processed.
void request_shared_ticks();

// Whether the library was preloaded (the slots exist).
bool shared_ticks_available();

// The ticks of this backend's database, `mark` being the relation of its mark
// (ulid_tsid_mark, or InvalidOid where the database has none): the slot that
// database's live backends use, or a new one, which starts from nothing
// (`*fresh`): its first values must start above everything the mark reserved.
// A slot left by a database that has no backend attached and another mark (a
// dropped database whose OID was used again, an extension dropped and created
// again) starts afresh too, so that it carries nothing of what was there.
// Once per backend; null when not preloaded.
SharedTicks* attach_shared_ticks(Oid database, Oid mark, bool* fresh);

}  // namespace ulid_tsid::pg
