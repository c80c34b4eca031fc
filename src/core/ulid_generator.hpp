// The two ULID generators. Both are pure state machines: the caller hands in the
// clock reading and the random bytes, so tests can drive them with a simulated
// clock.
#pragma once

#include <cstdint>

#include "clock_ticks.hpp"
#include "ulid.hpp"

namespace ulid_tsid {

inline constexpr int kUlidRandomBytes = 10;
inline constexpr int kUlidFractionBits = 16;
inline constexpr int kUlidTailBytes = 8;

// generate_ulid(): the first 8 bytes are a tick of (48-bit ms, 16-bit
// sub-millisecond fraction of the clock, in 65,536ths) from the generator that
// UUIDv7 shares (clock_ticks.hpp). The last 8 bytes are always fresh random
// bits, so no value can be guessed from the previous one. Because the fraction
// follows the clock, values of concurrent backends keep time order within a
// millisecond too and append at the right edge of a B-tree even without shared
// ticks; a tick is ~15 ns, shorter than any call, so a session's values do not
// run ahead of the clock.
class UlidGenerator {
 public:
  TickSequence& ticks() noexcept { return clock_ticks_.ticks(); }

  GenerateStatus next(std::int64_t now_ms, std::uint16_t fraction, const std::uint8_t random[kUlidTailBytes],
                      std::uint8_t out[16]) noexcept {
    std::uint64_t high = 0;
    const GenerateStatus status = clock_ticks_.next_tick(now_ms, fraction, &high);
    if (status == GenerateStatus::kOk) ulid_store(high, load_be(random), out);
    return status;
  }

  // next() at a Unix-ns clock reading.
  GenerateStatus next_at(std::int64_t now_unix_ns, const std::uint8_t random[kUlidTailBytes],
                         std::uint8_t out[16]) noexcept {
    std::uint64_t high = 0;
    const GenerateStatus status = clock_ticks_.next_tick_at(now_unix_ns, &high);
    if (status == GenerateStatus::kOk) ulid_store(high, load_be(random), out);
    return status;
  }

 private:
  ClockTickGenerator<kUlidFractionBits> clock_ticks_;
};

// generate_ulid_monotonic(): the ULID spec's monotonic mode, per process. A new
// millisecond draws 80 fresh random bits; the same millisecond (or a clock that
// went back) takes the previous value plus one; when that would overflow the 80
// bits it fails rather than wrap.
class UlidMonotonicGenerator {
 public:
  // Whether next(now_ms, ...) will read its random bytes: only a new
  // millisecond does, so a caller can skip drawing them within one.
  bool needs_random(std::int64_t now_ms) const noexcept {
    return !has_last_ || now_ms < 0 || static_cast<std::uint64_t>(now_ms) > ulid_time_ms(last_);
  }

  GenerateStatus next(std::int64_t now_ms, const std::uint8_t random[kUlidRandomBytes],
                      std::uint8_t out[16]) noexcept {
    if (now_ms < 0 || static_cast<std::uint64_t>(now_ms) > kMax48BitMs) {
      return GenerateStatus::kClockOutOfRange;
    }
    const auto ms = static_cast<std::uint64_t>(now_ms);
    if (!has_last_ || ms > ulid_time_ms(last_)) {
      ulid_bound(ms, false, last_);
      for (int i = 0; i < kUlidRandomBytes; ++i) last_[6 + i] = random[i];
      has_last_ = true;
    } else if (!ulid_increment_random(last_)) {
      return GenerateStatus::kExhausted;
    }
    for (int i = 0; i < 16; ++i) out[i] = last_[i];
    return GenerateStatus::kOk;
  }

 private:
  bool has_last_ = false;
  std::uint8_t last_[16] = {};
};

}  // namespace ulid_tsid
