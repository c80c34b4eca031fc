#include "key_position.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstring>
#include <random>

#include "tsid.hpp"
#include "ulid.hpp"

namespace ulid_tsid {
namespace {

TEST(KeyPosition, FollowsByteOrderOf16ByteKeys) {
  std::mt19937_64 rng(15);
  for (int i = 0; i < 10000; ++i) {
    std::uint8_t a[16], b[16];
    for (int j = 0; j < 16; ++j) {
      a[j] = static_cast<std::uint8_t>(rng());
      // share a prefix of random length so that close keys are compared too
      b[j] = j < static_cast<int>(rng() % 17) ? a[j] : static_cast<std::uint8_t>(rng());
    }
    const int bytes = std::memcmp(a, b, 16);
    const KeyPosition pa = key_position_128(a), pb = key_position_128(b);
    EXPECT_EQ(bytes < 0, pa < pb);
    EXPECT_EQ(bytes == 0, pa == pb);
  }
}

TEST(KeyPosition, FollowsSignedOrderOf64BitKeys) {
  const std::int64_t values[] = {INT64_MIN, INT64_MIN + 1, -4194304, -1, 0, 1, 4194303, INT64_MAX - 1, INT64_MAX};
  for (std::int64_t a : values) {
    for (std::int64_t b : values) EXPECT_EQ(a < b, key_position_64(a) < key_position_64(b)) << a << " " << b;
  }
}

TEST(KeyPosition, FractionIsTheTimeFractionOfTheBucket) {
  // A bucket from the first ulid of one millisecond to the first of 1000 ms
  // later: a key 250 ms in lies a quarter of the way, whatever its random tail.
  std::uint8_t low[16], high[16], key[16];
  ulid_bound(1796040000000, false, low);
  ulid_bound(1796040001000, false, high);
  ulid_bound(1796040000250, false, key);
  EXPECT_NEAR(fraction_between(key_position_128(low), key_position_128(high), key_position_128(key)), 0.25, 1e-9);
  const std::int64_t tsid_low = static_cast<std::int64_t>(tsid_bound(1000, false));
  const std::int64_t tsid_high = static_cast<std::int64_t>(tsid_bound(2000, false));
  const std::int64_t tsid_key = static_cast<std::int64_t>(tsid_bound(1900, false));
  EXPECT_NEAR(fraction_between(key_position_64(tsid_low), key_position_64(tsid_high), key_position_64(tsid_key)), 0.9,
              1e-9);
}

TEST(KeyPosition, FractionOutsideOrEmptyBucket) {
  EXPECT_EQ(fraction_between(10, 20, 5), 0.0);
  EXPECT_EQ(fraction_between(10, 20, 25), 1.0);
  EXPECT_EQ(fraction_between(10, 10, 10), 0.5);
  EXPECT_EQ(fraction_between(key_position_64(INT64_MIN), key_position_64(INT64_MAX), key_position_64(INT64_MAX)), 1.0);
}

}  // namespace
}  // namespace ulid_tsid
