// The two ULID generators. Both are pure state machines: the caller hands in the
// clock reading and the random bytes, so tests can drive them with a simulated
// clock.
#pragma once

#include <cstdint>

#include "ticks.hpp"
#include "ulid.hpp"

namespace ulid_tsid {

inline constexpr int kUlidRandomBytes = 10;

enum class GenerateStatus : std::uint8_t {
  kOk = 0,
  kClockOutOfRange,  // the clock reads before 1970 or past the layout's last millisecond
  kExhausted,        // no larger value is left (monotonic mode's 80-bit part, or year 10889)
};

// generate_ulid(): the first 8 bytes are a tick of (48-bit ms, 16-bit sequence)
// that strictly increases in its TickSequence (per process, or cluster-wide when
// shared); each new millisecond starts its sequence at a random 15-bit value, and
// the last 8 bytes are always fresh random bits, so no value can be guessed from
// the previous one and a burst of 32,768 or more values fits in each millisecond
// before the timestamp runs ahead of the clock.
class UlidGenerator {
 public:
  TickSequence& ticks() noexcept { return ticks_; }

  GenerateStatus next(std::int64_t now_ms, const std::uint8_t random[kUlidRandomBytes],
                      std::uint8_t out[16]) noexcept {
    if (now_ms < 0 || static_cast<std::uint64_t>(now_ms) > kUlidMaxMs) {
      return GenerateStatus::kClockOutOfRange;
    }
    const std::uint64_t sequence_start = ((random[0] << 8) | random[1]) & 0x7FFF;
    const std::uint64_t candidate = (static_cast<std::uint64_t>(now_ms) << 16) | sequence_start;
    // A later millisecond starts at the candidate; within the same (or an
    // earlier, when the clock stepped back) millisecond the sequence counts on,
    // and at the very last tick (year 10889) it refuses rather than wrap.
    std::uint64_t high = 0;
    const bool claimed = ticks_.try_advance(
        [candidate](std::uint64_t last, std::uint64_t* next) {
          // last == 0: nothing claimed yet (a candidate of 0 then falls through to 1).
          if ((candidate >> 16) > (last >> 16) || (last == 0 && candidate > 0)) {
            *next = candidate;
            return true;
          }
          if (last == ~std::uint64_t{0}) return false;
          *next = last + 1;
          return true;
        },
        &high);
    if (!claimed) return GenerateStatus::kExhausted;
    std::uint64_t low = 0;
    for (int i = 2; i < kUlidRandomBytes; ++i) low = (low << 8) | random[i];
    ulid_store(high, low, out);
    return GenerateStatus::kOk;
  }

 private:
  TickSequence ticks_;
};

// generate_ulid_monotonic(): the ULID spec's monotonic mode, per process. A new
// millisecond draws 80 fresh random bits; the same millisecond (or a clock that
// went back) takes the previous value plus one; when that would overflow the 80
// bits it fails rather than wrap.
class UlidMonotonicGenerator {
 public:
  GenerateStatus next(std::int64_t now_ms, const std::uint8_t random[kUlidRandomBytes],
                      std::uint8_t out[16]) noexcept {
    if (now_ms < 0 || static_cast<std::uint64_t>(now_ms) > kUlidMaxMs) {
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
