// The real-time and monotonic clocks, read through the vDSO (no system call),
// and the split of a reading into whole milliseconds and the nanoseconds into
// the millisecond.
#pragma once

#include <cstdint>
#include <ctime>

namespace ulid_tsid {

inline constexpr std::int64_t kNsPerMs = 1000000;

inline std::int64_t realtime_ns() noexcept {
  timespec ts;
  clock_gettime(CLOCK_REALTIME, &ts);
  return static_cast<std::int64_t>(ts.tv_sec) * 1000000000 + ts.tv_nsec;
}

// The monotonic clock: no step of the real-time clock (settimeofday, an NTP
// step) moves it, so it bounds how long a wait for the real-time clock lasts.
inline std::int64_t monotonic_ns() noexcept {
  timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return static_cast<std::int64_t>(ts.tv_sec) * 1000000000 + ts.tv_nsec;
}

// A Unix-ns reading as floor milliseconds and 0..999,999 ns past them. Floor,
// not truncation: a reading just before 1970 is millisecond -1, never 0, so
// range checks on `ms` see it, and no code shifts a negative remainder.
struct ClockMs {
  std::int64_t ms;
  std::uint32_t sub_ms_ns;
};

inline ClockMs split_ns(std::int64_t unix_ns) noexcept {
  std::int64_t ms = unix_ns / kNsPerMs;
  std::int64_t rest = unix_ns % kNsPerMs;
  if (rest < 0) {
    ms -= 1;
    rest += kNsPerMs;
  }
  return {ms, static_cast<std::uint32_t>(rest)};
}

}  // namespace ulid_tsid
