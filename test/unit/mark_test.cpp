// The persisted mark's logic (mark.hpp) and the generators' floors: what a
// backend starts above after a restart, a crash or a promotion, how far a
// reservation moves, and that a new backend of the same lifetime does not push
// values (and the mark) ever further ahead of the clock.
#include <gtest/gtest.h>

#include <cstdint>

#include "mark.hpp"
#include "tsid.hpp"
#include "tsid_generator.hpp"
#include "ulid.hpp"
#include "ulid_generator.hpp"
#include "uuidv7.hpp"

namespace {

using namespace ulid_tsid;

constexpr std::uint64_t kOld = 11;
constexpr std::uint64_t kNew = 23;
constexpr std::int64_t kNow = 1767225600000;  // 2026-01-01, Unix ms

TEST(Mark, AnotherLifetimeStartsAboveReservationAndFloor) {
  const MarkRecord stored{kNow + 250, kNow - 5000, kOld};
  EXPECT_EQ(mark_start_floor(stored, kNew), kNow + 250);
  const MarkRecord odd{kNow - 10, kNow, kOld};  // a floor above the reservation still counts
  EXPECT_EQ(mark_start_floor(odd, kNew), kNow);
}

TEST(Mark, SameLifetimeStartsAboveFloorOnly) {
  const MarkRecord stored{kNow + 250, kNow - 5000, kNew};
  EXPECT_EQ(mark_start_floor(stored, kNew), kNow - 5000);
}

TEST(Mark, EmptyRecordIsNoFloor) {
  const MarkRecord empty;
  EXPECT_EQ(mark_start_floor(empty, kNew), 0);
  EXPECT_FALSE(mark_covers(empty, kNew, kNow, kNow, false));
}

TEST(Mark, ReservationFollowsTheClock) {
  const MarkRecord empty;
  const MarkRecord r = mark_reserve(empty, kNew, kNow, kNow, false);
  EXPECT_EQ(r.reserved_ms, kNow + kMarkReserveMs);
  EXPECT_EQ(r.lifetime, kNew);
  EXPECT_EQ(r.floor_ms, 0);
  EXPECT_TRUE(mark_covers(r, kNew, kNow + kMarkReserveMs, kNow + 100, false));
  EXPECT_FALSE(mark_covers(r, kNew, kNow + kMarkReserveMs + 1, kNow + 100, false));
  EXPECT_FALSE(mark_covers(r, kOld, kNow, kNow, false));  // another lifetime writes its own
}

TEST(Mark, FirstReservationOfALifetimeKeepsTheOldOneAsFloor) {
  const MarkRecord old{kNow + 250, kNow - 9000, kOld};
  // The clock was set back an hour; the first value is just above the old mark.
  const std::int64_t clock = kNow - 3600000;
  const MarkRecord r = mark_reserve(old, kNew, kNow + 251, clock, false);
  EXPECT_EQ(r.floor_ms, kNow + 250);
  EXPECT_EQ(r.lifetime, kNew);
  // Running ahead of the clock, the step is the short one, from the value.
  EXPECT_EQ(r.reserved_ms, kNow + 251 + kMarkAheadReserveMs);
  // Later backends of the new lifetime start above the old lifetime's values,
  // not above the new reservation.
  EXPECT_EQ(mark_start_floor(r, kNew), kNow + 250);
}

TEST(Mark, ReservationNeverMovesBack) {
  const MarkRecord stored{kNow + 5000, 0, kNew};
  const MarkRecord r = mark_reserve(stored, kNew, kNow + 5001, kNow, false);
  EXPECT_GE(r.reserved_ms, kNow + 5001);
  const MarkRecord behind = mark_reserve(stored, kNew, kNow - 100, kNow - 100, false);
  EXPECT_EQ(behind.reserved_ms, kNow + 5000);
}

// Without shared ticks a TSID backend's slot may go to a later backend, which
// cannot see what the first one made: values ahead of the clock must be under
// the floor, so that the later backend starts above them.
TEST(Mark, PerBackendValuesAheadOfTheClockRaiseTheFloor) {
  const MarkRecord stored{kNow + 250, kNow, kNew};
  const std::int64_t clock = kNow - 60000;
  EXPECT_FALSE(mark_covers(stored, kNew, kNow + 1, clock, true));
  EXPECT_TRUE(mark_covers(stored, kNew, kNow + 1, clock, false));
  const MarkRecord r = mark_reserve(stored, kNew, kNow + 1, clock, true);
  // The floor covers what this backend may return before it reserves again,
  // not the clock's 250 ms window (that would push every later backend 250 ms on).
  EXPECT_EQ(r.floor_ms, kNow + 1 + kMarkAheadReserveMs);
  EXPECT_EQ(r.reserved_ms, kNow + 250);
  EXPECT_TRUE(mark_covers(r, kNew, kNow + 1, clock, true));
  EXPECT_FALSE(mark_covers(r, kNew, kNow + 2 + kMarkAheadReserveMs, clock, true));
  // A backend's first such reservation takes no step: the value's millisecond.
  const MarkRecord first = mark_reserve(stored, kNew, kNow + 1, clock, true, 0);
  EXPECT_EQ(first.floor_ms, kNow + 1);
  // At the clock (within the TSID's wait) the floor stays where it was.
  const MarkRecord at_clock = mark_reserve(stored, kNew, kNow + 251, kNow + 250, true);
  EXPECT_EQ(at_clock.floor_ms, kNow);
  EXPECT_TRUE(mark_covers(stored, kNew, kNow + 2, kNow, true));
}

// The pitfall the lifetime avoids: backends that start one after another in
// the same lifetime, each while the clock is behind the reservation, must not
// ratchet values ahead. With shared or per-backend ULID ticks every one starts
// above the floor only, and the mark stays where the clock puts it.
TEST(Mark, NewBackendsOfALifetimeDoNotDrift) {
  MarkRecord stored{0, 0, kOld};
  std::int64_t clock = kNow;
  for (int backend = 0; backend < 1000; ++backend) {
    const std::int64_t floor = mark_start_floor(stored, kNew);
    const std::int64_t value = floor >= clock ? floor + 1 : clock;
    if (!mark_covers(stored, kNew, value, clock, false)) stored = mark_reserve(stored, kNew, value, clock, false);
    clock += 1;
  }
  EXPECT_LE(stored.reserved_ms, clock + kMarkReserveMs);
}

// Connection churn while per-backend values run ahead of the clock (a restart
// onto a clock 5 s behind, not preloaded): each new backend starts above the
// floor, makes a few TSIDs and exits. Each pushes the floor by one millisecond,
// so at 183 sessions a second the lead shrinks; with the old step of 10 ms
// (11 ms a backend) it grew by a second a second.
TEST(Mark, ChurnWhileAheadPushesOneMillisecondPerBackend) {
  const auto lead_after = [](bool first_step_zero) {
    MarkRecord stored{kNow + 250, kNow, kOld};
    std::int64_t clock = kNow - 5000;
    for (int backend = 0; backend < 1830; ++backend) {  // 10 s at 183 a second
      std::int64_t step = first_step_zero ? 0 : kMarkAheadReserveMs;
      const std::int64_t value = mark_start_floor(stored, kNew) + 1;
      for (int call = 0; call < 3; ++call) {
        if (mark_covers(stored, kNew, value, clock, true)) continue;
        stored = mark_reserve(stored, kNew, value, clock, true, step);
        step = mark_next_ahead_step(step);
      }
      clock += 1000 / 183;
    }
    return mark_start_floor(stored, kNew) - clock;
  };
  EXPECT_LT(lead_after(true), 5250);    // the 5 s lead, plus at most the window
  EXPECT_GT(lead_after(false), 10000);  // what 0.4.0's first cut did
}

TEST(Mark, AheadStepGrowsToTheUsualOne) {
  std::int64_t step = 0;
  const std::int64_t expected[] = {1, 2, 4, 8, 10, 10};
  for (std::int64_t e : expected) {
    step = mark_next_ahead_step(step);
    EXPECT_EQ(step, e);
  }
}

TEST(Floor, UlidTicksStartAfterTheMillisecond) {
  UlidGenerator g;
  g.start_above_ms(kNow);
  const std::uint8_t random[kUlidTailBytes] = {};
  std::uint8_t out[16];
  ASSERT_EQ(g.next({kNow - 3600000, 0}, random, out), GenerateStatus::kOk);
  EXPECT_EQ(ulid_time_ms(out), static_cast<std::uint64_t>(kNow + 1));
  ASSERT_EQ(g.next({kNow - 3600000, 0}, random, out), GenerateStatus::kOk);
  EXPECT_EQ(ulid_time_ms(out), static_cast<std::uint64_t>(kNow + 1));  // counting on
  ASSERT_EQ(g.next({kNow + 5, 0}, random, out), GenerateStatus::kOk);   // the clock passes: it follows
  EXPECT_EQ(ulid_time_ms(out), static_cast<std::uint64_t>(kNow + 5));
  g.start_above_ms(kNow);  // a lower floor never moves it back
  ASSERT_EQ(g.next({kNow + 5, 0}, random, out), GenerateStatus::kOk);
  EXPECT_EQ(ulid_time_ms(out), static_cast<std::uint64_t>(kNow + 5));
}

TEST(Floor, SharedTicksAreRaisedNeverLowered) {
  std::atomic<std::uint64_t> shared{0};
  Uuidv7Generator a, b;
  a.ticks().share(&shared);
  b.ticks().share(&shared);
  a.start_above_ms(kNow);
  const std::uint8_t random[kUuidv7RandomBytes] = {};
  std::uint8_t out[16];
  ASSERT_EQ(b.next({kNow - 10, 0}, random, out), GenerateStatus::kOk);
  EXPECT_EQ(uuidv7_tick(out), static_cast<std::uint64_t>(kNow + 1) << kUuidv7FractionBits);
  b.start_above_ms(kNow - 100);
  ASSERT_EQ(a.next({kNow - 10, 0}, random, out), GenerateStatus::kOk);
  EXPECT_EQ(uuidv7_tick(out), (static_cast<std::uint64_t>(kNow + 1) << kUuidv7FractionBits) + 1);
}

TEST(Floor, TsidStartsAtTheNextMillisecondAndCountsOn) {
  TsidGenerator g;
  TsidLayout layout;
  layout.slot_bits = 7;
  layout.slot = 5;
  g.start_after_first_millisecond();
  g.start_above_ms(kNow);
  std::uint64_t v = 0;
  ASSERT_EQ(g.next({kNow - 3600000, 0}, layout, &v), GenerateStatus::kOk);
  EXPECT_EQ(tsid_unix_ms(v), kNow + 1);
  EXPECT_EQ(v & 127, 5u);
  std::uint64_t w = 0;
  ASSERT_EQ(g.next({kNow - 3600000, 0}, layout, &w), GenerateStatus::kOk);
  EXPECT_GT(w, v);
  g.start_above_ms(kTsidEpochUnixMs - 1);  // before the epoch: nothing
  ASSERT_EQ(g.next({kNow - 3600000, 0}, layout, &v), GenerateStatus::kOk);
  EXPECT_GT(v, w);
}

TEST(Floor, MonotonicUlidMovesToTheNextMillisecondThenIncrements) {
  UlidMonotonicGenerator g;
  std::uint8_t random[kUlidRandomBytes] = {};
  random[9] = 7;
  std::uint8_t out[16], next[16];
  ASSERT_EQ(g.next({kNow, 0}, random, out), GenerateStatus::kOk);
  g.start_above_ms(kNow + 100);
  EXPECT_TRUE(g.needs_random({kNow, 0}));  // a new millisecond: the one after the floor
  ASSERT_EQ(g.next({kNow, 0}, random, out), GenerateStatus::kOk);
  EXPECT_EQ(ulid_time_ms(out), static_cast<std::uint64_t>(kNow + 101));
  EXPECT_FALSE(g.needs_random({kNow, 0}));
  ASSERT_EQ(g.next({kNow + 50, 0}, random, next), GenerateStatus::kOk);
  EXPECT_EQ(ulid_time_ms(next), static_cast<std::uint64_t>(kNow + 101));
  EXPECT_GT(memcmp(next, out, 16), 0);
  ASSERT_EQ(g.next({kNow + 102, 0}, random, next), GenerateStatus::kOk);
  EXPECT_EQ(ulid_time_ms(next), static_cast<std::uint64_t>(kNow + 102));
  EXPECT_EQ(g.next({-1, 0}, random, next), GenerateStatus::kClockOutOfRange);
}

TEST(Floor, ResetLowersEveryGenerator) {
  std::atomic<std::uint64_t> shared{0};
  UlidGenerator u;
  u.ticks().share(&shared);
  const std::int64_t far = kNow + 150LL * 365 * 86400000;
  u.start_above_ms(far);
  const std::uint8_t random[kUlidTailBytes] = {};
  std::uint8_t out[16];
  ASSERT_EQ(u.next({kNow, 0}, random, out), GenerateStatus::kOk);
  EXPECT_EQ(ulid_time_ms(out), static_cast<std::uint64_t>(far + 1));
  u.reset_above_ms(kNow - 1);
  ASSERT_EQ(u.next({kNow, 0}, random, out), GenerateStatus::kOk);
  EXPECT_EQ(ulid_time_ms(out), static_cast<std::uint64_t>(kNow));
  TsidGenerator t;
  TsidLayout layout;
  t.start_above_ms(far);
  std::uint64_t v = 0;
  // 150 years on is past the TSID's range (to 2159): no later value, until the reset.
  EXPECT_EQ(t.next({kNow, 0}, layout, &v), GenerateStatus::kExhausted);
  t.reset_above_ms(kNow - 1);
  ASSERT_EQ(t.next({kNow, 0}, layout, &v), GenerateStatus::kOk);
  EXPECT_EQ(tsid_unix_ms(v), kNow);
  UlidMonotonicGenerator m;
  std::uint8_t mrandom[kUlidRandomBytes] = {};
  m.start_above_ms(far);
  ASSERT_EQ(m.next({kNow, 0}, mrandom, out), GenerateStatus::kOk);
  EXPECT_EQ(ulid_time_ms(out), static_cast<std::uint64_t>(far + 1));
  m.reset_above_ms(kNow - 1);
  ASSERT_EQ(m.next({kNow, 0}, mrandom, out), GenerateStatus::kOk);
  EXPECT_EQ(ulid_time_ms(out), static_cast<std::uint64_t>(kNow));
}

TEST(Floor, MonotonicUlidAtTheEndOfTimeIsExhausted) {
  UlidMonotonicGenerator g;
  const std::uint8_t random[kUlidRandomBytes] = {};
  std::uint8_t out[16];
  g.start_above_ms(static_cast<std::int64_t>(kMax48BitMs));
  EXPECT_EQ(g.next({kNow, 0}, random, out), GenerateStatus::kExhausted);
}

}  // namespace

