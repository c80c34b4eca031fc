// Per-backend generator state: the random pool and each generator's ticks,
// wired to the cluster-wide ticks on first use when the library was preloaded.
#pragma once

#include "../core/random_pool.hpp"
#include "../core/tsid_generator.hpp"
#include "../core/ulid_generator.hpp"
#include "../core/uuidv7.hpp"

namespace ulid_tsid::pg {

struct ProcessState {
  RandomPool random;
  UlidGenerator ulid;
  UlidMonotonicGenerator ulid_monotonic;
  TsidGenerator tsid;
  Uuidv7Generator uuidv7;
};

// This backend's state; the first call attaches it to shared ticks if any.
ProcessState& process_state();

// Fills `out` from the backend's pool, or reports an ERROR.
void draw_random(void* out, std::size_t length);

}  // namespace ulid_tsid::pg
