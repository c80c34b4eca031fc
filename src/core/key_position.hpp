// A key's place in its type's order as one unsigned 128-bit number, so that
// the planner can tell how far into a histogram bucket a key falls: the bucket
// spans [low, high] and the key lies (key - low) / (high - low) of the way in.
// The time is the most significant part of every key, so this is the time's
// fraction of the bucket, down to the random tail.
#pragma once

#include <cstdint>

#include "big_endian.hpp"

namespace ulid_tsid {

using KeyPosition = unsigned __int128;

// A ulid or uuid: its 16 big-endian bytes (memcmp order).
inline KeyPosition key_position_128(const std::uint8_t bytes[16]) noexcept {
  return (KeyPosition{load_be(bytes)} << 64) | load_be(bytes + 8);
}

// A tsid or any integer, in signed order: the sign bit flipped.
inline KeyPosition key_position_64(std::int64_t value) noexcept {
  return static_cast<std::uint64_t>(value) ^ (std::uint64_t{1} << 63);
}

// How far `key` lies from `low` towards `high`, 0..1; 0.5 for an empty span.
inline double fraction_between(KeyPosition low, KeyPosition high, KeyPosition key) noexcept {
  if (high <= low) return 0.5;
  if (key <= low) return 0.0;
  if (key >= high) return 1.0;
  return static_cast<double>(key - low) / static_cast<double>(high - low);
}

}  // namespace ulid_tsid
