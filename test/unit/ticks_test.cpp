// TickSequence (ticks.hpp): strictly increasing claims, locally and through a
// shared atomic from several threads at once.
#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <limits>
#include <thread>
#include <vector>

#include "clock.hpp"
#include "ticks.hpp"
#include "iterations.hpp"

namespace {

using ulid_tsid::next_tick;
using ulid_tsid::TickSequence;

// The claimed tick; every claim in these tests is far from the end of the 64 bits.
static std::uint64_t Claim(ulid_tsid::TickSequence& sequence, std::uint64_t candidate) {
  std::uint64_t tick = 0;
  EXPECT_TRUE(sequence.claim(candidate, &tick));
  return tick;
}

// Clock readings split into floor milliseconds and 0..999,999 ns, also before
// 1970 and at both ends of int64.
TEST(SplitNs, FloorMillisecondsAndNonNegativeRest) {
  using ulid_tsid::split_ns;
  EXPECT_EQ(split_ns(0).ms, 0);
  EXPECT_EQ(split_ns(0).sub_ms_ns, 0u);
  EXPECT_EQ(split_ns(1999999).ms, 1);
  EXPECT_EQ(split_ns(1999999).sub_ms_ns, 999999u);
  EXPECT_EQ(split_ns(-1).ms, -1);
  EXPECT_EQ(split_ns(-1).sub_ms_ns, 999999u);
  EXPECT_EQ(split_ns(-1000000).ms, -1);
  EXPECT_EQ(split_ns(-1000000).sub_ms_ns, 0u);
  EXPECT_EQ(split_ns(-1000001).ms, -2);
  const auto lo = split_ns(std::numeric_limits<std::int64_t>::min());  // -9223372036854775808
  EXPECT_EQ(lo.ms, -9223372036855);
  EXPECT_EQ(lo.sub_ms_ns, 224192u);
  const auto hi = split_ns(std::numeric_limits<std::int64_t>::max());
  EXPECT_EQ(hi.ms * 1000000 + static_cast<std::int64_t>(hi.sub_ms_ns), std::numeric_limits<std::int64_t>::max());
}

TEST(NextTick, AheadTakesCandidateElseLastPlusOne) {
  EXPECT_EQ(next_tick(0, 5), 5u);
  EXPECT_EQ(next_tick(5, 5), 6u);
  EXPECT_EQ(next_tick(5, 4), 6u);
  EXPECT_EQ(next_tick(5, 0), 6u);
  EXPECT_EQ(next_tick(5, 6), 6u);
  EXPECT_EQ(next_tick(5, 1000), 1000u);
}

TEST(TickSequence, LocalClaimsFollowNextTick) {
  TickSequence t;
  EXPECT_FALSE(t.shared());
  EXPECT_EQ(Claim(t, 100), 100u);
  EXPECT_EQ(Claim(t, 100), 101u);
  EXPECT_EQ(Claim(t, 50), 102u);
  EXPECT_EQ(Claim(t, 200), 200u);
  EXPECT_EQ(Claim(t, 0), 201u);
}

TEST(TickSequence, ShareAndUnshare) {
  std::atomic<std::uint64_t> shared{1000};
  TickSequence a, b;
  EXPECT_EQ(Claim(a, 10), 10u);
  a.share(&shared);
  b.share(&shared);
  EXPECT_TRUE(a.shared());
  EXPECT_EQ(Claim(a, 10), 1001u) << "the shared last value rules";
  EXPECT_EQ(Claim(b, 10), 1002u);
  EXPECT_EQ(Claim(b, 5000), 5000u);
  EXPECT_EQ(Claim(a, 4000), 5001u);
  EXPECT_EQ(shared.load(), 5001u);
  a.share(nullptr);
  EXPECT_FALSE(a.shared());
  EXPECT_EQ(Claim(a, 10), 11u) << "back to its own local sequence";
  EXPECT_EQ(shared.load(), 5001u) << "local claims do not touch the shared value";
}

// True when every value in `v` occurs once.
bool AllDistinct(std::vector<std::uint64_t> v) {
  std::sort(v.begin(), v.end());
  return std::adjacent_find(v.begin(), v.end()) == v.end();
}

TEST(TickSequence, DistinctnessCheckCanFail) {
  EXPECT_TRUE(AllDistinct({3, 1, 2}));
  EXPECT_FALSE(AllDistinct({3, 1, 3}));
}

// 4 threads, 200,000 claims each, all fed the same candidate stream (a clock that
// stalls, steps back and jumps): every claim across all threads is distinct and
// each thread sees its own claims strictly increase.
TEST(TickSequence, SharedAcrossThreadsNeverDuplicates) {
  constexpr int kThreads = 4;
  const int kClaims = Iterations(200000);  // the sanitizer run: 20,000
  std::vector<std::uint64_t> candidates(kClaims);
  for (int i = 0; i < kClaims; ++i) {
    std::uint64_t ms = 1000 + static_cast<std::uint64_t>(i) / 64;
    if (i % 1000 == 500) ms -= 3;  // clock steps back
    if (i % 5000 == 0) ms += 7;    // and jumps
    candidates[i] = ms << 16;
  }
  std::atomic<std::uint64_t> shared{0};
  std::atomic<int> ready{0};
  std::vector<std::vector<std::uint64_t>> claimed(kThreads);
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t) {
    threads.emplace_back([&, t] {
      TickSequence seq;
      seq.share(&shared);
      auto& mine = claimed[t];
      mine.reserve(kClaims);
      ready.fetch_add(1);
      while (ready.load() < kThreads) {
      }
      for (int i = 0; i < kClaims; ++i) mine.push_back(Claim(seq, candidates[i]));
    });
  }
  for (auto& th : threads) th.join();

  std::vector<std::uint64_t> all;
  for (int t = 0; t < kThreads; ++t) {
    ASSERT_EQ(claimed[t].size(), static_cast<std::size_t>(kClaims));
    for (int i = 1; i < kClaims; ++i) {
      ASSERT_GT(claimed[t][i], claimed[t][i - 1]) << "thread " << t << " claim " << i;
    }
    all.insert(all.end(), claimed[t].begin(), claimed[t].end());
  }
  EXPECT_TRUE(AllDistinct(all));
  EXPECT_EQ(shared.load(), *std::max_element(all.begin(), all.end()));
}

}  // namespace
