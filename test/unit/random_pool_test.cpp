// RandomPool (random_pool.hpp): a ChaCha20 keystream that reseeds when the pid
// changes. The pool is copyable, which lets a test fork its state and compare
// what each copy hands out.
#include <gtest/gtest.h>
#include <unistd.h>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <set>
#include <string>
#include <vector>

#include "random_pool.hpp"
#include "iterations.hpp"

namespace {

using ulid_tsid::RandomPool;

std::string Fill(RandomPool& pool, int pid, std::size_t n) {
  std::string s(n, '\0');
  EXPECT_TRUE(pool.fill(pid, &s[0], n));
  return s;
}

TEST(RandomPool, SamePidContinuesTheStream) {
  RandomPool a;
  Fill(a, 1234, 10);
  RandomPool b = a;  // same state
  EXPECT_EQ(Fill(a, 1234, 64), Fill(b, 1234, 64)) << "same pid: no reseed, same keystream";
  // ...and the stream moves on: the next bytes are not the previous ones again.
  const std::string x = Fill(a, 1234, 64);
  const std::string y = Fill(a, 1234, 64);
  EXPECT_NE(x, y);
}

TEST(RandomPool, DifferentPidReseeds) {
  RandomPool a;
  Fill(a, 1234, 10);
  RandomPool b = a;
  RandomPool c = a;
  const std::string cont = Fill(a, 1234, 64);
  const std::string forked = Fill(b, 1235, 64);  // a "child" with the parent's memory
  EXPECT_NE(cont, forked) << "a new pid must not continue the parent's keystream";
  // Going back to the first pid reseeds again rather than resuming the old stream.
  const std::string back = Fill(b, 1234, 64);
  EXPECT_NE(back, Fill(c, 1234, 128).substr(64));
  EXPECT_NE(back, cont);
}

TEST(RandomPool, FreshPoolsDiffer) {
  RandomPool a, b;
  EXPECT_NE(Fill(a, 77, 32), Fill(b, 77, 32));
}

TEST(RandomPool, ChunkingDoesNotChangeTheStream) {
  RandomPool a;
  Fill(a, 99, 1);
  RandomPool b = a;
  const std::string whole = Fill(a, 99, 5000);  // crosses several 1 KiB blocks
  std::string pieces;
  for (std::size_t n : {7u, 1u, 992u, 33u, 1024u, 1u, 2942u}) pieces += Fill(b, 99, n);
  ASSERT_EQ(pieces.size(), 5000u);
  EXPECT_EQ(whole, pieces);
}

TEST(RandomPool, ZeroLengthAndEightByteDraws) {
  RandomPool a;
  unsigned char guard = 0x42;
  EXPECT_TRUE(a.fill(5, &guard, 0));
  EXPECT_EQ(guard, 0x42);
  std::set<std::uint64_t> seen;
  for (int i = 0; i < 1000; ++i) {
    std::uint64_t v = 0;
    ASSERT_TRUE(a.fill(5, &v, sizeof v));
    seen.insert(v);
  }
  EXPECT_EQ(seen.size(), 1000u);
}

// The 10-byte draws the ULID generator makes: never all zero, never repeated.
TEST(RandomPool, TenByteDrawsAreNonZeroAndDistinct) {
  RandomPool a;
  const int pid = static_cast<int>(getpid());
  std::set<std::string> seen;
  for (int i = 0; i < Iterations(100000); ++i) {
    const std::string s = Fill(a, pid, 10);
    ASSERT_NE(s, std::string(10, '\0')) << "draw " << i;
    ASSERT_TRUE(seen.insert(s).second) << "repeated draw " << i;
  }
}

// Bits balanced overall and at each of the 80 bit positions of a 10-byte draw,
// and byte values roughly uniform (chi-square), with limits at about 6 sigma so
// that a healthy stream essentially never fails but a biased one does.
TEST(RandomPool, BitsAreBalanced) {
  RandomPool a;
  const int pid = static_cast<int>(getpid());
  constexpr int kDraws = 100000;
  std::vector<long> ones_at(80, 0);
  std::vector<long> byte_count(256, 0);
  long ones = 0;
  for (int i = 0; i < kDraws; ++i) {
    unsigned char d[10];
    ASSERT_TRUE(a.fill(pid, d, 10));
    for (int k = 0; k < 10; ++k) {
      ++byte_count[d[k]];
      for (int b = 0; b < 8; ++b) {
        const int bit = (d[k] >> b) & 1;
        ones += bit;
        ones_at[k * 8 + b] += bit;
      }
    }
  }
  const double total_bits = 80.0 * kDraws;
  EXPECT_LT(std::fabs(ones - total_bits / 2), 6 * std::sqrt(total_bits) / 2) << ones;
  for (int p = 0; p < 80; ++p) {
    EXPECT_LT(std::fabs(ones_at[p] - kDraws / 2.0), 6 * std::sqrt(double(kDraws)) / 2)
        << "bit position " << p << ": " << ones_at[p];
  }
  const double expected = 10.0 * kDraws / 256;
  double chi2 = 0;
  for (long c : byte_count) chi2 += (c - expected) * (c - expected) / expected;
  // 255 degrees of freedom: mean 255, sd ~22.6.
  EXPECT_LT(chi2, 255 + 8 * 22.6);
  EXPECT_GT(chi2, 255 - 8 * 22.6);
}

}  // namespace

// Regression: pid 0 must still seed from the kernel, not hand out the keystream
// of an all-zero key.
TEST(RandomPool, PidZeroIsSeededToo) {
  ulid_tsid::RandomPool a, b;
  std::uint8_t x[32], y[32];
  ASSERT_TRUE(a.fill(0, x, sizeof x));
  ASSERT_TRUE(b.fill(0, y, sizeof y));
  EXPECT_NE(std::memcmp(x, y, sizeof x), 0) << "two pools seeded independently differ";
}
