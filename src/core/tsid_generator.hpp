// generate_tsid(): the next TSID of a tick sequence that holds whole TSIDs, so
// that two claims can never return the same value. A fresh clock reading starts
// the counter at the clock's fraction of the millisecond, so that writers with
// separate sequences (distinct slots) still produce values in time order and
// append at the right edge of an index; otherwise the counter counts on. When a
// millisecond's counter is used up the value moves to the next millisecond, and
// the caller waits for the clock to get there.
#pragma once

#include <cstdint>

#include "clock.hpp"
#include "ticks.hpp"
#include "tsid.hpp"

namespace ulid_tsid {

class TsidGenerator {
 public:
  TickSequence& ticks() noexcept { return ticks_; }

  // Makes the first value of a per-process sequence start after every value of
  // the millisecond it is made in, so that a backend that reuses an exited
  // backend's slot cannot repeat its values. Only a value actually produced
  // uses this up: a clock reading out of range leaves it armed.
  void start_after_first_millisecond() noexcept { start_pending_ = true; }

  // Makes every later value fall after Unix millisecond `unix_ms` (the floor of
  // a persisted mark): the next one is the first of the millisecond after it,
  // unless the clock is further on. Before the TSID epoch it changes nothing.
  void start_above_ms(std::int64_t unix_ms) noexcept {
    if (unix_ms < kTsidEpochUnixMs) return;
    std::uint64_t ms = static_cast<std::uint64_t>(unix_ms - kTsidEpochUnixMs);
    if (ms > kTsidMaxMs) ms = kTsidMaxMs;
    ticks_.raise_to(tsid_bound(ms, true));
  }

  // Makes the last value the last of Unix millisecond `unix_ms`, lower or
  // higher (ulid_tsid_mark_reset()); before the epoch, the epoch's start.
  void reset_above_ms(std::int64_t unix_ms) noexcept {
    if (unix_ms < kTsidEpochUnixMs) {
      ticks_.reset_to(0);
      return;
    }
    std::uint64_t ms = static_cast<std::uint64_t>(unix_ms - kTsidEpochUnixMs);
    if (ms > kTsidMaxMs) ms = kTsidMaxMs;
    ticks_.reset_to(tsid_bound(ms, true));
  }

  // The next value at clock reading `now`, in `layout`.
  GenerateStatus next(ClockMs now, const TsidLayout& layout, std::uint64_t* out) noexcept {
    const std::int64_t now_unix_ms = now.ms;
    if (now_unix_ms < kTsidEpochUnixMs ||
        static_cast<std::uint64_t>(now_unix_ms - kTsidEpochUnixMs) > kTsidMaxMs) {
      return GenerateStatus::kClockOutOfRange;
    }
    const auto ms = static_cast<std::uint64_t>(now_unix_ms - kTsidEpochUnixMs);
    const std::uint32_t sub_ms_ns = now.sub_ms_ns > 999999 ? 999999 : now.sub_ms_ns;
    const std::uint64_t counter_start = (std::uint64_t{sub_ms_ns} << layout.counter_bits()) / 1000000;
    std::uint64_t candidate = layout.compose(ms, counter_start);
    const bool starting = start_pending_ && !ticks_.shared();
    if (starting) {
      if (ms == kTsidMaxMs) return GenerateStatus::kExhausted;
      candidate = layout.compose(ms + 1, 0);
    }
    std::uint64_t value = 0;
    const bool claimed = ticks_.try_advance(
        [&layout, candidate](std::uint64_t last, std::uint64_t* next) {
          if (!tsid_successor(last, layout, next)) return false;
          if (*next < candidate) *next = candidate;
          return true;
        },
        &value);
    if (!claimed) return GenerateStatus::kExhausted;
    if (starting) start_pending_ = false;
    *out = value;
    return GenerateStatus::kOk;
  }

 private:
  TickSequence ticks_;
  bool start_pending_ = false;
};

}  // namespace ulid_tsid
