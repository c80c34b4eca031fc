// Cluster-wide generator state, present only when the library is in
// shared_preload_libraries: one atomic tick per generator, each on its own cache
// line. Without preload every generator keeps its ticks per backend.
#pragma once

#include <atomic>
#include <cstdint>

namespace ulid_tsid::pg {

struct alignas(64) SharedTick {
  std::atomic<std::uint64_t> last{0};
};

struct SharedTicks {
  SharedTick ulid;
  SharedTick uuidv7;
  SharedTick tsid;
};

// Called from _PG_init while shared_preload_libraries is being processed.
void request_shared_ticks();

// The shared ticks, or null when the library was not preloaded.
SharedTicks* shared_ticks();

}  // namespace ulid_tsid::pg
