// A wait for the real-time clock to reach a millisecond (generate_tsid()'s, when
// a used-up millisecond moved its value into the next one), bounded by the
// monotonic clock: a real-time clock stepped back during the wait, or one that
// stands still, would otherwise hold the caller for as long as the step.
#pragma once

#include <cstdint>

#include "clock.hpp"

namespace ulid_tsid {

// The clocks a wait reads. Any type with these two members will do (the unit
// tests script one):
//   std::int64_t realtime_ns()   Unix nanoseconds; may step either way
//   std::int64_t monotonic_ns()  nanoseconds from any origin; never steps
struct SystemClock {
  std::int64_t realtime_ns() const noexcept { return ulid_tsid::realtime_ns(); }
  std::int64_t monotonic_ns() const noexcept { return ulid_tsid::monotonic_ns(); }
};

enum class ClockWait {
  kReached,   // the real-time clock is at or past the millisecond
  kGaveUp,    // max_wait_ns went by on the monotonic clock first: the clock is behind
};

// Spins until `clock`'s real time reaches Unix millisecond `target_ms`, at most
// `max_wait_ns` of monotonic time. `poll()` runs on every turn that waits on
// (the server's interrupt check, which may leave by longjmp: this frame holds
// nothing with a destructor). The monotonic clock is read before the real-time
// one, so a wait that gives up has seen the real-time clock short of the
// target after the whole bound went by (a caller descheduled for longer than
// the bound, its clock right, finds the target reached, not a timeout).
template <class Clock, class Poll>
ClockWait wait_for_clock_ms(Clock& clock, std::int64_t target_ms, std::int64_t max_wait_ns, Poll&& poll) {
  const std::int64_t start_ns = clock.monotonic_ns();
  for (;;) {
    const std::int64_t elapsed_ns = clock.monotonic_ns() - start_ns;
    if (split_ns(clock.realtime_ns()).ms >= target_ms) return ClockWait::kReached;
    if (elapsed_ns >= max_wait_ns) return ClockWait::kGaveUp;
    poll();
  }
}

}  // namespace ulid_tsid
