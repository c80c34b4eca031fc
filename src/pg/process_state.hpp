// Per-backend generator state: the random pool and each generator's ticks,
// wired to its database's shared ticks before the first value when the library was preloaded.
#pragma once

#include "postgres_api.hpp"

#include "../core/random_pool.hpp"
#include "../core/tsid_generator.hpp"
#include "../core/ulid_generator.hpp"
#include "../core/uuidv7.hpp"

namespace ulid_tsid::pg {

struct SharedTicks;

// generate_ulid_monotonic()'s sequence: this backend's own, or, when the
// library was preloaded, the one in shared memory that every backend of the
// database takes its values from (under its spinlock).
class MonotonicUlid {
 public:
  void share(SharedTicks* shared) noexcept { shared_ = shared; }
  bool shared() const noexcept { return shared_ != nullptr; }

  // Whether next() may read its random bytes: shared, always (the state is
  // known only under the lock, where nothing is drawn).
  bool needs_random(ClockMs now) const noexcept { return shared_ != nullptr || own_.needs_random(now); }

  // The next value into `out`; `value_ms` gets its millisecond.
  GenerateStatus next(ClockMs now, const std::uint8_t random[kUlidRandomBytes], std::uint8_t out[16],
                      std::int64_t* value_ms) noexcept;
  void start_above_ms(std::int64_t ms) noexcept;
  void reset_above_ms(std::int64_t ms) noexcept;

 private:
  UlidMonotonicGenerator own_;
  SharedTicks* shared_ = nullptr;
};

struct ProcessState {
  RandomPool random;
  UlidGenerator ulid;
  MonotonicUlid ulid_monotonic;
  TsidGenerator tsid;
  Uuidv7Generator uuidv7;
};

// This backend's state.
ProcessState& process_state();

// Preloaded: attaches `state` to its database's shared ticks (once; `mark` is
// the database's ulid_tsid_mark, or InvalidOid). True when they start afresh:
// then the first values must start above everything the mark reserved.
bool share_database_ticks(ProcessState& state, Oid mark);

// Fills `out` from the backend's pool, or reports an ERROR.
void draw_random(void* out, std::size_t length);

}  // namespace ulid_tsid::pg
