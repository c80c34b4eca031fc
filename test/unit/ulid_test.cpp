// The ULID layout helpers (ulid.hpp) and both generators (ulid_generator.hpp),
// driven by a simulated clock and chosen random bytes.
#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <cstring>
#include <limits>
#include <random>
#include <set>
#include <string>
#include <thread>
#include <vector>

#include "iterations.hpp"
#include "ulid.hpp"
#include "ulid_generator.hpp"

namespace {

using ulid_tsid::ClockMs;
using ulid_tsid::fraction_ns;
using ulid_tsid::GenerateStatus;
using ulid_tsid::split_ns;
using ulid_tsid::kMax48BitMs;
using ulid_tsid::kUlidRandomBytes;
using ulid_tsid::UlidGenerator;
using ulid_tsid::UlidMonotonicGenerator;
using u128 = unsigned __int128;

struct Ulid {
  std::uint8_t b[16];
};

u128 AsInt(const std::uint8_t b[16]) {
  u128 v = 0;
  for (int i = 0; i < 16; ++i) v = v << 8 | b[i];
  return v;
}
u128 Low80(const std::uint8_t b[16]) { return AsInt(b) & ((u128{1} << 80) - 1); }
std::uint64_t High64(const std::uint8_t b[16]) { return static_cast<std::uint64_t>(AsInt(b) >> 64); }
std::uint64_t Low64(const std::uint8_t b[16]) { return static_cast<std::uint64_t>(AsInt(b)); }
std::uint64_t TimeMs(const std::uint8_t b[16]) { return static_cast<std::uint64_t>(AsInt(b) >> 80); }
std::string Hex(const std::uint8_t* b, int n) {
  static const char* d = "0123456789abcdef";
  std::string s;
  for (int i = 0; i < n; ++i) { s += d[b[i] >> 4]; s += d[b[i] & 15]; }
  return s;
}
std::uint64_t BigEndian(const std::uint8_t* p, int n) {
  std::uint64_t v = 0;
  for (int i = 0; i < n; ++i) v = v << 8 | p[i];
  return v;
}

// ---------------------------------------------------------------- layout

TEST(UlidLayout, TimeStoreAndBound) {
  std::uint8_t b[16];
  ulid_tsid::ulid_store(0x0123456789ABCDEFULL, 0xFEDCBA9876543210ULL, b);
  EXPECT_EQ(Hex(b, 16), "0123456789abcdeffedcba9876543210");
  EXPECT_EQ(ulid_tsid::ulid_time_ms(b), 0x0123456789ABULL);

  ulid_tsid::ulid_bound(1469918176385ULL, false, b);
  EXPECT_EQ(ulid_tsid::ulid_time_ms(b), 1469918176385ULL);
  EXPECT_EQ(Low80(b), 0u);
  ulid_tsid::ulid_bound(1469918176385ULL, true, b);
  EXPECT_EQ(ulid_tsid::ulid_time_ms(b), 1469918176385ULL);
  EXPECT_EQ(Low80(b), (u128{1} << 80) - 1);

  ulid_tsid::ulid_bound(kMax48BitMs, true, b);
  for (int i = 0; i < 16; ++i) EXPECT_EQ(b[i], 0xFF);
  ulid_tsid::ulid_bound(0, false, b);
  for (int i = 0; i < 16; ++i) EXPECT_EQ(b[i], 0);
}

TEST(UlidLayout, BoundsBracketEveryValueOfTheirMillisecond) {
  std::mt19937_64 rng(5);
  for (int n = 0; n < 1000; ++n) {
    const std::uint64_t ms = rng() & kMax48BitMs;
    std::uint8_t lo[16], hi[16], v[16];
    ulid_tsid::ulid_bound(ms, false, lo);
    ulid_tsid::ulid_bound(ms, true, hi);
    ulid_tsid::ulid_store((ms << 16) | (rng() & 0xFFFF), rng(), v);
    EXPECT_LE(std::memcmp(lo, v, 16), 0);
    EXPECT_GE(std::memcmp(hi, v, 16), 0);
    if (ms < kMax48BitMs) {
      std::uint8_t next[16];
      ulid_tsid::ulid_bound(ms + 1, false, next);
      EXPECT_EQ(AsInt(next), AsInt(hi) + 1);
    }
  }
}

TEST(UlidIncrement, CarriesAcrossEveryByte) {
  std::mt19937_64 rng(9);
  for (int k = 6; k < 16; ++k) {         // the byte that receives the carry
    for (int x : {0x00, 0x01, 0x7F, 0x80, 0xFE}) {
      std::uint8_t b[16];
      for (auto& c : b) c = static_cast<std::uint8_t>(rng());
      b[k] = static_cast<std::uint8_t>(x);
      for (int j = k + 1; j < 16; ++j) b[j] = 0xFF;
      std::uint8_t before[16];
      std::memcpy(before, b, 16);
      ASSERT_TRUE(ulid_tsid::ulid_increment_random(b)) << "k=" << k << " x=" << x;
      for (int j = 0; j < k; ++j) EXPECT_EQ(b[j], before[j]) << "byte " << j << " k=" << k;
      EXPECT_EQ(b[k], x + 1) << "k=" << k;
      for (int j = k + 1; j < 16; ++j) EXPECT_EQ(b[j], 0) << "byte " << j << " k=" << k;
      EXPECT_EQ(AsInt(b), AsInt(before) + 1);
    }
  }
}

TEST(UlidIncrement, RandomValuesAddExactlyOne) {
  std::mt19937_64 rng(10);
  for (int n = 0; n < 100000; ++n) {
    std::uint8_t b[16];
    for (auto& c : b) c = static_cast<std::uint8_t>(rng());
    // Make long runs of 0xFF at the end common.
    const int ones = static_cast<int>(rng() % 11);
    for (int j = 16 - ones; j < 16; ++j) b[j] = 0xFF;
    const u128 before = AsInt(b);
    const bool all_ones = Low80(b) == (u128{1} << 80) - 1;
    ASSERT_EQ(ulid_tsid::ulid_increment_random(b), !all_ones);
    ASSERT_EQ(AsInt(b), all_ones ? before : before + 1);
  }
}

TEST(UlidIncrement, AllOnesFailsAndLeavesBytesUnchanged) {
  for (int t : {0x00, 0x12, 0xFF}) {
    std::uint8_t b[16];
    for (int i = 0; i < 6; ++i) b[i] = static_cast<std::uint8_t>(t + i);
    for (int i = 6; i < 16; ++i) b[i] = 0xFF;
    std::uint8_t before[16];
    std::memcpy(before, b, 16);
    EXPECT_FALSE(ulid_tsid::ulid_increment_random(b));
    EXPECT_EQ(Hex(b, 16), Hex(before, 16));
    EXPECT_FALSE(ulid_tsid::ulid_increment_random(b)) << "fails again, still no wrap";
    EXPECT_EQ(Hex(b, 16), Hex(before, 16));
  }
  // One below all ones: succeeds once, then fails.
  std::uint8_t b[16] = {1, 2, 3, 4, 5, 6, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFE};
  EXPECT_TRUE(ulid_tsid::ulid_increment_random(b));
  EXPECT_EQ(Hex(b, 16), "010203040506ffffffffffffffffffff");
  EXPECT_FALSE(ulid_tsid::ulid_increment_random(b));
  EXPECT_EQ(Hex(b, 16), "010203040506ffffffffffffffffffff");
}

// ---------------------------------------------------------------- UlidGenerator

struct Random10 {
  std::uint8_t r[kUlidRandomBytes];
};
Random10 RandomBytes(std::mt19937_64& rng) {
  Random10 x;
  for (auto& c : x.r) c = static_cast<std::uint8_t>(rng());
  return x;
}

struct Tail8 {
  std::uint8_t r[ulid_tsid::kUlidTailBytes];
};
Tail8 TailBytes(std::mt19937_64& rng) {
  Tail8 x;
  for (auto& c : x.r) c = static_cast<std::uint8_t>(rng());
  return x;
}

// The 65,536ths of its millisecond that a Unix-ns clock reading is at, as
// UlidGenerator::next takes it (clock_tick<16> of the floor-split reading).
std::uint16_t Fraction(std::int64_t unix_ns) {
  return static_cast<std::uint16_t>(ulid_tsid::clock_tick<ulid_tsid::kUlidFractionBits>(0, ulid_tsid::split_ns(unix_ns).sub_ms_ns));
}

TEST(UlidGenerator, FirstValueLayout) {
  UlidGenerator g;
  const Tail8 r = {{1, 2, 3, 4, 5, 6, 7, 8}};
  std::uint8_t out[16];
  ASSERT_EQ(g.next({1469918176385, fraction_ns<16>(0xABCD)}, r.r, out), GenerateStatus::kOk);
  EXPECT_EQ(TimeMs(out), 1469918176385u);
  EXPECT_EQ(BigEndian(out + 6, 2), 0xABCDu) << "the clock's fraction of the millisecond";
  EXPECT_EQ(Hex(out + 8, 8), "0102030405060708") << "the tail is the random input";
}

TEST(UlidGenerator, FractionOfAClockReading) {
  EXPECT_EQ(Fraction(1469918176385000000), 0u);
  EXPECT_EQ(Fraction(1469918176385500000), 0x8000u);
  EXPECT_EQ(Fraction(1469918176385999999), 0xFFFFu);
  EXPECT_EQ(Fraction(1469918176385000015), 0u) << "one tick is 15.26 ns";
  EXPECT_EQ(Fraction(1469918176385000016), 1u);
}

// A simulated clock that stands still, steps back, jumps, and moves by less
// than a tick: every value is next_tick(last, clock's tick), strictly increasing.
TEST(UlidGenerator, StrictlyIncreasingUnderASimulatedClock) {
  std::mt19937_64 rng(11);
  UlidGenerator g;
  std::int64_t now_ns = 1700000000000000000;
  std::uint64_t last_high = 0;
  std::uint8_t prev[16] = {};
  bool have_prev = false;
  int still = 0, back = 0, jump = 0;
  for (int n = 0; n < 200000; ++n) {
    switch (rng() % 8) {
      case 0: case 1: case 2: ++still; break;                                                // stands still
      case 3: now_ns -= static_cast<std::int64_t>(rng() % 5000000000); ++back; break;        // backwards
      case 4: now_ns += static_cast<std::int64_t>(rng() % 100000000000); ++jump; break;      // jumps
      default: now_ns += static_cast<std::int64_t>(rng() % 40); break;                       // < 3 ticks
    }
    const Tail8 r = TailBytes(rng);
    std::uint8_t out[16];
    ASSERT_EQ(g.next(split_ns(now_ns), r.r, out), GenerateStatus::kOk);
    ASSERT_EQ(std::memcmp(out + 8, r.r, 8), 0) << "low 8 bytes come from the random input";
    const std::uint64_t candidate =
        static_cast<std::uint64_t>(now_ns / 1000000) << 16 | Fraction(now_ns);
    const std::uint64_t want_high = candidate > last_high ? candidate : last_high + 1;
    ASSERT_EQ(High64(out), want_high) << "n=" << n;
    if (have_prev) ASSERT_GT(std::memcmp(out, prev, 16), 0) << "n=" << n;
    std::memcpy(prev, out, 16);
    have_prev = true;
    last_high = want_high;
  }
  EXPECT_GT(still, 1000);
  EXPECT_GT(back, 1000);
  EXPECT_GT(jump, 1000);
}

TEST(UlidGenerator, BackwardsClockKeepsCountingFromTheLastTick) {
  UlidGenerator g;
  const Tail8 r = {{0, 0, 0, 0, 0, 0, 0, 0}};
  std::uint8_t out[16];
  ASSERT_EQ(g.next({1000, fraction_ns<16>(0x1234)}, r.r, out), GenerateStatus::kOk);
  EXPECT_EQ(High64(out), (std::uint64_t{1000} << 16) | 0x1234);
  ASSERT_EQ(g.next({10, fraction_ns<16>(0xFFFF)}, r.r, out), GenerateStatus::kOk);
  EXPECT_EQ(High64(out), (std::uint64_t{1000} << 16) | 0x1235) << "the timestamp does not go back";
  ASSERT_EQ(g.next({1000, fraction_ns<16>(0x1235)}, r.r, out), GenerateStatus::kOk);
  EXPECT_EQ(High64(out), (std::uint64_t{1000} << 16) | 0x1236) << "a tick already used counts on";
  ASSERT_EQ(g.next({1001, fraction_ns<16>(0x0001)}, r.r, out), GenerateStatus::kOk);
  EXPECT_EQ(High64(out), (std::uint64_t{1001} << 16) | 0x0001) << "the clock's tick once it is ahead";
}

// A burst faster than the clock's ticks moves on by one tick per value; past the
// end of the millisecond's 65,536 ticks it carries into the next millisecond.
TEST(UlidGenerator, BurstCountsOnAndCarriesIntoTheNextMillisecond) {
  UlidGenerator g;
  std::mt19937_64 rng(12);
  std::uint8_t prev[16], out[16];
  Tail8 r = TailBytes(rng);
  ASSERT_EQ(g.next({5000, fraction_ns<16>(0xFFF0)}, r.r, prev), GenerateStatus::kOk);
  for (int n = 0; n < 100; ++n) {
    r = TailBytes(rng);
    ASSERT_EQ(g.next({5000, fraction_ns<16>(0xFFF0)}, r.r, out), GenerateStatus::kOk);
    ASSERT_EQ(High64(out), High64(prev) + 1);
    ASSERT_GT(std::memcmp(out, prev, 16), 0);
    std::memcpy(prev, out, 16);
  }
  EXPECT_EQ(TimeMs(out), 5001u) << "ran ahead into the next millisecond";
}

TEST(UlidGenerator, ClockOutOfRange) {
  UlidGenerator g;
  const Tail8 r = {{1, 2, 3, 4, 5, 6, 7, 8}};
  std::uint8_t out[16];
  std::memset(out, 0x5C, 16);
  for (std::int64_t bad : {std::int64_t{-1}, std::numeric_limits<std::int64_t>::min(),
                           static_cast<std::int64_t>(kMax48BitMs) + 1,
                           std::numeric_limits<std::int64_t>::max()}) {
    EXPECT_EQ(g.next({bad, fraction_ns<16>(7)}, r.r, out), GenerateStatus::kClockOutOfRange) << bad;
    for (int i = 0; i < 16; ++i) ASSERT_EQ(out[i], 0x5C) << "out touched";
  }
  // Nothing was claimed: the next value starts from the clock.
  ASSERT_EQ(g.next({1, fraction_ns<16>(0x0102)}, r.r, out), GenerateStatus::kOk);
  EXPECT_EQ(High64(out), 0x10102u);
  ASSERT_EQ(g.next({static_cast<std::int64_t>(kMax48BitMs), 0}, r.r, out), GenerateStatus::kOk);
  EXPECT_EQ(TimeMs(out), kMax48BitMs);
}

// A reading before 1970 is out of range however close to it (a truncating
// division would have made -0.5 ms millisecond 0), and the fraction of a
// negative reading is computed without shifting a negative number.
TEST(UlidGenerator, NanosecondReadingsAroundBothEnds) {
  UlidGenerator g;
  const Tail8 r = {{1, 2, 3, 4, 5, 6, 7, 8}};
  std::uint8_t out[16];
  for (std::int64_t bad : {std::int64_t{-1}, std::int64_t{-500000}, std::int64_t{-1000000},
                           std::numeric_limits<std::int64_t>::min()}) {
    EXPECT_EQ(g.next(split_ns(bad), r.r, out), GenerateStatus::kClockOutOfRange) << bad;
    EXPECT_LT(Fraction(bad), 0x10000u);
  }
  EXPECT_EQ(Fraction(-1), 0xFFFFu) << "1 ns before a millisecond";
  EXPECT_EQ(Fraction(-500000), 0x8000u);
  ASSERT_EQ(g.next(split_ns(0), r.r, out), GenerateStatus::kOk);
  EXPECT_EQ(High64(out), 1u) << "ms 0 (a fresh sequence never hands out tick 0)";
  ASSERT_EQ(g.next(split_ns(1000000 + 500000), r.r, out), GenerateStatus::kOk);
  EXPECT_EQ(High64(out), 0x18000u) << "ms 1, half way through it";
  // The generator's whole range fits an int64 of nanoseconds up to 2262 only;
  // the clock cannot read past that, so a reading's range ends there.
  ASSERT_EQ(g.next(split_ns(std::numeric_limits<std::int64_t>::max()), r.r, out), GenerateStatus::kOk);
  EXPECT_EQ(TimeMs(out), static_cast<std::uint64_t>(std::numeric_limits<std::int64_t>::max() / 1000000));
}

// At the last millisecond of the layout the ticks run out: kExhausted, and from
// then on only kExhausted, never a value at or below one already returned.
TEST(UlidGenerator, ExhaustionAtTheEndOfTimeIsFinal) {
  UlidGenerator g;
  const Tail8 r = {{0, 0, 0, 0, 0, 0, 0, 0}};
  const auto end = static_cast<std::int64_t>(kMax48BitMs);
  std::uint8_t out[16];
  std::uint64_t last = 0;
  int ok = 0;
  GenerateStatus st;
  while ((st = g.next({end, fraction_ns<16>(0x7FFF)}, r.r, out)) == GenerateStatus::kOk) {
    ASSERT_TRUE(ok == 0 || High64(out) > last);
    last = High64(out);
    ASSERT_LT(++ok, 40000) << "never exhausted";
  }
  EXPECT_EQ(st, GenerateStatus::kExhausted);
  EXPECT_EQ(ok, 0x8001) << "0x7FFF..0xFFFF";
  EXPECT_EQ(last, ~std::uint64_t{0});
  for (int n = 0; n < 3; ++n) {
    std::memset(out, 0, 16);
    EXPECT_EQ(g.next({end, 0}, r.r, out), GenerateStatus::kExhausted) << "call " << n;
  }
}

TEST(UlidGenerator, SharedTicksInterleaveWithoutDuplicates) {
  std::atomic<std::uint64_t> shared{0};
  UlidGenerator a, b;
  a.ticks().share(&shared);
  b.ticks().share(&shared);
  EXPECT_TRUE(a.ticks().shared());
  std::mt19937_64 rng(13);
  std::uint64_t prev = 0;
  for (int n = 0; n < 50000; ++n) {
    UlidGenerator& g = (rng() & 1) ? a : b;
    const Tail8 r = TailBytes(rng);
    std::uint8_t out[16];
    ASSERT_EQ(g.next({1000 + n / 10 - static_cast<std::int64_t>(rng() % 3),
                      fraction_ns<16>(static_cast<std::uint16_t>(rng()))}, r.r, out),
              GenerateStatus::kOk);
    ASSERT_GT(High64(out), prev) << "n=" << n;
    prev = High64(out);
  }
}

// Regression (found by fuzz_ulid_generator in an earlier design): a zero
// candidate at the epoch must not be handed out again and again.
TEST(UlidGenerator, ZeroCandidateAtEpochNeverRepeats) {
  UlidGenerator g;
  const Tail8 zero = {{0, 0, 0, 0, 0, 0, 0, 0}};
  std::uint8_t prev[16], out[16];
  ASSERT_EQ(g.next({0, 0}, zero.r, prev), GenerateStatus::kOk);
  for (int n = 0; n < 1000; ++n) {
    ASSERT_EQ(g.next({0, 0}, zero.r, out), GenerateStatus::kOk);
    ASSERT_GT(std::memcmp(out, prev, 16), 0) << "n=" << n;
    std::memcpy(prev, out, 16);
  }
}

// ---------------------------------------------------------------- UlidMonotonicGenerator

TEST(UlidMonotonic, NewMillisecondIsFreshRandom) {
  UlidMonotonicGenerator g;
  std::mt19937_64 rng(14);
  for (std::int64_t ms : {std::int64_t{0}, std::int64_t{1}, std::int64_t{1700000000000},
                          std::int64_t{1700000000001}, static_cast<std::int64_t>(kMax48BitMs)}) {
    const Random10 r = RandomBytes(rng);
    std::uint8_t out[16];
    ASSERT_EQ(g.next({ms, 0}, r.r, out), GenerateStatus::kOk);
    EXPECT_EQ(TimeMs(out), static_cast<std::uint64_t>(ms));
    EXPECT_EQ(std::memcmp(out + 6, r.r, 10), 0) << "80 random bits taken as given";
  }
}

TEST(UlidMonotonic, SameMillisecondIsPreviousPlusOne) {
  UlidMonotonicGenerator g;
  std::mt19937_64 rng(15);
  std::uint8_t prev[16], out[16];
  Random10 r = RandomBytes(rng);
  ASSERT_EQ(g.next({42, 0}, r.r, prev), GenerateStatus::kOk);
  for (int n = 0; n < 10000; ++n) {
    r = RandomBytes(rng);  // ignored within the millisecond
    ASSERT_EQ(g.next({42, 0}, r.r, out), GenerateStatus::kOk);
    ASSERT_EQ(AsInt(out), AsInt(prev) + 1) << "n=" << n;
    std::memcpy(prev, out, 16);
  }
}

TEST(UlidMonotonic, ClockBackwardsStillPlusOne) {
  UlidMonotonicGenerator g;
  const Random10 r = {{0, 0, 0, 0, 0, 0, 0, 0, 0xFF, 0xFF}};
  std::uint8_t a[16], b[16], c[16];
  ASSERT_EQ(g.next({1000, 0}, r.r, a), GenerateStatus::kOk);
  ASSERT_EQ(g.next({999, 0}, r.r, b), GenerateStatus::kOk);
  EXPECT_EQ(AsInt(b), AsInt(a) + 1);
  EXPECT_EQ(TimeMs(b), 1000u) << "the timestamp does not go back";
  EXPECT_EQ(Hex(b + 6, 10), "00000000000000010000") << "carry across bytes";
  ASSERT_EQ(g.next({0, 0}, r.r, c), GenerateStatus::kOk);
  EXPECT_EQ(AsInt(c), AsInt(b) + 1);
}

TEST(UlidMonotonic, OverflowIsExhaustedAndStaysExhausted) {
  UlidMonotonicGenerator g;
  Random10 r;
  std::memset(r.r, 0xFF, 10);
  r.r[9] = 0xFE;
  std::uint8_t out[16];
  ASSERT_EQ(g.next({7, 0}, r.r, out), GenerateStatus::kOk);
  ASSERT_EQ(g.next({7, 0}, r.r, out), GenerateStatus::kOk);  // ...FF: the last one of ms 7
  EXPECT_EQ(Low80(out), (u128{1} << 80) - 1);
  std::uint8_t untouched[16];
  std::memset(untouched, 0x3C, 16);
  std::memcpy(out, untouched, 16);
  for (int n = 0; n < 5; ++n) {
    EXPECT_EQ(g.next({7, 0}, r.r, out), GenerateStatus::kExhausted) << "same ms, call " << n;
    EXPECT_EQ(g.next({6, 0}, r.r, out), GenerateStatus::kExhausted) << "earlier ms, call " << n;
    EXPECT_EQ(g.next({0, 0}, r.r, out), GenerateStatus::kExhausted) << "ms 0, call " << n;
  }
  EXPECT_EQ(std::memcmp(out, untouched, 16), 0) << "out touched while exhausted";
  // A later millisecond starts afresh.
  std::memset(r.r, 0, 10);
  ASSERT_EQ(g.next({8, 0}, r.r, out), GenerateStatus::kOk);
  EXPECT_EQ(TimeMs(out), 8u);
  EXPECT_EQ(Low80(out), 0u);
}

TEST(UlidMonotonic, FirstValueAllOnesThenExhausted) {
  UlidMonotonicGenerator g;
  Random10 r;
  std::memset(r.r, 0xFF, 10);
  std::uint8_t out[16];
  ASSERT_EQ(g.next({100, 0}, r.r, out), GenerateStatus::kOk);
  EXPECT_EQ(g.next({100, 0}, r.r, out), GenerateStatus::kExhausted);
  EXPECT_EQ(g.next({100, 0}, r.r, out), GenerateStatus::kExhausted);
}

TEST(UlidMonotonic, ClockOutOfRange) {
  UlidMonotonicGenerator g;
  const Random10 r = {{1, 2, 3, 4, 5, 6, 7, 8, 9, 10}};
  std::uint8_t out[16];
  std::memset(out, 0x5C, 16);
  EXPECT_EQ(g.next({-1, 0}, r.r, out), GenerateStatus::kClockOutOfRange);
  EXPECT_EQ(g.next({static_cast<std::int64_t>(kMax48BitMs) + 1, 0}, r.r, out),
            GenerateStatus::kClockOutOfRange);
  EXPECT_EQ(g.next({std::numeric_limits<std::int64_t>::min(), 0}, r.r, out),
            GenerateStatus::kClockOutOfRange);
  for (int i = 0; i < 16; ++i) ASSERT_EQ(out[i], 0x5C);
  // Also once it has state: out of range does not count as "backwards".
  ASSERT_EQ(g.next({50, 0}, r.r, out), GenerateStatus::kOk);
  EXPECT_EQ(g.next({-5, 0}, r.r, out), GenerateStatus::kClockOutOfRange);
  EXPECT_EQ(TimeMs(out), 50u);
}

TEST(UlidMonotonic, StrictlyIncreasingUnderASimulatedClock) {
  UlidMonotonicGenerator g;
  std::mt19937_64 rng(16);
  std::int64_t now = 1600000000000;
  std::uint8_t prev[16] = {}, out[16];
  std::uint64_t max_ms = 0;
  for (int n = 0; n < 200000; ++n) {
    switch (rng() % 6) {
      case 0: case 1: break;
      case 2: now -= static_cast<std::int64_t>(rng() % 1000); break;
      case 3: now += static_cast<std::int64_t>(rng() % 100000); break;
      default: now += 1;
    }
    const Random10 r = RandomBytes(rng);
    ASSERT_EQ(g.next({now, 0}, r.r, out), GenerateStatus::kOk);
    if (n > 0) ASSERT_GT(AsInt(out), AsInt(prev));
    const auto ms = static_cast<std::uint64_t>(now);
    if (ms > max_ms) {
      ASSERT_EQ(TimeMs(out), ms);
      ASSERT_EQ(std::memcmp(out + 6, r.r, 10), 0);
      max_ms = ms;
    } else {
      ASSERT_EQ(AsInt(out), AsInt(prev) + 1);
    }
    std::memcpy(prev, out, 16);
  }
}

}  // namespace

