// UUID version 7 (uuidv7.hpp): tick arithmetic, byte layout against RFC 9562's
// test vector, bounds, and Uuidv7Generator under a simulated clock.
#include <gtest/gtest.h>

#include <atomic>
#include <cstdint>
#include <cstring>
#include <limits>
#include <random>
#include <string>

#include "uuidv7.hpp"

namespace {

using ulid_tsid::GenerateStatus;
using ulid_tsid::split_ns;
using ulid_tsid::uuidv7_tick;
using ulid_tsid::Uuidv7Generator;

// A Unix-ns clock reading as a UUIDv7 tick (48-bit ms, 12-bit fraction).
std::uint64_t Tick(std::int64_t unix_ns) {
  const ulid_tsid::ClockMs clock = ulid_tsid::split_ns(unix_ns);
  return ulid_tsid::clock_tick<12>(static_cast<std::uint64_t>(clock.ms), clock.sub_ms_ns);
}

std::string Hex(const std::uint8_t* b, int n) {
  static const char* d = "0123456789abcdef";
  std::string s;
  for (int i = 0; i < n; ++i) { s += d[b[i] >> 4]; s += d[b[i] & 15]; }
  return s;
}

TEST(Uuidv7, Rfc9562TestVector) {
  // RFC 9562 appendix A.6: 017F22E2-79B0-7CC3-98C4-DC0C0C07398F, 2022-02-22 19:22:22 UTC.
  const std::uint64_t tick = (std::uint64_t{0x017F22E279B0} << 12) | 0xCC3;
  const std::uint8_t random[8] = {0x18, 0xC4, 0xDC, 0x0C, 0x0C, 0x07, 0x39, 0x8F};  // variant forced
  std::uint8_t out[16];
  ulid_tsid::uuidv7_store(tick, random, out);
  EXPECT_EQ(Hex(out, 16), "017f22e279b07cc398c4dc0c0c07398f");
}

TEST(Uuidv7, VersionAndVariantAlwaysSet) {
  std::mt19937_64 rng(31);
  for (int n = 0; n < 10000; ++n) {
    std::uint8_t random[8], out[16];
    for (auto& b : random) b = static_cast<std::uint8_t>(rng());
    const std::uint64_t tick = rng() >> 4;  // 48 + 12 bits
    ulid_tsid::uuidv7_store(tick, random, out);
    ASSERT_EQ(out[6] >> 4, 7);
    ASSERT_EQ(out[8] >> 6, 2);
    ASSERT_EQ(std::memcmp(out + 9, random + 1, 7), 0);
    ASSERT_EQ(out[8] & 0x3F, random[0] & 0x3F);
    std::uint64_t ms = 0;
    for (int i = 0; i < 6; ++i) ms = ms << 8 | out[i];
    ASSERT_EQ(ms, tick >> 12);
    ASSERT_EQ(((out[6] & 0x0Fu) << 8) | out[7], tick & 0xFFF);
  }
}

TEST(Uuidv7, TickFromNanoseconds) {
  EXPECT_EQ(Tick(0), 0u);
  EXPECT_EQ(Tick(999999), 4095u);
  EXPECT_EQ(Tick(1000000), 1u << 12);
  EXPECT_EQ(Tick(1000000 + 500000), (1u << 12) | 2048);
  EXPECT_EQ(Tick(244), 0u);  // 244 ns < 1/4096 ms (244.14 ns)
  EXPECT_EQ(Tick(245), 1u);
  EXPECT_EQ(Tick(1645557742000000000), std::uint64_t{1645557742000} << 12);
  EXPECT_EQ(ulid_tsid::clock_tick<12>(std::uint64_t{1645557742000}, 999999u), std::uint64_t{1645557742000} << 12 | 4095);
}

// A reading before 1970 is out of range, never folded onto millisecond 0 (a
// truncating division would put -0.5 ms there), and nothing shifts a negative
// number on the way (UBSan would stop the sanitizer run).
TEST(Uuidv7Generator, ClockJustBefore1970IsOutOfRange) {
  Uuidv7Generator g;
  const std::uint8_t random[8] = {};
  std::uint8_t out[16];
  std::memset(out, 0x5C, 16);
  for (std::int64_t ns : {std::int64_t{-1}, std::int64_t{-500000}, std::int64_t{-999999}, std::int64_t{-1000000},
                          std::int64_t{-1000001}}) {
    EXPECT_EQ(g.next(split_ns(ns), random, out), GenerateStatus::kClockOutOfRange) << ns;
    for (int i = 0; i < 16; ++i) ASSERT_EQ(out[i], 0x5C) << "out touched";
  }
  ASSERT_EQ(g.next(split_ns(0), random, out), GenerateStatus::kOk);
  EXPECT_EQ(uuidv7_tick(out), 1u) << "ms 0 (a fresh sequence never hands out tick 0)";
  ASSERT_EQ(g.next(split_ns(-1), random, out), GenerateStatus::kClockOutOfRange) << "and after a good reading";
  ASSERT_EQ(g.next(split_ns(1), random, out), GenerateStatus::kOk);
  EXPECT_EQ(uuidv7_tick(out), 2u) << "the state was left as it was";
  ASSERT_EQ(g.next(split_ns(5000000), random, out), GenerateStatus::kOk);
  EXPECT_EQ(uuidv7_tick(out), std::uint64_t{5} << 12);
}

// Ticks of every era, 1970 to the last millisecond of year 10889 (past 2262,
// where nanoseconds since 1970 no longer fit 64 bits), come back unchanged.
TEST(Uuidv7, TickTimeRoundTrip) {
  for (std::uint64_t ms : {std::uint64_t{0}, std::uint64_t{1}, std::uint64_t{1645557742000},
                           std::uint64_t{9000000000000}, std::uint64_t{9223372036854},  // 2262-04-11
                           std::uint64_t{9223372036855}, std::uint64_t{11000000000000},  // 2318
                           ulid_tsid::kMax48BitMs}) {
    for (std::uint64_t f = 0; f < 4096; ++f) {
      const std::uint64_t tick = ms << 12 | f;
      const ulid_tsid::ClockMs time = ulid_tsid::clock_tick_time<12>(tick);
      ASSERT_EQ(time.ms, static_cast<std::int64_t>(ms));
      ASSERT_LT(time.sub_ms_ns, 1000000u);
      ASSERT_EQ(ulid_tsid::clock_tick<12>(ms, time.sub_ms_ns), tick) << "ms " << ms << " fraction " << f;
    }
  }
  // Ticks are monotonic in the clock.
  std::mt19937_64 rng(32);
  std::int64_t ns = 1700000000000000000;
  std::uint64_t prev = Tick(ns);
  for (int n = 0; n < 100000; ++n) {
    ns += static_cast<std::int64_t>(rng() % 1000);
    const std::uint64_t t = Tick(ns);
    ASSERT_GE(t, prev);
    prev = t;
  }
}

TEST(Uuidv7, Bounds) {
  std::uint8_t lo[16], hi[16];
  ulid_tsid::uuidv7_bound(0x017F22E279B0, false, lo);
  ulid_tsid::uuidv7_bound(0x017F22E279B0, true, hi);
  EXPECT_EQ(Hex(lo, 16), "017f22e279b070008000000000000000");
  EXPECT_EQ(Hex(hi, 16), "017f22e279b07fffbfffffffffffffff");
  std::mt19937_64 rng(33);
  for (int n = 0; n < 1000; ++n) {
    std::uint8_t random[8], v[16];
    for (auto& b : random) b = static_cast<std::uint8_t>(rng());
    ulid_tsid::uuidv7_store((std::uint64_t{0x017F22E279B0} << 12) | (rng() & 0xFFF), random, v);
    ASSERT_LE(std::memcmp(lo, v, 16), 0);
    ASSERT_GE(std::memcmp(hi, v, 16), 0);
  }
}

TEST(Uuidv7Generator, SimulatedClock) {
  Uuidv7Generator g;
  std::mt19937_64 rng(34);
  std::int64_t now = 1700000000000000000;
  std::uint64_t prev = 0;
  std::uint8_t prev_uuid[16] = {};
  for (int n = 0; n < 200000; ++n) {
    switch (rng() % 6) {
      case 0: case 1: break;                                            // stands still
      case 2: now -= static_cast<std::int64_t>(rng() % 5000000); break;  // backwards
      case 3: now += static_cast<std::int64_t>(rng() % 100000000); break;
      default: now += static_cast<std::int64_t>(rng() % 300);         // under one fraction
    }
    std::uint8_t random[8], uuid[16], want[16];
    for (auto& b : random) b = static_cast<std::uint8_t>(rng());
    ASSERT_EQ(g.next(split_ns(now), random, uuid), GenerateStatus::kOk);
    const std::uint64_t candidate = Tick(now);
    const std::uint64_t tick = candidate > prev ? candidate : prev + 1;
    ulid_tsid::uuidv7_store(tick, random, want);
    ASSERT_EQ(std::memcmp(uuid, want, 16), 0) << "n=" << n;
    ASSERT_EQ(uuidv7_tick(uuid), tick) << "n=" << n;
    if (n > 0) ASSERT_GT(std::memcmp(uuid, prev_uuid, 16), 0);
    std::memcpy(prev_uuid, uuid, 16);
    prev = tick;
  }
}

TEST(Uuidv7Generator, ClockOutOfRangeAndExhaustion) {
  Uuidv7Generator g;
  const std::uint8_t random[8] = {};
  std::uint8_t out[16];
  std::memset(out, 0x5C, 16);
  EXPECT_EQ(g.next(split_ns(-1), random, out), GenerateStatus::kClockOutOfRange);
  EXPECT_EQ(g.next(split_ns(std::numeric_limits<std::int64_t>::min()), random, out), GenerateStatus::kClockOutOfRange);
  for (int i = 0; i < 16; ++i) ASSERT_EQ(out[i], 0x5C) << "out touched";
  EXPECT_EQ(g.next(split_ns(std::numeric_limits<std::int64_t>::max()), random, out), GenerateStatus::kOk);
  // Past the 48-bit millisecond: only reachable through a shared sequence that
  // already holds the last tick.
  std::atomic<std::uint64_t> shared{(ulid_tsid::kMax48BitMs << 12) | 0xFFF};
  Uuidv7Generator h;
  h.ticks().share(&shared);
  EXPECT_EQ(h.next(split_ns(1), random, out), GenerateStatus::kExhausted);
  EXPECT_EQ(h.next(split_ns(1), random, out), GenerateStatus::kExhausted) << "and stays exhausted";
}

}  // namespace
