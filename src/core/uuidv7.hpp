// UUID version 7 (RFC 9562): 48-bit Unix ms, version 0111, 12 bits of
// sub-millisecond clock precision in rand_a (section 6.2, method 3, as in
// PostgreSQL 18), variant 10, 62 random bits.
#pragma once

#include <cstdint>

#include "clock.hpp"
#include "generate_status.hpp"
#include "ticks.hpp"

namespace ulid_tsid {

inline constexpr int kSubMsBits = 12;
inline constexpr std::uint64_t kUuidv7MaxMs = (std::uint64_t{1} << 48) - 1;
inline constexpr int kUuidv7RandomBytes = 8;

// A time as a tick: milliseconds, then 4096ths of the millisecond.
inline std::uint64_t uuidv7_tick(std::uint64_t ms, std::uint32_t sub_ms_ns) noexcept {
  return (ms << kSubMsBits) | ((std::uint64_t{sub_ms_ns} << kSubMsBits) / kNsPerMs);
}

// A Unix-ns clock reading (from 1970 on) as a tick.
inline std::uint64_t uuidv7_tick(std::int64_t unix_ns) noexcept {
  const ClockMs clock = split_ns(unix_ns);
  return uuidv7_tick(static_cast<std::uint64_t>(clock.ms), clock.sub_ms_ns);
}

// The time a tick stands for, milliseconds and nanoseconds kept apart so that
// no tick up to year 10889 overflows (nanoseconds since 1970 would after 2262).
// The nanoseconds round up, so that uuidv7_tick() of the result is `tick` again.
inline ClockMs uuidv7_tick_time(std::uint64_t tick) noexcept {
  const std::uint64_t fraction = tick & ((1u << kSubMsBits) - 1);
  return {static_cast<std::int64_t>(tick >> kSubMsBits),
          static_cast<std::uint32_t>((fraction * kNsPerMs + (1u << kSubMsBits) - 1) >> kSubMsBits)};
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
    const ClockMs clock = split_ns(now_unix_ns);
    if (clock.ms < 0 || static_cast<std::uint64_t>(clock.ms) > kUuidv7MaxMs) return GenerateStatus::kClockOutOfRange;
    const std::uint64_t candidate = uuidv7_tick(static_cast<std::uint64_t>(clock.ms), clock.sub_ms_ns);
    if (!ticks_.claim(candidate, tick) || (*tick >> kSubMsBits) > kUuidv7MaxMs) {
      return GenerateStatus::kExhausted;
    }
    return GenerateStatus::kOk;
  }

 private:
  TickSequence ticks_;
};

}  // namespace ulid_tsid