// needs_random() says exactly when next() reads its random bytes: whenever it
// says no, next() gets a null pointer, which it must not touch.
TEST(UlidMonotonic, NeedsRandomOnlyForANewMillisecond) {
  std::mt19937_64 rng(21);
  UlidMonotonicGenerator g;
  std::int64_t now = 1700000000000;
  int drawn = 0, skipped = 0;
  for (int n = 0; n < 100000; ++n) {
    switch (rng() % 4) {  // forward half the time, back or still otherwise
      case 0: case 1: now += 1; break;
      case 2: now -= static_cast<std::int64_t>(rng() % 3); break;
      default: break;
    }
    const Random10 r = RandomBytes(rng);
    std::uint8_t out[16];
    const bool needs = g.needs_random({now, 0});
    ASSERT_EQ(g.next({now, 0}, needs ? r.r : nullptr, out), GenerateStatus::kOk);
    needs ? ++drawn : ++skipped;
  }
  EXPECT_GT(drawn, 10000);
  EXPECT_GT(skipped, 30000);
}

// ---------------------------------------------------------------- GuardedUlidMonotonic

namespace {

// The test's Lock: a spinlock on an atomic flag (the extension's is Postgres's).
class TestSpinLock {
 public:
  void lock() noexcept {
    while (held_.test_and_set(std::memory_order_acquire)) {
    }
  }
  void unlock() noexcept { held_.clear(std::memory_order_release); }

