// The generator that ULID and UUIDv7 share: 48 bits of Unix milliseconds and
// then k bits of the clock's fraction of that millisecond (16 for generate_ulid(),
// 12 for UUIDv7's rand_a, as in PostgreSQL 18), claimed as one tick of a
// TickSequence (per process, or cluster-wide when shared), so that two claims
// never return the same tick. The caller appends the random tail.
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

// The time a tick stands for, milliseconds and nanoseconds kept apart so that no
// tick up to year 10889 overflows (nanoseconds since 1970 would after 2262).
// The nanoseconds round up, so that clock_tick() of the result is `tick` again.
template <int kFractionBits>
inline ClockMs clock_tick_time(std::uint64_t tick) noexcept {
  const std::uint64_t fraction = tick & ((std::uint64_t{1} << kFractionBits) - 1);
  return {static_cast<std::int64_t>(tick >> kFractionBits),
          static_cast<std::uint32_t>((fraction * kNsPerMs + (std::uint64_t{1} << kFractionBits) - 1) >> kFractionBits)};
}

template <int kFractionBits>
class ClockTickGenerator {
 public:
  TickSequence& ticks() noexcept { return ticks_; }

  // Makes every later tick fall after Unix millisecond `ms` (the floor of a
  // persisted mark); a negative `ms` (no mark) changes nothing.
  void start_above_ms(std::int64_t ms) noexcept {
    if (ms < 0) return;
    const std::uint64_t capped = static_cast<std::uint64_t>(ms) > kMax48BitMs ? kMax48BitMs : static_cast<std::uint64_t>(ms);
    ticks_.raise_to((capped << kFractionBits) | ((std::uint64_t{1} << kFractionBits) - 1));
  }

  // The next tick at a clock reading of `ms` and a fraction already in ticks:
  // the clock's tick when it is ahead of the last one, else the last plus one.
  GenerateStatus next_tick(std::int64_t ms, std::uint64_t fraction, std::uint64_t* tick) noexcept {
    if (ms < 0 || static_cast<std::uint64_t>(ms) > kMax48BitMs) return GenerateStatus::kClockOutOfRange;
    const std::uint64_t candidate = (static_cast<std::uint64_t>(ms) << kFractionBits) | fraction;
    // Past the last millisecond (year 10889) there is no larger tick.
    if (!ticks_.claim(candidate, tick) || (*tick >> kFractionBits) > kMax48BitMs) return GenerateStatus::kExhausted;
    return GenerateStatus::kOk;
  }

  // The same at a Unix-ns reading; a reading before 1970, even by 1 ns, is out
  // of range (its floor millisecond is negative).
  GenerateStatus next_tick_at(std::int64_t now_unix_ns, std::uint64_t* tick) noexcept {
    const ClockMs clock = split_ns(now_unix_ns);
    return next_tick(clock.ms, clock_tick<kFractionBits>(0, clock.sub_ms_ns), tick);
  }

 private:
  TickSequence ticks_;
};

}  // namespace ulid_tsid
