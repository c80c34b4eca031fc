// wait_for_clock_ms (clock_wait.hpp), driven by a scripted clock: it ends when
// the real-time clock reaches the millisecond, or after its bound of monotonic
// time when that clock stepped back or stands still; it polls on every turn it
// waits on; and a TsidGenerator whose wait gave up goes on with unique,
// increasing values while the clock is behind.
#include <gtest/gtest.h>

#include <cstdint>
#include <stdexcept>

#include "clock_wait.hpp"
#include "tsid.hpp"
#include "tsid_generator.hpp"

namespace {

using ulid_tsid::ClockWait;
using ulid_tsid::kNsPerMs;
using ulid_tsid::kTsidEpochUnixMs;
using ulid_tsid::split_ns;
using ulid_tsid::TsidGenerator;
using ulid_tsid::TsidLayout;
using ulid_tsid::wait_for_clock_ms;

constexpr std::int64_t kMaxWaitNs = 3 * kNsPerMs;
constexpr std::int64_t kHourNs = 3600 * 1000 * kNsPerMs;
constexpr std::int64_t kStartMs = kTsidEpochUnixMs + 100000000000;  // in 2023

// Both clocks move by `tick_ns` at each reading of the monotonic clock (the
// real-time one not at all when `frozen`); once the monotonic clock has moved
// `step_after_ns`, the real-time clock steps by `step_ns` (back when negative).
struct ScriptedClock {
  std::int64_t real_ns;
  std::int64_t mono_ns = 5 * kNsPerMs;
  std::int64_t tick_ns = 1000;
  bool frozen = false;
  std::int64_t step_after_ns = -1;
  std::int64_t step_ns = 0;
  std::int64_t mono_start_ns = 5 * kNsPerMs;
  bool stepped = false;

