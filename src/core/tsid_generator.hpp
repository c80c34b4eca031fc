// generate_tsid(): the next TSID of a tick sequence that holds whole TSIDs, so
// that two claims can never return the same value. A fresh clock reading starts
// the counter at the clock's fraction of the millisecond, so that writers with
// separate sequences (distinct slots) still produce values in time order and
// append at the right edge of an index; otherwise the counter counts on. When a
// millisecond's counter is used up the value moves to the next millisecond, and
// the caller waits for the clock to get there.
#pragma once

#include <cstdint>

#include "generate_status.hpp"
#include "ticks.hpp"
#include "tsid.hpp"

namespace ulid_tsid {

class TsidGenerator {
 public:
  TickSequence& ticks() noexcept { return ticks_; }

  // A per-process sequence starts after every value of the current millisecond,
  // so a backend that reuses an exited backend's slot cannot repeat its values.
  void start_after_ms(std::uint64_t ms_since_epoch) noexcept {
    ticks_.resume_after(tsid_bound(ms_since_epoch, true));
  }

  // `sub_ms_ns`: how far into its millisecond the clock is (0..999,999).
  GenerateStatus next(std::int64_t now_unix_ms, const TsidLayout& layout, std::uint64_t* out,
                      std::uint32_t sub_ms_ns = 0) noexcept {
    if (now_unix_ms < kTsidEpochUnixMs ||
        static_cast<std::uint64_t>(now_unix_ms - kTsidEpochUnixMs) > kTsidMaxMs) {
      return GenerateStatus::kClockOutOfRange;
    }
    if (sub_ms_ns > 999999) sub_ms_ns = 999999;
    const std::uint64_t counter_start = (std::uint64_t{sub_ms_ns} << layout.counter_bits()) / 1000000;
    const std::uint64_t candidate =
        layout.compose(static_cast<std::uint64_t>(now_unix_ms - kTsidEpochUnixMs), counter_start);
    std::uint64_t value = 0;
    const bool claimed = ticks_.try_advance(
        [&layout, candidate](std::uint64_t last, std::uint64_t* next) {
          if (!tsid_successor(last, layout, next)) return false;
          if (*next < candidate) *next = candidate;
          return true;
        },
        &value);
    if (!claimed) return GenerateStatus::kExhausted;
    *out = value;
    return GenerateStatus::kOk;
  }

 private:
  TickSequence ticks_;
};

}  // namespace ulid_tsid
