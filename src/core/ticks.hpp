// A strictly increasing sequence of 64-bit ticks, claimed either in one process
// or across the cluster through an atomic in shared memory. Every generator here
// takes its next value from one of these, which is what rules out duplicates:
// two claims never return the same tick.
//
// Every generator (UlidGenerator, Uuidv7Generator, UlidMonotonicGenerator,
// TsidGenerator) has one shape: start_above_ms(ms) for a persisted mark's
// floor, and next(now, ..., out), which writes one value for the clock reading
// `now` (clock.hpp's ClockMs, from split_ns()) or says why not (GenerateStatus).
#pragma once

#include <atomic>
#include <cstdint>

namespace ulid_tsid {

// What a generator reports.
enum class GenerateStatus : std::uint8_t {
  kOk = 0,
  kClockOutOfRange,  // the clock reads outside the key's time range
  kExhausted,        // no larger value is left (end of the time range, or monotonic mode's 80 bits)
};

// The next tick: `candidate` (fresh from the clock) when it is ahead of the last
// one, else the last one plus one, so a stalled or backwards clock still moves on.
inline std::uint64_t next_tick(std::uint64_t last, std::uint64_t candidate) noexcept {
  return candidate > last ? candidate : last + 1;
}

class TickSequence {
 public:
  // Claims through `shared` from now on (null: back to this process alone).
  void share(std::atomic<std::uint64_t>* shared) noexcept { shared_ = shared; }
  bool shared() const noexcept { return shared_ != nullptr; }

  // Makes every later claim greater than `floor`: the last tick becomes at
  // least `floor` (per process, or in the shared atomic, never lowering it).
  void raise_to(std::uint64_t floor) noexcept {
    if (shared_ == nullptr) {
      if (local_ < floor) local_ = floor;
      return;
    }
    std::uint64_t last = shared_->load(std::memory_order_relaxed);
    while (last < floor && !shared_->compare_exchange_weak(last, floor, std::memory_order_relaxed)) {
    }
  }

  // Makes `last` the last tick, lower or higher (a superuser setting the mark
  // back after the clock ran far ahead): in the shared atomic for every
  // process at once, or in this process alone.
  void reset_to(std::uint64_t last) noexcept {
    if (shared_ == nullptr) {
      local_ = last;
      return;
    }
    shared_->store(last, std::memory_order_relaxed);
  }

  // Moves the sequence from its last tick to the tick `successor` gives, which
  // must be greater; `successor(last, &next)` may refuse by returning false
  // (no greater tick is left), and then nothing is stored and this returns false.
  template <typename Successor>
  bool try_advance(Successor successor, std::uint64_t* claimed) noexcept {
    std::uint64_t next;
    if (shared_ == nullptr) {
      if (!successor(local_, &next)) return false;
      *claimed = local_ = next;
      return true;
    }
    std::uint64_t last = shared_->load(std::memory_order_relaxed);
    do {
      if (!successor(last, &next)) return false;
    } while (!shared_->compare_exchange_weak(last, next, std::memory_order_relaxed));
    *claimed = next;
    return true;
  }

  // The next tick per next_tick(); false once the 64 bits are used up.
  bool claim(std::uint64_t candidate, std::uint64_t* claimed) noexcept {
    return try_advance(
        [candidate](std::uint64_t last, std::uint64_t* next) {
          if (last == ~std::uint64_t{0}) return false;
          *next = next_tick(last, candidate);
          return true;
        },
        claimed);
  }

 private:
  std::atomic<std::uint64_t>* shared_ = nullptr;
  std::uint64_t local_ = 0;
};

}  // namespace ulid_tsid