TEST(Mark, RenewalIsDueInTheReservationsLastMillisecondsOnly) {
  const MarkRecord r = mark_reserve(MarkRecord{}, kNew, kNow, kNow, false);
  const std::int64_t end = r.reserved_ms;
  EXPECT_FALSE(mark_renewal_due(r, kNew, end - kMarkRenewMs, end - kMarkRenewMs));
  EXPECT_TRUE(mark_renewal_due(r, kNew, end - kMarkRenewMs + 1, end - kMarkRenewMs + 1));
  EXPECT_TRUE(mark_renewal_due(r, kNew, end, end));
  EXPECT_FALSE(mark_renewal_due(r, kNew, end + 1, end + 1));  // not covered: a reservation, not a renewal
  EXPECT_FALSE(mark_renewal_due(r, kOld, end, end));          // another lifetime's record
}

TEST(Mark, RenewalMovesTheReservationOnAndKeepsTheFloor) {
  const MarkRecord r{kNow + kMarkReserveMs, kNow - 9000, kNew};
  const std::int64_t value = r.reserved_ms - kMarkRenewMs + 1;
  ASSERT_TRUE(mark_renewal_due(r, kNew, value, value));
  const MarkRecord next = mark_reserve(r, kNew, value, value, false);
  EXPECT_EQ(next.reserved_ms, value + kMarkReserveMs);
  EXPECT_GE(next.reserved_ms - r.reserved_ms, kMarkReserveMs - kMarkRenewMs);
  EXPECT_EQ(next.floor_ms, r.floor_ms);
  EXPECT_EQ(next.lifetime, kNew);
  EXPECT_FALSE(mark_renewal_due(next, kNew, value, value));
}

