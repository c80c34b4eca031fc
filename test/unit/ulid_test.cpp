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
#include <vector>

#include "ulid.hpp"
#include "ulid_generator.hpp"

namespace {

using ulid_tsid::GenerateStatus;
using ulid_tsid::kUlidMaxMs;
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

  ulid_tsid::ulid_bound(kUlidMaxMs, true, b);
  for (int i = 0; i < 16; ++i) EXPECT_EQ(b[i], 0xFF);
  ulid_tsid::ulid_bound(0, false, b);
  for (int i = 0; i < 16; ++i) EXPECT_EQ(b[i], 0);
}

TEST(UlidLayout, BoundsBracketEveryValueOfTheirMillisecond) {
  std::mt19937_64 rng(5);
  for (int n = 0; n < 1000; ++n) {
    const std::uint64_t ms = rng() & kUlidMaxMs;
    std::uint8_t lo[16], hi[16], v[16];
    ulid_tsid::ulid_bound(ms, false, lo);
    ulid_tsid::ulid_bound(ms, true, hi);
    ulid_tsid::ulid_store((ms << 16) | (rng() & 0xFFFF), rng(), v);
    EXPECT_LE(std::memcmp(lo, v, 16), 0);
    EXPECT_GE(std::memcmp(hi, v, 16), 0);
    if (ms < kUlidMaxMs) {
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

TEST(UlidGenerator, FirstValueLayout) {
  UlidGenerator g;
  const Random10 r = {{0xAB, 0xCD, 1, 2, 3, 4, 5, 6, 7, 8}};
  std::uint8_t out[16];
  ASSERT_EQ(g.next(1469918176385, r.r, out), GenerateStatus::kOk);
  EXPECT_EQ(TimeMs(out), 1469918176385ULL);
  EXPECT_EQ(BigEndian(out + 6, 2), 0x2BCDu) << "15-bit sequence start from random[0..1]";
  EXPECT_EQ(Hex(out + 8, 8), "0102030405060708") << "low 8 bytes are random[2..9]";
}

// The clock stands still, steps backwards and jumps forward; every value is
// larger than the one before, the low 8 bytes are the random input, and the
// high 64 bits follow next_tick exactly.
TEST(UlidGenerator, StrictlyIncreasingUnderASimulatedClock) {
  std::mt19937_64 rng(11);
  UlidGenerator g;
  std::int64_t now = 1700000000000;
  std::uint64_t last_high = 0;
  std::uint8_t prev[16] = {};
  bool have_prev = false;
  int still = 0, back = 0, jump = 0;
  for (int n = 0; n < 200000; ++n) {
    switch (rng() % 8) {
      case 0: case 1: case 2: ++still; break;                                   // stands still
      case 3: now -= static_cast<std::int64_t>(rng() % 5000); ++back; break;    // backwards
      case 4: now += static_cast<std::int64_t>(rng() % 100000); ++jump; break;  // jumps
      default: now += 1; break;
    }
    const Random10 r = RandomBytes(rng);
    std::uint8_t out[16];
    ASSERT_EQ(g.next(now, r.r, out), GenerateStatus::kOk);
    ASSERT_EQ(std::memcmp(out + 8, r.r + 2, 8), 0) << "low 8 bytes come from the random input";
    const std::uint64_t candidate =
        (static_cast<std::uint64_t>(now) << 16) | (((r.r[0] << 8) | r.r[1]) & 0x7FFF);
    // A later millisecond starts at the candidate, otherwise the sequence counts on.
    const std::uint64_t want_high = (candidate >> 16) > (last_high >> 16) ? candidate : last_high + 1;
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

TEST(UlidGenerator, NewMillisecondTakesClockAndRandomSequenceStart) {
  UlidGenerator g;
  std::uint8_t out[16];
  Random10 r = {{0xFF, 0xFF, 0, 0, 0, 0, 0, 0, 0, 0}};
  ASSERT_EQ(g.next(1000, r.r, out), GenerateStatus::kOk);
  EXPECT_EQ(TimeMs(out), 1000u);
  EXPECT_EQ(BigEndian(out + 6, 2), 0x7FFFu) << "sequence start masked to 15 bits";
  // Same ms: the tick moves on by one whatever the random bytes say.
  r.r[0] = 0;
  r.r[1] = 0;
  ASSERT_EQ(g.next(1000, r.r, out), GenerateStatus::kOk);
  EXPECT_EQ(TimeMs(out), 1000u);
  EXPECT_EQ(BigEndian(out + 6, 2), 0x8000u);
  // Backwards: still the previous tick plus one, the timestamp does not go back.
  ASSERT_EQ(g.next(10, r.r, out), GenerateStatus::kOk);
  EXPECT_EQ(TimeMs(out), 1000u);
  EXPECT_EQ(BigEndian(out + 6, 2), 0x8001u);
  // Forward: the clock's millisecond with a fresh sequence start.
  r.r[0] = 0x12;
  r.r[1] = 0x34;
  ASSERT_EQ(g.next(1001, r.r, out), GenerateStatus::kOk);
  EXPECT_EQ(TimeMs(out), 1001u);
  EXPECT_EQ(BigEndian(out + 6, 2), 0x1234u);
}

TEST(UlidGenerator, BurstInOneMillisecondRunsAheadButStaysOrdered) {
  UlidGenerator g;
  std::mt19937_64 rng(12);
  std::uint8_t prev[16], out[16];
  Random10 r = RandomBytes(rng);
  ASSERT_EQ(g.next(5000, r.r, prev), GenerateStatus::kOk);
  for (int n = 0; n < 100000; ++n) {
    r = RandomBytes(rng);
    ASSERT_EQ(g.next(5000, r.r, out), GenerateStatus::kOk);
    // Within one millisecond the sequence counts on by one, whatever the draw.
    ASSERT_EQ(High64(out), High64(prev) + 1);
    ASSERT_GT(std::memcmp(out, prev, 16), 0);
    std::memcpy(prev, out, 16);
  }
  // 100,001 ticks from a start below 32,768 overflow the 16-bit sequence twice at least.
  EXPECT_GE(TimeMs(out), 5001u);
}

TEST(UlidGenerator, ClockOutOfRange) {
  UlidGenerator g;
  const Random10 r = {{1, 2, 3, 4, 5, 6, 7, 8, 9, 10}};
  std::uint8_t out[16];
  std::memset(out, 0x5C, 16);
  for (std::int64_t bad : {std::int64_t{-1}, std::numeric_limits<std::int64_t>::min(),
                           static_cast<std::int64_t>(kUlidMaxMs) + 1,
                           std::numeric_limits<std::int64_t>::max()}) {
    EXPECT_EQ(g.next(bad, r.r, out), GenerateStatus::kClockOutOfRange) << bad;
    for (int i = 0; i < 16; ++i) ASSERT_EQ(out[i], 0x5C) << "out touched";
  }
  // Nothing was claimed: the next value starts from the clock.
  ASSERT_EQ(g.next(1, r.r, out), GenerateStatus::kOk);
  EXPECT_EQ(High64(out), 0x10102u);
  ASSERT_EQ(g.next(static_cast<std::int64_t>(kUlidMaxMs), r.r, out), GenerateStatus::kOk);
  EXPECT_EQ(TimeMs(out), kUlidMaxMs);
}

// At the last millisecond of the layout the sequence runs out: kExhausted, and
// from then on only kExhausted, never a value at or below one already returned.
TEST(UlidGenerator, ExhaustionAtTheEndOfTimeIsFinal) {
  UlidGenerator g;
  const Random10 r = {{0x7F, 0xFF, 0, 0, 0, 0, 0, 0, 0, 0}};
  const auto end = static_cast<std::int64_t>(kUlidMaxMs);
  std::uint8_t out[16];
  std::uint64_t last = 0;
  int ok = 0;
  GenerateStatus st;
  while ((st = g.next(end, r.r, out)) == GenerateStatus::kOk) {
    ASSERT_TRUE(ok == 0 || High64(out) > last);
    last = High64(out);
    ASSERT_LT(++ok, 40000) << "never exhausted";
  }
  EXPECT_EQ(st, GenerateStatus::kExhausted);
  EXPECT_EQ(ok, 0x8001) << "0x7FFF..0xFFFF";
  EXPECT_EQ(last, ~std::uint64_t{0});
  for (int n = 0; n < 3; ++n) {
    std::memset(out, 0, 16);
    const GenerateStatus again = g.next(end, r.r, out);
    EXPECT_EQ(again, GenerateStatus::kExhausted)
        << "call " << n << " after exhaustion returned high=" << std::hex << High64(out)
        << ", not above the last value " << last;
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
    const Random10 r = RandomBytes(rng);
    std::uint8_t out[16];
    // Both generators see the same, sometimes stalled, sometimes skewed clock.
    ASSERT_EQ(g.next(1000 + n / 10 - static_cast<std::int64_t>(rng() % 3), r.r, out),
              GenerateStatus::kOk);
    ASSERT_GT(High64(out), prev);
    prev = High64(out);
  }
  EXPECT_EQ(shared.load(), prev);
}

// ---------------------------------------------------------------- UlidMonotonicGenerator

TEST(UlidMonotonic, NewMillisecondIsFreshRandom) {
  UlidMonotonicGenerator g;
  std::mt19937_64 rng(14);
  for (std::int64_t ms : {std::int64_t{0}, std::int64_t{1}, std::int64_t{1700000000000},
                          std::int64_t{1700000000001}, static_cast<std::int64_t>(kUlidMaxMs)}) {
    const Random10 r = RandomBytes(rng);
    std::uint8_t out[16];
    ASSERT_EQ(g.next(ms, r.r, out), GenerateStatus::kOk);
    EXPECT_EQ(TimeMs(out), static_cast<std::uint64_t>(ms));
    EXPECT_EQ(std::memcmp(out + 6, r.r, 10), 0) << "80 random bits taken as given";
  }
}

TEST(UlidMonotonic, SameMillisecondIsPreviousPlusOne) {
  UlidMonotonicGenerator g;
  std::mt19937_64 rng(15);
  std::uint8_t prev[16], out[16];
  Random10 r = RandomBytes(rng);
  ASSERT_EQ(g.next(42, r.r, prev), GenerateStatus::kOk);
  for (int n = 0; n < 10000; ++n) {
    r = RandomBytes(rng);  // ignored within the millisecond
    ASSERT_EQ(g.next(42, r.r, out), GenerateStatus::kOk);
    ASSERT_EQ(AsInt(out), AsInt(prev) + 1) << "n=" << n;
    std::memcpy(prev, out, 16);
  }
}

TEST(UlidMonotonic, ClockBackwardsStillPlusOne) {
  UlidMonotonicGenerator g;
  const Random10 r = {{0, 0, 0, 0, 0, 0, 0, 0, 0xFF, 0xFF}};
  std::uint8_t a[16], b[16], c[16];
  ASSERT_EQ(g.next(1000, r.r, a), GenerateStatus::kOk);
  ASSERT_EQ(g.next(999, r.r, b), GenerateStatus::kOk);
  EXPECT_EQ(AsInt(b), AsInt(a) + 1);
  EXPECT_EQ(TimeMs(b), 1000u) << "the timestamp does not go back";
  EXPECT_EQ(Hex(b + 6, 10), "00000000000000010000") << "carry across bytes";
  ASSERT_EQ(g.next(0, r.r, c), GenerateStatus::kOk);
  EXPECT_EQ(AsInt(c), AsInt(b) + 1);
}

TEST(UlidMonotonic, OverflowIsExhaustedAndStaysExhausted) {
  UlidMonotonicGenerator g;
  Random10 r;
  std::memset(r.r, 0xFF, 10);
  r.r[9] = 0xFE;
  std::uint8_t out[16];
  ASSERT_EQ(g.next(7, r.r, out), GenerateStatus::kOk);
  ASSERT_EQ(g.next(7, r.r, out), GenerateStatus::kOk);  // ...FF: the last one of ms 7
  EXPECT_EQ(Low80(out), (u128{1} << 80) - 1);
  std::uint8_t untouched[16];
  std::memset(untouched, 0x3C, 16);
  std::memcpy(out, untouched, 16);
  for (int n = 0; n < 5; ++n) {
    EXPECT_EQ(g.next(7, r.r, out), GenerateStatus::kExhausted) << "same ms, call " << n;
    EXPECT_EQ(g.next(6, r.r, out), GenerateStatus::kExhausted) << "earlier ms, call " << n;
    EXPECT_EQ(g.next(0, r.r, out), GenerateStatus::kExhausted) << "ms 0, call " << n;
  }
  EXPECT_EQ(std::memcmp(out, untouched, 16), 0) << "out touched while exhausted";
  // A later millisecond starts afresh.
  std::memset(r.r, 0, 10);
  ASSERT_EQ(g.next(8, r.r, out), GenerateStatus::kOk);
  EXPECT_EQ(TimeMs(out), 8u);
  EXPECT_EQ(Low80(out), 0u);
}

TEST(UlidMonotonic, FirstValueAllOnesThenExhausted) {
  UlidMonotonicGenerator g;
  Random10 r;
  std::memset(r.r, 0xFF, 10);
  std::uint8_t out[16];
  ASSERT_EQ(g.next(100, r.r, out), GenerateStatus::kOk);
  EXPECT_EQ(g.next(100, r.r, out), GenerateStatus::kExhausted);
  EXPECT_EQ(g.next(100, r.r, out), GenerateStatus::kExhausted);
}

TEST(UlidMonotonic, ClockOutOfRange) {
  UlidMonotonicGenerator g;
  const Random10 r = {{1, 2, 3, 4, 5, 6, 7, 8, 9, 10}};
  std::uint8_t out[16];
  std::memset(out, 0x5C, 16);
  EXPECT_EQ(g.next(-1, r.r, out), GenerateStatus::kClockOutOfRange);
  EXPECT_EQ(g.next(static_cast<std::int64_t>(kUlidMaxMs) + 1, r.r, out),
            GenerateStatus::kClockOutOfRange);
  EXPECT_EQ(g.next(std::numeric_limits<std::int64_t>::min(), r.r, out),
            GenerateStatus::kClockOutOfRange);
  for (int i = 0; i < 16; ++i) ASSERT_EQ(out[i], 0x5C);
  // Also once it has state: out of range does not count as "backwards".
  ASSERT_EQ(g.next(50, r.r, out), GenerateStatus::kOk);
  EXPECT_EQ(g.next(-5, r.r, out), GenerateStatus::kClockOutOfRange);
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
    ASSERT_EQ(g.next(now, r.r, out), GenerateStatus::kOk);
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

// Regression (found by fuzz_ulid_generator): at ms 0 with a zero sequence start
// the candidate is 0, the same as "nothing claimed"; it must not be handed out
// again and again.
TEST(UlidGenerator, ZeroCandidateAtEpochNeverRepeats) {
  UlidGenerator g;
  const Random10 zero = {{0, 0, 0, 0, 0, 0, 0, 0, 0, 0}};
  std::uint8_t prev[16], out[16];
  ASSERT_EQ(g.next(0, zero.r, prev), GenerateStatus::kOk);
  for (int n = 0; n < 1000; ++n) {
    ASSERT_EQ(g.next(0, zero.r, out), GenerateStatus::kOk);
    ASSERT_GT(std::memcmp(out, prev, 16), 0) << "n=" << n;
    std::memcpy(prev, out, 16);
  }
}
