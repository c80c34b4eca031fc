// The TSID layout of f4b6a3/tsid-creator: a 64-bit value, 42 bits of
// milliseconds since 2020-01-01T00:00:00Z, then 22 bits of node id and counter.
//
// Our generator may spend the lowest bits of the counter on the writer's slot
// (see TsidLayout): the value is still a TSID, and any TSID decodes the same.
#pragma once

#include <cstdint>

namespace ulid_tsid {

inline constexpr std::int64_t kTsidEpochUnixMs = 1577836800000;  // 2020-01-01T00:00:00Z
inline constexpr int kTsidLowBits = 22;
inline constexpr std::uint64_t kTsidMaxMs = (std::uint64_t{1} << 42) - 1;  // 2159-05-15
inline constexpr int kTsidMaxNodeBits = 20;

inline std::uint64_t tsid_time_ms(std::uint64_t tsid) noexcept { return tsid >> kTsidLowBits; }

inline std::int64_t tsid_unix_ms(std::uint64_t tsid) noexcept {
  return static_cast<std::int64_t>(tsid_time_ms(tsid)) + kTsidEpochUnixMs;
}

inline std::uint64_t tsid_node(std::uint64_t tsid, int node_bits) noexcept {
  const int counter_bits = kTsidLowBits - node_bits;
  return (tsid >> counter_bits) & ((std::uint64_t{1} << node_bits) - 1);
}

inline std::uint64_t tsid_counter(std::uint64_t tsid, int node_bits) noexcept {
  return tsid & ((std::uint64_t{1} << (kTsidLowBits - node_bits)) - 1);
}

// The smallest (node and counter zero) or largest (all ones) TSID of a millisecond.
inline std::uint64_t tsid_bound(std::uint64_t ms_since_epoch, bool upper) noexcept {
  return (ms_since_epoch << kTsidLowBits) | (upper ? (std::uint64_t{1} << kTsidLowBits) - 1 : 0);
}

// How a writer fills the 22 low bits: node id (node_bits), counter, then its
// slot (slot_bits, lowest). Writers that share one tick sequence use no slot;
// writers with a sequence each use distinct slots, so their values differ in
// the lowest bits whatever their node settings.
struct TsidLayout {
  int node_bits = 0;
  std::uint64_t node_id = 0;
  int slot_bits = 0;
  std::uint64_t slot = 0;

  int counter_bits() const noexcept { return kTsidLowBits - node_bits - slot_bits; }
  bool valid() const noexcept {
    return node_bits >= 0 && node_bits <= kTsidMaxNodeBits && slot_bits >= 0 && counter_bits() >= 0 &&
           node_id < (std::uint64_t{1} << node_bits) && slot < (std::uint64_t{1} << slot_bits);
  }
  std::uint64_t compose(std::uint64_t ms, std::uint64_t counter) const noexcept {
    return (ms << kTsidLowBits) | (node_id << (kTsidLowBits - node_bits)) | (counter << slot_bits) | slot;
  }
};

// The smallest value of `layout` above `last` (whatever layout `last` had);
// false when there is none before the end of TSID time (2159).
inline bool tsid_successor(std::uint64_t last, const TsidLayout& layout, std::uint64_t* next) noexcept {
  const std::uint64_t ms = tsid_time_ms(last);
  const std::uint64_t node = tsid_node(last, layout.node_bits);
  const std::uint64_t counter = (last & ((std::uint64_t{1} << (kTsidLowBits - layout.node_bits)) - 1)) >>
                                layout.slot_bits;
  if (node < layout.node_id) {
    *next = layout.compose(ms, 0);
    return true;
  }
  if (node == layout.node_id) {
    const std::uint64_t same = layout.compose(ms, counter);
    if (same > last) {
      *next = same;
      return true;
    }
    if (counter + 1 < (std::uint64_t{1} << layout.counter_bits())) {
      *next = layout.compose(ms, counter + 1);
      return true;
    }
  }
  if (ms == kTsidMaxMs) return false;
  *next = layout.compose(ms + 1, 0);
  return true;
}

}  // namespace ulid_tsid