 private:
  std::atomic_flag held_ = ATOMIC_FLAG_INIT;
};

using GuardedMonotonic = ulid_tsid::GuardedUlidMonotonic<TestSpinLock>;

}  // namespace

// Single-threaded it is the generator it guards: the same values (floors and
// resets included), and the millisecond of each value reported.
TEST(GuardedUlidMonotonic, SameValuesAsTheGeneratorItGuards) {
  GuardedMonotonic guarded;
  UlidMonotonicGenerator plain;
  std::mt19937_64 rng(31);
  std::int64_t now = 1700000000000;
  for (int n = 0; n < 20000; ++n) {
    switch (rng() % 5) {
      case 0: now += 1; break;
      case 1: now -= static_cast<std::int64_t>(rng() % 3); break;
      case 2:
        if (rng() % 100 == 0) {
          const std::int64_t floor = now + static_cast<std::int64_t>(rng() % 5);
          guarded.start_above_ms(floor);
          plain.start_above_ms(floor);
        } else if (rng() % 100 == 0) {
          guarded.reset_above_ms(now - 10);
          plain.reset_above_ms(now - 10);
        }
        break;
      default: break;
    }
    const Random10 r = RandomBytes(rng);
    std::uint8_t a[16], b[16];
    std::int64_t value_ms = -2;
    ASSERT_EQ(guarded.next({now, 0}, r.r, a, &value_ms), plain.next({now, 0}, r.r, b));
    ASSERT_EQ(std::memcmp(a, b, 16), 0) << "n=" << n;
    ASSERT_EQ(static_cast<std::uint64_t>(value_ms), TimeMs(a));
  }
  GuardedMonotonic exhausted;
  Random10 ones;
  std::memset(ones.r, 0xFF, 10);
  std::uint8_t out[16];
  std::int64_t value_ms = -2;
  ASSERT_EQ(exhausted.next({5, 0}, ones.r, out, &value_ms), GenerateStatus::kOk);
  EXPECT_EQ(exhausted.next({5, 0}, ones.r, out, &value_ms), GenerateStatus::kExhausted);
  EXPECT_EQ(exhausted.next({-1, 0}, ones.r, out, &value_ms), GenerateStatus::kClockOutOfRange);
}

