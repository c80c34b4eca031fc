// The real-time clock, read through the vDSO (no system call).
#pragma once

#include <cstdint>
#include <ctime>

namespace ulid_tsid {

inline std::int64_t realtime_ns() noexcept {
  timespec ts;
  clock_gettime(CLOCK_REALTIME, &ts);
  return static_cast<std::int64_t>(ts.tv_sec) * 1000000000 + ts.tv_nsec;
}

}  // namespace ulid_tsid
