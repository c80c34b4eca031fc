// UUID version 7 (RFC 9562): 48-bit Unix ms, version 0111, 12 bits of
// sub-millisecond clock precision in rand_a (section 6.2, method 3, as in
// PostgreSQL 18), variant 10, 62 random bits.
#pragma once

#include <cstdint>

#include "big_endian.hpp"
#include "clock_ticks.hpp"

namespace ulid_tsid {

inline constexpr int kUuidv7FractionBits = 12;
inline constexpr int kUuidv7RandomBytes = 8;

// Writes a version-7 UUID for `tick`; `random` fills rand_b (its top two bits
// become the variant).
inline void uuidv7_store(std::uint64_t tick, const std::uint8_t random[kUuidv7RandomBytes],
                         std::uint8_t out[16]) noexcept {
  const std::uint64_t fraction = tick & ((1u << kUuidv7FractionBits) - 1);
  store_be(tick >> kUuidv7FractionBits, out, 6);
  out[6] = static_cast<std::uint8_t>(0x70 | (fraction >> 8));
  out[7] = static_cast<std::uint8_t>(fraction);
  for (int i = 0; i < kUuidv7RandomBytes; ++i) out[8 + i] = random[i];
  out[8] = static_cast<std::uint8_t>((out[8] & 0x3F) | 0x80);
}

// The tick a version-7 UUID was written for: its millisecond and rand_a.
inline std::uint64_t uuidv7_tick(const std::uint8_t uuid[16]) noexcept {
  return (load_be(uuid, 6) << kUuidv7FractionBits) | (std::uint64_t{uuid[6] & 0x0Fu} << 8) | uuid[7];
}

// generate_uuidv7(): ticks strictly increase in their TickSequence (per backend,
// or cluster-wide when shared), so a burst of values moves the fraction on by
// one 4096th of a millisecond each, as PostgreSQL 18 does per backend.
using Uuidv7Generator = ClockTickGenerator<kUuidv7FractionBits, uuidv7_store>;
static_assert(Uuidv7Generator::kRandomBytes == kUuidv7RandomBytes);

// The smallest or largest version-7 UUID of a millisecond.
inline void uuidv7_bound(std::uint64_t ms, bool upper, std::uint8_t out[16]) noexcept {
  const std::uint8_t fill = upper ? 0xFF : 0x00;
  std::uint8_t random[kUuidv7RandomBytes];
  for (auto& byte : random) byte = fill;
  uuidv7_store((ms << kUuidv7FractionBits) | (upper ? (1u << kUuidv7FractionBits) - 1 : 0), random, out);
}

}  // namespace ulid_tsid
