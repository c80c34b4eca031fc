// A strictly increasing sequence of 64-bit ticks, claimed either in one process
// or across the cluster through an atomic in shared memory. Every generator here
// takes its next value from one of these, which is what rules out duplicates:
// two claims never return the same tick.
#pragma once

#include <atomic>
#include <cstdint>

namespace ulid_tsid {

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

  // Sets where a per-process sequence resumes (no effect on shared ticks).
  void resume_after(std::uint64_t last) noexcept { local_ = last; }

  // Moves the sequence from its last tick to successor(last), atomically when
  // shared; `successor` must return a value greater than its argument.
  template <typename Successor>
  std::uint64_t advance(Successor successor) noexcept {
    if (shared_ == nullptr) return local_ = successor(local_);
    std::uint64_t last = shared_->load(std::memory_order_relaxed);
    std::uint64_t next;
    do {
      next = successor(last);
    } while (!shared_->compare_exchange_weak(last, next, std::memory_order_relaxed));
    return next;
  }

  std::uint64_t claim(std::uint64_t candidate) noexcept {
    return advance([candidate](std::uint64_t last) { return next_tick(last, candidate); });
  }

 private:
  std::atomic<std::uint64_t>* shared_ = nullptr;
  std::uint64_t local_ = 0;
};

}  // namespace ulid_tsid
