// generate_tsid(): the next TSID of a tick sequence that holds whole TSIDs, so
// that two claims can never return the same value. A new millisecond starts its
// counter at zero; when a millisecond's counter is used up the value moves to the
// next millisecond, and the caller waits for the clock to get there.
#pragma once

#include <cstdint>

#include "ticks.hpp"
#include "tsid.hpp"
#include "ulid_generator.hpp"

namespace ulid_tsid {

class TsidGenerator {
 public:
  TickSequence& ticks() noexcept { return ticks_; }

  // A per-process sequence starts after every value of the current millisecond,
  // so a backend that reuses an exited backend's slot cannot repeat its values.
  void start_after_ms(std::uint64_t ms_since_epoch) noexcept {
    ticks_.resume_after(tsid_bound(ms_since_epoch, true));
  }

  GenerateStatus next(std::int64_t now_unix_ms, const TsidLayout& layout, std::uint64_t* out) noexcept {
    if (now_unix_ms < kTsidEpochUnixMs ||
        static_cast<std::uint64_t>(now_unix_ms - kTsidEpochUnixMs) > kTsidMaxMs) {
      return GenerateStatus::kClockOutOfRange;
    }
    const std::uint64_t candidate = layout.compose(static_cast<std::uint64_t>(now_unix_ms - kTsidEpochUnixMs), 0);
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
