// The generator that ULID and UUIDv7 share: 48 bits of Unix milliseconds and
// then k bits of the clock's fraction of that millisecond (16 for generate_ulid(),
// 12 for UUIDv7's rand_a, as in PostgreSQL 18), claimed as one tick of a
// TickSequence (per process, or cluster-wide when shared), so that two claims
// never return the same tick; the random tail follows.
#pragma once

#include <cstdint>

#include "clock.hpp"
#include "ticks.hpp"

namespace ulid_tsid {

// The last millisecond a 48-bit timestamp holds: 10889-08-02T05:31:50.655Z.
inline constexpr std::uint64_t kMax48BitMs = (std::uint64_t{1} << 48) - 1;

// A time as a tick: milliseconds, then the fraction in 2^kFractionBits-ths.
template <int kFractionBits>
inline std::uint64_t clock_tick(std::uint64_t ms, std::uint32_t sub_ms_ns) noexcept {
  return (ms << kFractionBits) | ((std::uint64_t{sub_ms_ns} << kFractionBits) / kNsPerMs);
}

// The first nanosecond of a millisecond whose clock_tick() fraction is `fraction`.
template <int kFractionBits>
inline std::uint32_t fraction_ns(std::uint64_t fraction) noexcept {
  return static_cast<std::uint32_t>((fraction * kNsPerMs + (std::uint64_t{1} << kFractionBits) - 1) >> kFractionBits);
}

// The time a tick stands for, milliseconds and nanoseconds kept apart so that no
// tick up to year 10889 overflows (nanoseconds since 1970 would after 2262).
// The nanoseconds round up, so that clock_tick() of the result is `tick` again.
template <int kFractionBits>
inline ClockMs clock_tick_time(std::uint64_t tick) noexcept {
  return {static_cast<std::int64_t>(tick >> kFractionBits),
          fraction_ns<kFractionBits>(tick & ((std::uint64_t{1} << kFractionBits) - 1))};
}

// The generator of a 16-byte key whose first bits are a tick: `Store(tick,
// random, out)` writes the key of a claimed tick and 8 random bytes
// (UlidGenerator and Uuidv7Generator are this class with their layout's store).
template <int kFractionBits, void (*Store)(std::uint64_t tick, const std::uint8_t* random, std::uint8_t* out)>
class ClockTickGenerator {
 public:
  static constexpr int kRandomBytes = 8;

  TickSequence& ticks() noexcept { return ticks_; }

  // Makes every later tick fall after Unix millisecond `ms` (the floor of a
  // persisted mark); a negative `ms` (no mark) changes nothing.
  void start_above_ms(std::int64_t ms) noexcept {
    if (ms < 0) return;
    const std::uint64_t capped = static_cast<std::uint64_t>(ms) > kMax48BitMs ? kMax48BitMs : static_cast<std::uint64_t>(ms);
    ticks_.raise_to((capped << kFractionBits) | ((std::uint64_t{1} << kFractionBits) - 1));
  }

  // Makes the last tick the last of Unix millisecond `ms`, lower or higher
  // (ulid_tsid_mark_reset()): later ticks follow the clock from there.
  void reset_above_ms(std::int64_t ms) noexcept {
    const std::uint64_t clamped = ms < 0 ? 0 : static_cast<std::uint64_t>(ms) > kMax48BitMs ? kMax48BitMs : static_cast<std::uint64_t>(ms);
    ticks_.reset_to((clamped << kFractionBits) | ((std::uint64_t{1} << kFractionBits) - 1));
  }

  // The next key at clock reading `now`: its tick is the clock's when that is
  // ahead of the last one, else the last plus one. A reading before 1970 (its
  // floor millisecond is negative, even 1 ns before) or past year 10889 is out
  // of range. `claimed` (if given) gets the key's tick, which callers would
  // otherwise read back from the bytes (a cost per value).
  GenerateStatus next(ClockMs now, const std::uint8_t random[kRandomBytes], std::uint8_t out[16],
                      std::uint64_t* claimed = nullptr) noexcept {
    if (now.ms < 0 || static_cast<std::uint64_t>(now.ms) > kMax48BitMs) return GenerateStatus::kClockOutOfRange;
    const std::uint64_t candidate = clock_tick<kFractionBits>(static_cast<std::uint64_t>(now.ms), now.sub_ms_ns);
    std::uint64_t tick = 0;
    // Past the last millisecond (year 10889) there is no larger tick.
    if (!ticks_.claim(candidate, &tick) || (tick >> kFractionBits) > kMax48BitMs) return GenerateStatus::kExhausted;
    Store(tick, random, out);
    if (claimed != nullptr) *claimed = tick;
    return GenerateStatus::kOk;
  }

 private:
  TickSequence ticks_;
};

}  // namespace ulid_tsid
