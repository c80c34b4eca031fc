// The TSID layout (tsid.hpp) and TsidGenerator (tsid_generator.hpp), driven by a
// simulated clock; tsid_successor is checked against a brute-force search.
#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <limits>
#include <random>
#include <thread>
#include <vector>

#include "tsid.hpp"
#include "tsid_generator.hpp"
#include "iterations.hpp"

namespace {

using ulid_tsid::GenerateStatus;
using ulid_tsid::split_ns;
using ulid_tsid::kTsidEpochUnixMs;
using ulid_tsid::kTsidMaxMs;
using ulid_tsid::TsidGenerator;
using ulid_tsid::TsidLayout;

TsidLayout Layout(int node_bits, std::uint64_t node_id, int slot_bits = 0, std::uint64_t slot = 0) {
  TsidLayout l;
  l.node_bits = node_bits;
  l.node_id = node_id;
  l.slot_bits = slot_bits;
  l.slot = slot;
  return l;
}

// The smallest value of the layout above `last`, by trying every counter of
// last's millisecond and the next one (only for layouts with few counter bits).
bool BruteSuccessor(std::uint64_t last, const TsidLayout& l, std::uint64_t* out) {
  const std::uint64_t ms = last >> 22;
  bool found = false;
  for (std::uint64_t m = ms; m <= ms + 1 && m <= kTsidMaxMs; ++m) {
    for (std::uint64_t c = 0; c < (std::uint64_t{1} << l.counter_bits()); ++c) {
      const std::uint64_t v = (m << 22) | (l.node_id << (22 - l.node_bits)) | (c << l.slot_bits) | l.slot;
      if (v > last && (!found || v < *out)) { *out = v; found = true; }
    }
    if (found) return true;
  }
  return found;
}

// The successor of `last`; these tests stay clear of the end of TSID time.
static std::uint64_t Successor(std::uint64_t last, const ulid_tsid::TsidLayout& layout) {
  std::uint64_t next = 0;
  EXPECT_TRUE(ulid_tsid::tsid_successor(last, layout, &next));
  return next;
}

TEST(TsidLayout, Constants) {
  EXPECT_EQ(kTsidEpochUnixMs, 1577836800000);  // 2020-01-01T00:00:00Z
  EXPECT_EQ(kTsidMaxMs, (std::uint64_t{1} << 42) - 1);
}

TEST(TsidLayout, FieldsOfAValue) {
  // ms 123456789, node 0x2AB of 10 bits, counter 0xABC of 12 bits.
  const std::uint64_t v = (std::uint64_t{123456789} << 22) | (0x2ABu << 12) | 0xABC;
  EXPECT_EQ(ulid_tsid::tsid_time_ms(v), 123456789u);
  EXPECT_EQ(ulid_tsid::tsid_unix_ms(v), 123456789 + kTsidEpochUnixMs);
  EXPECT_EQ(ulid_tsid::tsid_node(v, 10), 0x2ABu);
  EXPECT_EQ(ulid_tsid::tsid_counter(v, 10), 0xABCu);
  EXPECT_EQ(ulid_tsid::tsid_node(v, 0), 0u);
  EXPECT_EQ(ulid_tsid::tsid_counter(v, 0), (0x2ABu << 12) | 0xABC);
  EXPECT_EQ(ulid_tsid::tsid_node(v, 20), v >> 2 & 0xFFFFF);
  EXPECT_EQ(ulid_tsid::tsid_bound(5, false), 5u << 22);
  EXPECT_EQ(ulid_tsid::tsid_bound(5, true), (6u << 22) - 1);
  EXPECT_EQ(ulid_tsid::tsid_bound(kTsidMaxMs, true), ~std::uint64_t{0});
}

TEST(TsidLayout, ComposeAndValid) {
  const TsidLayout l = Layout(10, 5, 3, 6);
  EXPECT_TRUE(l.valid());
  EXPECT_EQ(l.counter_bits(), 9);
  const std::uint64_t v = l.compose(77, 300);
  EXPECT_EQ(ulid_tsid::tsid_time_ms(v), 77u);
  EXPECT_EQ(ulid_tsid::tsid_node(v, 10), 5u);
  EXPECT_EQ(v & 7, 6u);
  EXPECT_EQ(ulid_tsid::tsid_counter(v, 10) >> 3, 300u);

  EXPECT_TRUE(Layout(0, 0).valid());
  EXPECT_TRUE(Layout(20, (1u << 20) - 1).valid());
  EXPECT_TRUE(Layout(20, 0, 2, 3).valid());
  EXPECT_FALSE(Layout(21, 0).valid());
  EXPECT_FALSE(Layout(-1, 0).valid());
  EXPECT_FALSE(Layout(10, 1024).valid());
  EXPECT_FALSE(Layout(10, 0, 13, 0).valid());
  EXPECT_FALSE(Layout(10, 0, 3, 8).valid());
  EXPECT_FALSE(Layout(10, 0, -1, 0).valid());
}

TEST(TsidSuccessor, MatchesBruteForce) {
  std::mt19937_64 rng(21);
  for (int n = 0; n < 200000; ++n) {
    const int node_bits = 14 + static_cast<int>(rng() % 7);         // 14..20
    const int slot_bits = static_cast<int>(rng() % (23 - node_bits));  // counter bits 0..8
    const TsidLayout l = Layout(node_bits, rng() % (std::uint64_t{1} << node_bits), slot_bits,
                                rng() % (std::uint64_t{1} << slot_bits));
    ASSERT_TRUE(l.valid());
    std::uint64_t last;
    switch (rng() % 4) {
      case 0: last = rng() >> 1; break;                               // anything
      case 1: last = l.compose(rng() % 1000000, 0) + rng() % 8 - 4; break;  // near a value
      case 2: last = l.compose(rng() % 1000000, (std::uint64_t{1} << l.counter_bits()) - 1); break;
      default: last = Layout(node_bits, rng() % (std::uint64_t{1} << node_bits)).compose(rng() % 1000, rng() % 4); break;
    }
    if ((last >> 22) >= kTsidMaxMs) continue;
    std::uint64_t want = 0;
    ASSERT_TRUE(BruteSuccessor(last, l, &want));
    ASSERT_EQ(Successor(last, l), want)
        << std::hex << "last=" << last << " node_bits=" << std::dec << node_bits << " node_id="
        << l.node_id << " slot_bits=" << slot_bits << " slot=" << l.slot;
  }
}

TEST(TsidGenerator, SimulatedClockStrictlyIncreasingAndInLayout) {
  std::mt19937_64 rng(22);
  TsidGenerator g;
  const TsidLayout l = Layout(10, 0x155);
  std::int64_t now = kTsidEpochUnixMs + 100000000;
  std::uint64_t prev = 0, clock_max = 0;
  for (int n = 0; n < 200000; ++n) {
    switch (rng() % 6) {
      case 0: case 1: break;
      case 2: now -= static_cast<std::int64_t>(rng() % 100); break;
      case 3: now += static_cast<std::int64_t>(rng() % 10000); break;
      default: now += 1;
    }
    std::uint64_t v = 0;
    ASSERT_EQ(g.next({now, 0}, l, &v), GenerateStatus::kOk);
    ASSERT_GT(v, prev) << "n=" << n;
    ASSERT_EQ(ulid_tsid::tsid_node(v, 10), 0x155u);
    const auto ms = static_cast<std::uint64_t>(now - kTsidEpochUnixMs);
    ASSERT_GE(ulid_tsid::tsid_time_ms(v), ms);
    if (ms > ulid_tsid::tsid_time_ms(prev) && ms > clock_max) {
      ASSERT_EQ(v, l.compose(ms, 0)) << "a new millisecond starts its counter at zero";
    } else {
      ASSERT_EQ(v, Successor(prev, l)) << "otherwise the next counter";
    }
    clock_max = std::max(clock_max, ms);
    prev = v;
  }
}

TEST(TsidGenerator, CounterOverflowMovesToTheNextMillisecond) {
  TsidGenerator g;
  const TsidLayout l = Layout(20, 7);  // 2 counter bits: 4 values per millisecond
  const std::int64_t now = kTsidEpochUnixMs + 1000;
  std::uint64_t v = 0;
  for (std::uint64_t c = 0; c < 4; ++c) {
    ASSERT_EQ(g.next({now, 0}, l, &v), GenerateStatus::kOk);
    EXPECT_EQ(v, l.compose(1000, c));
  }
  ASSERT_EQ(g.next({now, 0}, l, &v), GenerateStatus::kOk);
  EXPECT_EQ(v, l.compose(1001, 0)) << "runs ahead of the clock rather than repeating";
  ASSERT_EQ(g.next({now - 50, 0}, l, &v), GenerateStatus::kOk);
  EXPECT_EQ(v, l.compose(1001, 1)) << "clock backwards: continues";
}

TEST(TsidGenerator, ClockOutOfRange) {
  TsidGenerator g;
  const TsidLayout l = Layout(10, 1);
  std::uint64_t v = 12345;
  for (std::int64_t bad : {kTsidEpochUnixMs - 1, std::int64_t{0}, std::numeric_limits<std::int64_t>::min(),
                           kTsidEpochUnixMs + static_cast<std::int64_t>(kTsidMaxMs) + 1,
                           std::numeric_limits<std::int64_t>::max()}) {
    EXPECT_EQ(g.next({bad, 0}, l, &v), GenerateStatus::kClockOutOfRange) << bad;
    EXPECT_EQ(v, 12345u);
  }
  ASSERT_EQ(g.next({kTsidEpochUnixMs, 0}, l, &v), GenerateStatus::kOk);
  EXPECT_EQ(v, l.compose(0, 0));
  ASSERT_EQ(g.next({kTsidEpochUnixMs + static_cast<std::int64_t>(kTsidMaxMs), 0}, l, &v), GenerateStatus::kOk);
  EXPECT_EQ(ulid_tsid::tsid_time_ms(v), kTsidMaxMs);
}

// In the last millisecond of the layout (2159), once its counters are used up
// there is no larger value: kExhausted, and never a value at or below one
// already returned.
TEST(TsidGenerator, ExhaustionAtTheEndOfTimeNeverRepeats) {
  TsidGenerator g;
  const TsidLayout l = Layout(20, 0);  // 4 values per millisecond
  const std::int64_t end = kTsidEpochUnixMs + static_cast<std::int64_t>(kTsidMaxMs);
  std::uint64_t last = 0, v = 0;
  for (int c = 0; c < 4; ++c) {
    ASSERT_EQ(g.next({end, 0}, l, &v), GenerateStatus::kOk);
    ASSERT_GT(v, last);
    last = v;
  }
  for (int n = 0; n < 3; ++n) {
    v = 0;
    const GenerateStatus st = g.next({end, 0}, l, &v);
    EXPECT_EQ(st, GenerateStatus::kExhausted)
        << "call " << n << " after the last value " << std::hex << last << " returned " << v;
  }
}

TEST(TsidGenerator, StartAfterFirstMillisecondSkipsThatMillisecond) {
  TsidGenerator g;
  g.start_after_first_millisecond();
  const TsidLayout l = Layout(10, 3);
  std::uint64_t v = 0;
  ASSERT_EQ(g.next({kTsidEpochUnixMs + 5000, 999999}, l, &v), GenerateStatus::kOk);
  EXPECT_EQ(v, l.compose(5001, 0));
  ASSERT_EQ(g.next({kTsidEpochUnixMs + 5001, 0}, l, &v), GenerateStatus::kOk);
  EXPECT_EQ(v, l.compose(5001, 1)) << "only the first value skips ahead";
  ASSERT_EQ(g.next({kTsidEpochUnixMs + 6000, 0}, l, &v), GenerateStatus::kOk);
  EXPECT_EQ(v, l.compose(6000, 0));
}

// A clock that once reads before 2020 (or after 2159) must not touch the
// sequence: once the clock is right again, values are of the right time, not
// of 2159 (negative int8s that sort before everything).
TEST(TsidGenerator, ClockOutOfRangeBeforeTheFirstValueChangesNothing) {
  const TsidLayout l = Layout(0, 0, 7, 5);
  for (std::int64_t bad_ns : {std::int64_t{0}, std::int64_t{-1}, std::numeric_limits<std::int64_t>::min(),
                              (kTsidEpochUnixMs - 1) * 1000000 + 999999,
                              (kTsidEpochUnixMs + static_cast<std::int64_t>(kTsidMaxMs) + 1) * 1000000}) {
    TsidGenerator g;
    g.start_after_first_millisecond();
    std::uint64_t v = 99;
    for (int n = 0; n < 3; ++n) ASSERT_EQ(g.next(split_ns(bad_ns), l, &v), GenerateStatus::kClockOutOfRange) << bad_ns;
    EXPECT_EQ(v, 99u);
    const std::int64_t good_ms = kTsidEpochUnixMs + 86400000;  // 2020-01-02
    ASSERT_EQ(g.next(split_ns(good_ms * 1000000 + 250000), l, &v), GenerateStatus::kOk);
    EXPECT_EQ(v, l.compose(86400001, 0)) << "started after the first good millisecond, as armed";
    EXPECT_EQ(ulid_tsid::tsid_unix_ms(v), good_ms + 1);
    ASSERT_EQ(g.next(split_ns(bad_ns), l, &v), GenerateStatus::kClockOutOfRange);
    ASSERT_EQ(g.next(split_ns((good_ms + 5) * 1000000), l, &v), GenerateStatus::kOk);
    EXPECT_EQ(v, l.compose(86400005, 0)) << "back and forth: still the clock's time";
  }
}

// The first and last millisecond of TSID time, read from nanoseconds.
TEST(TsidGenerator, RangeEndsFromNanoseconds) {
  const TsidLayout l = Layout(0, 0);
  std::uint64_t v = 0;
  TsidGenerator first;
  ASSERT_EQ(first.next(split_ns(kTsidEpochUnixMs * 1000000), l, &v), GenerateStatus::kOk);
  EXPECT_EQ(v, 1u) << "ms 0 of 2020 (a fresh sequence never hands out 0)";
  EXPECT_EQ(first.next(split_ns(kTsidEpochUnixMs * 1000000 - 1), l, &v), GenerateStatus::kClockOutOfRange);
  TsidGenerator last;
  const std::int64_t end_ms = kTsidEpochUnixMs + static_cast<std::int64_t>(kTsidMaxMs);
  ASSERT_EQ(last.next(split_ns(end_ms * 1000000 + 999999), l, &v), GenerateStatus::kOk);
  EXPECT_EQ(ulid_tsid::tsid_time_ms(v), kTsidMaxMs);
  EXPECT_EQ(last.next(split_ns((end_ms + 1) * 1000000), l, &v), GenerateStatus::kClockOutOfRange);
  TsidGenerator armed;
  armed.start_after_first_millisecond();
  EXPECT_EQ(armed.next(split_ns(end_ms * 1000000), l, &v), GenerateStatus::kExhausted)
      << "no millisecond is left after the last one";
}

// Writers with their own sequences and distinct slots never collide, whatever
// their node settings, even with the same clock and settings that change.
TEST(TsidGenerator, DistinctSlotsNeverCollide) {
  std::mt19937_64 rng(23);
  constexpr int kWriters = 4;
  TsidGenerator gens[kWriters];
  std::vector<std::uint64_t> all;
  std::uint64_t prev[kWriters] = {};
  std::int64_t now = kTsidEpochUnixMs + 1000;
  for (int n = 0; n < 200000; ++n) {
    if (rng() % 50 == 0) now += 1;
    if (rng() % 200 == 0) now -= 2;
    const int w = static_cast<int>(rng() % kWriters);
    const int node_bits = (n / 20000) % 3 == 0 ? 10 : static_cast<int>(rng() % 19);
    const TsidLayout l = Layout(node_bits, rng() % (std::uint64_t{1} << node_bits), 2,
                                static_cast<std::uint64_t>(w));
    ASSERT_TRUE(l.valid());
    std::uint64_t v = 0;
    ASSERT_EQ(gens[w].next({now, 0}, l, &v), GenerateStatus::kOk);
    ASSERT_GT(v, prev[w]);
    ASSERT_EQ(v & 3, static_cast<std::uint64_t>(w));
    prev[w] = v;
    all.push_back(v);
  }
  std::sort(all.begin(), all.end());
  EXPECT_EQ(std::adjacent_find(all.begin(), all.end()), all.end());
}

// Threads sharing one tick sequence (no slot) get distinct values.
TEST(TsidGenerator, SharedSequenceAcrossThreadsNeverDuplicates) {
  constexpr int kThreads = 4;
  const int kClaims = Iterations(200000);  // the sanitizer run: 20,000
  std::atomic<std::uint64_t> shared{0};
  std::vector<std::vector<std::uint64_t>> got(kThreads);
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t) {
    threads.emplace_back([&, t] {
      TsidGenerator g;
      g.ticks().share(&shared);
      const TsidLayout l = Layout(10, static_cast<std::uint64_t>(t) * 100);
      got[t].reserve(kClaims);
      for (int i = 0; i < kClaims; ++i) {
        std::uint64_t v = 0;
        if (g.next({kTsidEpochUnixMs + 1000 + i / 1000, 0}, l, &v) != GenerateStatus::kOk) return;
        got[t].push_back(v);
      }
    });
  }
  for (auto& th : threads) th.join();
  std::vector<std::uint64_t> all;
  for (int t = 0; t < kThreads; ++t) {
    ASSERT_EQ(got[t].size(), static_cast<std::size_t>(kClaims));
    for (int i = 1; i < kClaims; ++i) ASSERT_GT(got[t][i], got[t][i - 1]);
    for (std::uint64_t v : got[t]) ASSERT_EQ(ulid_tsid::tsid_node(v, 10), static_cast<std::uint64_t>(t) * 100);
    all.insert(all.end(), got[t].begin(), got[t].end());
  }
  std::sort(all.begin(), all.end());
  EXPECT_EQ(std::adjacent_find(all.begin(), all.end()), all.end());
}

}  // namespace