// Each write of the mark is a WAL flush and an fsync of the server's copy on
// the path of the insert that makes it (about 1.3 ms with fsync on): values
// that follow the clock write it about once a second per database, so that
// with one client at a few thousand inserts a second those inserts stay far
// below the slowest 0.1%.
TEST(Mark, ValuesFollowingTheClockWriteTheMarkAboutOnceASecond) {
  MarkRecord stored{};
  int writes = 0;
  int ran_out = 0;  // values past the reservation: the first one, then renewals keep ahead
  for (std::int64_t clock = kNow; clock < kNow + 10000; ++clock) {
    const bool covered = mark_covers(stored, kNew, clock, clock, false);
    if (!covered || mark_renewal_due(stored, kNew, clock, clock)) {
      ran_out += covered ? 0 : 1;
      stored = mark_reserve(stored, kNew, clock, clock, false);
      ++writes;
    }
  }
  EXPECT_LE(writes, 11);
  EXPECT_EQ(ran_out, 1);
}

TEST(Mark, ValuesAheadOfTheClockRenewNothing) {
  // After a restart with the clock behind the mark, values count ahead of it
  // and reserve in short steps as they pass the reservation.
  const MarkRecord r{kNow + kMarkAheadReserveMs, 0, kNew};
  const std::int64_t clock = kNow - 3600000;
  EXPECT_TRUE(mark_covers(r, kNew, kNow + 5, clock, false));
  EXPECT_FALSE(mark_renewal_due(r, kNew, kNow + 5, clock));
  EXPECT_FALSE(mark_renewal_due(r, kNew, kNow + 5, kNow + 5 - kMarkAheadSlackMs - 1));
  EXPECT_TRUE(mark_renewal_due(r, kNew, kNow + 5, kNow + 5 - kMarkAheadSlackMs));
}
