// UUID version 7 (RFC 9562): 48-bit Unix ms, version 0111, 12 bits of
// sub-millisecond clock precision in rand_a (section 6.2, method 3, as in
// PostgreSQL 18), variant 10, 62 random bits.
#pragma once

#include <cstdint>

#include "generate_status.hpp"
#include "ticks.hpp"

namespace ulid_tsid {

inline constexpr int kSubMsBits = 12;
inline constexpr std::int64_t kNsPerMs = 1000000;
inline constexpr std::uint64_t kUuidv7MaxMs = (std::uint64_t{1} << 48) - 1;
inline constexpr int kUuidv7RandomBytes = 8;

// A clock reading as a tick: milliseconds, then 4096ths of the millisecond.
inline std::uint64_t uuidv7_tick(std::int64_t unix_ns) noexcept {
  const auto ms = static_cast<std::uint64_t>(unix_ns / kNsPerMs);
  const auto fraction = static_cast<std::uint64_t>(((unix_ns % kNsPerMs) << kSubMsBits) / kNsPerMs);
  return (ms << kSubMsBits) | fraction;
}

inline std::int64_t uuidv7_tick_ns(std::uint64_t tick) noexcept {
  const std::int64_t ms = static_cast<std::int64_t>(tick >> kSubMsBits);
  const std::int64_t fraction = static_cast<std::int64_t>(tick & ((1u << kSubMsBits) - 1));
  // Round up so that converting back gives the same fraction.
  return ms * kNsPerMs + (fraction * kNsPerMs + (1 << kSubMsBits) - 1) / (1 << kSubMsBits);
}

// Writes a version-7 UUID for `tick`; `random` fills rand_b (its top two bits
// become the variant).
inline void uuidv7_store(std::uint64_t tick, const std::uint8_t random[kUuidv7RandomBytes],
                         std::uint8_t out[16]) noexcept {
  const std::uint64_t ms = tick >> kSubMsBits;
  const std::uint64_t fraction = tick & ((1u << kSubMsBits) - 1);
  for (int i = 0; i < 6; ++i) out[i] = static_cast<std::uint8_t>(ms >> (40 - 8 * i));
  out[6] = static_cast<std::uint8_t>(0x70 | (fraction >> 8));
  out[7] = static_cast<std::uint8_t>(fraction);
  for (int i = 0; i < kUuidv7RandomBytes; ++i) out[8 + i] = random[i];
  out[8] = static_cast<std::uint8_t>((out[8] & 0x3F) | 0x80);
}

// The smallest or largest version-7 UUID of a millisecond.
inline void uuidv7_bound(std::uint64_t ms, bool upper, std::uint8_t out[16]) noexcept {
  const std::uint8_t fill = upper ? 0xFF : 0x00;
  std::uint8_t random[kUuidv7RandomBytes];
  for (auto& byte : random) byte = fill;
  uuidv7_store((ms << kSubMsBits) | (upper ? (1u << kSubMsBits) - 1 : 0), random, out);
}

// uuidv7(): ticks strictly increase in their TickSequence (per backend, or
// cluster-wide when shared), so a burst of values moves the fraction on by one
// 4096th of a millisecond each, as PostgreSQL 18 does per backend.
class Uuidv7Generator {
 public:
  TickSequence& ticks() noexcept { return ticks_; }

  GenerateStatus next_tick(std::int64_t now_unix_ns, std::uint64_t* tick) noexcept {
    if (now_unix_ns < 0 || static_cast<std::uint64_t>(now_unix_ns / kNsPerMs) > kUuidv7MaxMs) {
      return GenerateStatus::kClockOutOfRange;
    }
    const std::uint64_t candidate = uuidv7_tick(now_unix_ns);
    if (!ticks_.claim(candidate, tick) || (*tick >> kSubMsBits) > kUuidv7MaxMs) {
      return GenerateStatus::kExhausted;
    }
    return GenerateStatus::kOk;
  }

 private:
  TickSequence ticks_;
};

}  // namespace ulid_tsid
