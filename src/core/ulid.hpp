// The ULID layout: 16 big-endian bytes, a 48-bit Unix-millisecond timestamp
// followed by 80 bits that are random (or a counter in monotonic mode), so that
// byte order is time order.
#pragma once

#include <cstdint>

#include "big_endian.hpp"

namespace ulid_tsid {

// The 48-bit timestamp (of a ulid, and of a version-7 UUID: the same bytes).
inline std::uint64_t ulid_time_ms(const std::uint8_t bytes[16]) noexcept { return load_be(bytes, 6); }

// Puts `high` (the first 8 bytes: timestamp and the next 16 bits) and `low` in place.
inline void ulid_store(std::uint64_t high, std::uint64_t low, std::uint8_t out[16]) noexcept {
  store_be(high, out);
  store_be(low, out + 8);
}

// The smallest (random part all zeros) or largest (all ones) ULID of a millisecond.
inline void ulid_bound(std::uint64_t ms, bool upper, std::uint8_t out[16]) noexcept {
  const std::uint64_t fill = upper ? ~std::uint64_t{0} : 0;
  ulid_store((ms << 16) | (fill & 0xFFFF), fill, out);
}

// Adds one to the 80-bit part, carrying across bytes; false (and `bytes`
// unchanged) when it is already all ones, so that it never wraps into a duplicate.
inline bool ulid_increment_random(std::uint8_t bytes[16]) noexcept {
  int i = 15;
  while (i >= 6 && bytes[i] == 0xFF) --i;
  if (i < 6) return false;
  ++bytes[i];
  for (int j = i + 1; j < 16; ++j) bytes[j] = 0;
  return true;
}

}  // namespace ulid_tsid