// A fresh clock reading starts the counter at the clock's fraction of the
// millisecond; within it the counter counts on.
TEST(TsidGenerator, CounterStartsAtTheClocksFraction) {
  TsidGenerator g;
  const TsidLayout l = Layout(0, 0);  // 22 counter bits
  std::uint64_t v = 0;
  ASSERT_EQ(g.next({kTsidEpochUnixMs + 7000, 500000}, l, &v), GenerateStatus::kOk);
  EXPECT_EQ(v, l.compose(7000, std::uint64_t{1} << 21)) << "half way through the millisecond";
  ASSERT_EQ(g.next({kTsidEpochUnixMs + 7000, 250000}, l, &v), GenerateStatus::kOk);
  EXPECT_EQ(v, l.compose(7000, (std::uint64_t{1} << 21) + 1)) << "an earlier fraction counts on";
  ASSERT_EQ(g.next({kTsidEpochUnixMs + 7000, 999999}, l, &v), GenerateStatus::kOk);
  EXPECT_EQ(v, l.compose(7000, (std::uint64_t{999999} << 22) / 1000000));
  ASSERT_EQ(g.next({kTsidEpochUnixMs + 7001, 0}, l, &v), GenerateStatus::kOk);
  EXPECT_EQ(v, l.compose(7001, 0));
}

// Two writers with separate sequences (distinct slots) on one clock: sorted by
// value, their values come out in the order they were made, which is what keeps
// a B-tree appending at its right edge.
TEST(TsidGenerator, SeparateSlotsKeepTimeOrderWithinAMillisecond) {
  TsidGenerator a, b;
  const TsidLayout la = Layout(0, 0, 7, 3), lb = Layout(0, 0, 7, 90);
  std::vector<std::uint64_t> made;
  std::int64_t ns = 0;
  for (int n = 0; n < 20000; ++n) {
    ns += 97;  // one value every 97 ns, alternating writers
    std::uint64_t v = 0;
    TsidGenerator& g = (n % 2) ? a : b;
    ASSERT_EQ(g.next({kTsidEpochUnixMs + 1000 + ns / 1000000, static_cast<std::uint32_t>(ns % 1000000)},
                     (n % 2) ? la : lb, &v),
              GenerateStatus::kOk);
    made.push_back(v);
  }
  int out_of_order = 0;
  for (std::size_t i = 1; i < made.size(); ++i) out_of_order += made[i] < made[i - 1];
  EXPECT_EQ(out_of_order, 0);
}
