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
inline constexpr int kUlidTailBytes = 8;  // the random bytes of generate_ulid()

// generate_ulid(): the first 8 bytes are a tick of (48-bit ms, 16-bit
// sub-millisecond fraction of the clock, in 65,536ths) from the generator that
// UUIDv7 shares (clock_ticks.hpp). The last 8 bytes are always fresh random
// bits, so no value can be guessed from the previous one. Because the fraction
// follows the clock, values of concurrent backends keep time order within a
// millisecond too and append at the right edge of a B-tree even without shared
// ticks; a tick is ~15 ns, shorter than any call, so a session's values do not
// run ahead of the clock.
inline void ulid_store_tick(std::uint64_t tick, const std::uint8_t* random, std::uint8_t* out) noexcept {
  ulid_store(tick, load_be(random), out);
}
using UlidGenerator = ClockTickGenerator<kUlidFractionBits, ulid_store_tick>;
static_assert(UlidGenerator::kRandomBytes == kUlidTailBytes);

// generate_ulid_monotonic(): the ULID spec's monotonic mode. A new millisecond
// draws 80 fresh random bits; the same millisecond (or a clock that went back)
// takes the previous value plus one; when that would overflow the 80 bits it
// fails rather than wrap. One generator is one sequence: a backend's own, or
// (GuardedUlidMonotonic below) one in shared memory for every backend.
//
// A floor (start_above_ms(), from a persisted mark) makes a clock reading at or
// below it read as the millisecond after it: values continue from there, by
// the same +1 within that millisecond, until the clock passes it.
class UlidMonotonicGenerator {
 public:
  void start_above_ms(std::int64_t ms) noexcept {
    if (ms > floor_ms_) floor_ms_ = ms;
  }

  // Forgets the last value and makes `ms` the floor, lower or higher
  // (ulid_tsid_mark_reset()): the next value is a new millisecond's.
  void reset_above_ms(std::int64_t ms) noexcept {
    floor_ms_ = ms;
    has_last_ = false;
    last_ms_ = -1;
  }

  // Whether next(now, ...) will read its random bytes: only a new
  // millisecond does, so a caller can skip drawing them within one.
  bool needs_random(ClockMs now) const noexcept {
    const std::int64_t now_ms = effective_ms(now.ms);
    return !has_last_ || now_ms < 0 || now_ms > last_ms_;
  }

  // Only the millisecond of `now` counts.
  GenerateStatus next(ClockMs now, const std::uint8_t random[kUlidRandomBytes], std::uint8_t out[16]) noexcept {
    std::int64_t now_ms = now.ms;
    if (now_ms >= 0 && now_ms <= floor_ms_ && static_cast<std::uint64_t>(floor_ms_) >= kMax48BitMs) {
      return GenerateStatus::kExhausted;
    }
    now_ms = effective_ms(now_ms);
    if (now_ms < 0 || static_cast<std::uint64_t>(now_ms) > kMax48BitMs) {
      return GenerateStatus::kClockOutOfRange;
    }
    if (!has_last_ || now_ms > last_ms_) {
      ulid_bound(static_cast<std::uint64_t>(now_ms), false, last_);
      for (int i = 0; i < kUlidRandomBytes; ++i) last_[6 + i] = random[i];
      last_ms_ = now_ms;
      has_last_ = true;
    } else if (!ulid_increment_random(last_)) {
      return GenerateStatus::kExhausted;
    }
    for (int i = 0; i < 16; ++i) out[i] = last_[i];
    return GenerateStatus::kOk;
  }

  // The millisecond of the last value (-1 before the first): the one in its bytes.
  std::int64_t last_ms() const noexcept { return last_ms_; }

 private:
  // The clock reading, or the millisecond after the floor when it is not past it.
  std::int64_t effective_ms(std::int64_t now_ms) const noexcept {
    return now_ms < 0 || now_ms > floor_ms_ ? now_ms : floor_ms_ + 1;
  }

  std::int64_t floor_ms_ = -1;
  std::int64_t last_ms_ = -1;  // ulid_time_ms(last_), kept apart: cheaper than reading the bytes
  bool has_last_ = false;
  std::uint8_t last_[16] = {};
};

// One UlidMonotonicGenerator that several callers share (cluster-wide when
// preloaded: it lives in shared memory): each operation runs under `Lock`,
// which has noexcept lock() and unlock() (the Postgres skin's spinlock). Only
// the generator's few instructions run under it: callers draw the random bytes
// before, always (whether the shared state needs them is known only under the
// lock), and report failures after.
template <typename Lock>
class GuardedUlidMonotonic {
 public:
  // `value_ms` gets the millisecond of the value written (read under the lock:
  // the generator may have moved on by the time the caller looks).
  GenerateStatus next(ClockMs now, const std::uint8_t random[kUlidRandomBytes], std::uint8_t out[16],
                      std::int64_t* value_ms) noexcept {
    lock_.lock();
    const GenerateStatus status = generator_.next(now, random, out);
    *value_ms = generator_.last_ms();
    lock_.unlock();
    return status;
  }

  void start_above_ms(std::int64_t ms) noexcept {
    lock_.lock();
    generator_.start_above_ms(ms);
    lock_.unlock();
  }

  void reset_above_ms(std::int64_t ms) noexcept {
    lock_.lock();
    generator_.reset_above_ms(ms);
    lock_.unlock();
  }

 private:
  Lock lock_;
  UlidMonotonicGenerator generator_;
};

}  // namespace ulid_tsid
