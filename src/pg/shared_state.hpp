// Cluster-wide generator state, present only when the library is in
// shared_preload_libraries: one atomic tick per generator, each on its own cache
// line, and generate_ulid_monotonic()'s one sequence under a spinlock. Without
// preload every generator keeps its state per backend.
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
// shared struct is constructed (once, by the postmaster).
class SpinLock {
 public:
  SpinLock() noexcept { SpinLockInit(&lock_); }
  void lock() noexcept { SpinLockAcquire(&lock_); }
  void unlock() noexcept { SpinLockRelease(&lock_); }

 private:
  slock_t lock_;
};

using SharedUlidMonotonic = GuardedUlidMonotonic<SpinLock>;

struct SharedTicks {
  SharedTick ulid;
  SharedTick uuidv7;
  SharedTick tsid;
  alignas(64) SharedUlidMonotonic ulid_monotonic;
};

// Called from _PG_init while shared_preload_libraries is being processed.
void request_shared_ticks();

// The shared ticks, or null when the library was not preloaded.
SharedTicks* shared_ticks();

}  // namespace ulid_tsid::pg