  std::int64_t monotonic_ns() {
    mono_ns += tick_ns;
    if (!frozen) real_ns += tick_ns;
    if (!stepped && step_after_ns >= 0 && mono_ns - mono_start_ns >= step_after_ns) {
      real_ns += step_ns;
      stepped = true;
    }
    return mono_ns;
  }
  std::int64_t realtime_ns() const { return real_ns; }
  std::int64_t waited_ns() const { return mono_ns - mono_start_ns; }
};

struct CountPolls {
  int* polls;
  void operator()() const { ++*polls; }
};

TEST(ClockWait, EndsWhenTheClockReachesTheMillisecond) {
  ScriptedClock clock{kStartMs * kNsPerMs + 400000};  // 0.4 ms into kStartMs
  int polls = 0;
  EXPECT_EQ(wait_for_clock_ms(clock, kStartMs + 1, kMaxWaitNs, CountPolls{&polls}), ClockWait::kReached);
  EXPECT_EQ(split_ns(clock.realtime_ns()).ms, kStartMs + 1);
  EXPECT_LE(clock.waited_ns(), 601000);
  EXPECT_GE(polls, 500);  // one poll a turn (a turn here is 1 us)
}

TEST(ClockWait, ATargetAlreadyReachedNeitherWaitsNorPolls) {
  ScriptedClock clock{(kStartMs + 2) * kNsPerMs};
  int polls = 0;
  EXPECT_EQ(wait_for_clock_ms(clock, kStartMs + 2, kMaxWaitNs, CountPolls{&polls}), ClockWait::kReached);
  EXPECT_EQ(polls, 0);
}

TEST(ClockWait, AClockSteppedBackDuringTheWaitEndsItAfterTheBound) {
  ScriptedClock clock{kStartMs * kNsPerMs + 900000};
  clock.step_after_ns = 50000;  // 50 us into the wait, an hour back
  clock.step_ns = -kHourNs;
  int polls = 0;
  EXPECT_EQ(wait_for_clock_ms(clock, kStartMs + 1, kMaxWaitNs, CountPolls{&polls}), ClockWait::kGaveUp);
  EXPECT_TRUE(clock.stepped);
  EXPECT_GE(clock.waited_ns(), kMaxWaitNs);
  EXPECT_LE(clock.waited_ns(), kMaxWaitNs + 2 * clock.tick_ns);
  EXPECT_LE(polls, kMaxWaitNs / clock.tick_ns);
}

TEST(ClockWait, AClockThatStandsStillEndsItAfterTheBound) {
  ScriptedClock clock{kStartMs * kNsPerMs + 999999};
  clock.frozen = true;
  int polls = 0;
  EXPECT_EQ(wait_for_clock_ms(clock, kStartMs + 1, kMaxWaitNs, CountPolls{&polls}), ClockWait::kGaveUp);
  EXPECT_LE(clock.waited_ns(), kMaxWaitNs + 2 * clock.tick_ns);
}

// A caller descheduled for longer than the bound, its clock right: the clock
// has passed the target by then, and the wait says so rather than giving up.
TEST(ClockWait, ACallerDescheduledPastTheBoundFindsTheTargetReached) {
  ScriptedClock clock{kStartMs * kNsPerMs + 100000};
  clock.tick_ns = 10 * kNsPerMs;
  int polls = 0;
  EXPECT_EQ(wait_for_clock_ms(clock, kStartMs + 2, kMaxWaitNs, CountPolls{&polls}), ClockWait::kReached);
}

// The server's poll is its interrupt check, which leaves the wait (by longjmp
// there; an exception here): a cancel ends even a wait on a clock that stands still.
TEST(ClockWait, ThePollCanEndTheWait) {
  ScriptedClock clock{kStartMs * kNsPerMs};
  clock.frozen = true;
  int polls = 0;
  auto cancel_at_third = [&polls] {
    if (++polls == 3) throw std::runtime_error("canceling statement due to user request");
  };
  EXPECT_THROW(wait_for_clock_ms(clock, kStartMs + 1, kHourNs, cancel_at_third), std::runtime_error);
  EXPECT_EQ(polls, 3);
}

// generate_tsid()'s loop on a layout with no counter bits (one value per
// millisecond per slot): every value after a millisecond's first waits. The
// clock steps an hour back during such a wait; the wait gives up, and the
// values made while the clock is behind run ahead of it, unique and increasing,
// with no further wait (they are more than 2 ms ahead: tsid.cpp's kMaxWaitMs).
TEST(ClockWait, TsidsStayUniqueAndIncreasingWhenTheClockStepsBackDuringAWait) {
  TsidLayout layout;
  layout.node_bits = 20;
  layout.node_id = 5;
  layout.slot_bits = 2;
  layout.slot = 1;
  ASSERT_TRUE(layout.valid());
  ASSERT_EQ(layout.counter_bits(), 0);
  TsidGenerator gen;
  ScriptedClock clock{kStartMs * kNsPerMs + 300000};
  clock.step_after_ns = 200000;
  clock.step_ns = -kHourNs;
  std::uint64_t last = 0;
  int waits = 0, gave_up = 0;
  for (int i = 0; i < 1000; ++i) {
    const auto now = split_ns(clock.realtime_ns());
    std::uint64_t value = 0;
    ASSERT_EQ(gen.next(now, layout, &value), ulid_tsid::GenerateStatus::kOk);
    ASSERT_GT(value, last) << "value " << i;
    last = value;
    const std::int64_t value_ms = ulid_tsid::tsid_unix_ms(value);
    if (value_ms > now.ms && value_ms - now.ms <= 2) {
      ++waits;
      int polls = 0;
      if (wait_for_clock_ms(clock, value_ms, kMaxWaitNs, CountPolls{&polls}) == ClockWait::kGaveUp) ++gave_up;
    }
  }
  EXPECT_TRUE(clock.stepped);
  EXPECT_EQ(gave_up, 1);  // the wait the step fell into, and no other
  EXPECT_EQ(waits, 1);    // the first value has its millisecond; the second waits; then no more waits
  EXPECT_EQ(ulid_tsid::tsid_unix_ms(last), kStartMs + 999);
}

}  // namespace