// One guarded generator shared by several threads with clocks that disagree by
// a few milliseconds (as backends' readings interleave): every value is
// distinct, and within each millisecond the values are first, first+1, ...,
// with no gap: one sequence, whatever the interleaving. (Independent
// generators, one per thread, would each start at their own random value.)
TEST(GuardedUlidMonotonic, ThreadsShareOneContiguousSequence) {
  GuardedMonotonic guarded;
  constexpr int kThreads = 6;
  const int per_thread = Iterations(40000);
  std::vector<std::vector<Ulid>> made(kThreads);
  std::atomic<int> failures{0};
  std::atomic<bool> go{false};
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t) {
    threads.emplace_back([&, t] {
      std::mt19937_64 rng(100 + t);
      made[t].resize(per_thread);
      while (!go.load(std::memory_order_acquire)) {
      }
      for (int n = 0; n < per_thread; ++n) {
        // A clock that moves on every 500 values, read a little late by some threads.
        const std::int64_t now = 1700000000000 + n / 500 - static_cast<std::int64_t>(rng() % 3);
        const Random10 r = RandomBytes(rng);
        std::int64_t value_ms = -1;
        if (guarded.next({now, 0}, r.r, made[t][n].b, &value_ms) != GenerateStatus::kOk ||
            static_cast<std::uint64_t>(value_ms) != TimeMs(made[t][n].b)) {
          failures.fetch_add(1);
        }
      }
    });
  }
  go.store(true, std::memory_order_release);
  for (std::thread& th : threads) th.join();
  ASSERT_EQ(failures.load(), 0);
  std::vector<u128> all;
  for (const auto& v : made) {
    for (const Ulid& u : v) all.push_back(AsInt(u.b));
    for (std::size_t i = 1; i < v.size(); ++i) {
      ASSERT_GT(AsInt(v[i].b), AsInt(v[i - 1].b)) << "each thread's own values increase";
    }
  }
  std::sort(all.begin(), all.end());
  ASSERT_EQ(std::adjacent_find(all.begin(), all.end()), all.end()) << "a value repeated";
  long gaps = 0, neighbours = 0;
  for (std::size_t i = 1; i < all.size(); ++i) {
    if ((all[i] >> 80) != (all[i - 1] >> 80)) continue;
    ++neighbours;
    if (all[i] != all[i - 1] + 1) ++gaps;
  }
  EXPECT_EQ(gaps, 0) << "among " << neighbours << " same-millisecond neighbours";
  EXPECT_GT(neighbours, static_cast<long>(all.size()) / 2);
}
