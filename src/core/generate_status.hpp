// What a generator's next() reports; shared by the ULID, TSID and UUIDv7 generators.
#pragma once

#include <cstdint>

namespace ulid_tsid {

enum class GenerateStatus : std::uint8_t {
  kOk = 0,
  kClockOutOfRange,  // the clock reads outside the key's time range
  kExhausted,        // no larger value is left (end of the time range, or monotonic mode's 80 bits)
};

}  // namespace ulid_tsid
