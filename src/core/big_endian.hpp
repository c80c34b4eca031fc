// Big-endian loads and stores. Every key here is laid out most significant
// byte first, so that byte order (memcmp, uuid's comparison) is numeric order,
// which is time order.
#pragma once

#include <cstdint>

namespace ulid_tsid {

// The first `n` (1..8) bytes as an unsigned number.
inline std::uint64_t load_be(const std::uint8_t* bytes, int n = 8) noexcept {
  std::uint64_t value = 0;
  for (int i = 0; i < n; ++i) value = (value << 8) | bytes[i];
  return value;
}

// The low `n` (1..8) bytes of `value` into bytes[0..n).
inline void store_be(std::uint64_t value, std::uint8_t* bytes, int n = 8) noexcept {
  for (int i = n - 1; i >= 0; --i, value >>= 8) bytes[i] = static_cast<std::uint8_t>(value);
}

}  // namespace ulid_tsid
