// Drives TsidGenerator with fuzzer-chosen layouts (node bits, node id, slot) and
// clock readings: every kOk value must be strictly greater than the previous
// one, carry the layout's node id and slot, and not lie before the clock;
// kClockOutOfRange exactly when the clock is outside 2020..2159; and
// tsid_successor must equal a brute-force search when the layout has few
// counter bits.
//
// Input: 8-byte steps:
//   byte 0    clock move (low 3 bits), burst flag (0x08), new layout (0x10)
//   byte 1    node bits (0..20, mod 21); byte 2: slot bits (mod counter room + 1)
//   bytes 3-4 node id / slot seed; bytes 5-6 clock argument; byte 7 burst count
#include <cstddef>
#include <cstdint>

#include "fuzz_check.hpp"
#include "tsid.hpp"
#include "tsid_generator.hpp"

using namespace ulid_tsid;

namespace {

bool BruteSuccessor(std::uint64_t last, const TsidLayout& l, std::uint64_t* out) {
  const std::uint64_t ms = last >> kTsidLowBits;
  bool found = false;
  for (std::uint64_t m = ms; m <= ms + 1 && m <= kTsidMaxMs; ++m) {
    for (std::uint64_t c = 0; c < (std::uint64_t{1} << l.counter_bits()); ++c) {
      const std::uint64_t v =
          (m << kTsidLowBits) | (l.node_id << (kTsidLowBits - l.node_bits)) | (c << l.slot_bits) | l.slot;
      if (v > last && (!found || v < *out)) { *out = v; found = true; }
    }
    if (found) return true;
  }
  return false;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  TsidGenerator gen;
  TsidLayout layout;  // node_bits 10, node 0, no slot
  bool any = false, exhausted = false;
  std::uint64_t last = 0;
  std::int64_t now = kTsidEpochUnixMs + 100000;
  int budget = 20000;  // calls per input, to keep runs fast

  for (std::size_t off = 0; off + 8 <= size; off += 8) {
    const std::uint8_t* p = data + off;
    const std::uint16_t arg = static_cast<std::uint16_t>(p[5] << 8 | p[6]);
    const auto end = kTsidEpochUnixMs + static_cast<std::int64_t>(kTsidMaxMs);
    switch (p[0] & 7) {
      case 0: break;
      case 1: now += arg; break;
      case 2: now -= arg; break;
      case 3: now = end - arg; break;
      case 4: now = end + 1 + arg; break;
      case 5: now = kTsidEpochUnixMs - 1 - arg; break;
      case 6: now = kTsidEpochUnixMs + arg; break;
      default: now += static_cast<std::int64_t>(arg) << 20; break;
    }
    if (p[0] & 0x10) {  // writers may change node settings between calls
      TsidLayout l;
      l.node_bits = p[1] % (kTsidMaxNodeBits + 1);
      l.slot_bits = p[2] % (kTsidLowBits - l.node_bits + 1);
      const std::uint16_t seed = static_cast<std::uint16_t>(p[3] << 8 | p[4]);
      l.node_id = seed & ((std::uint64_t{1} << l.node_bits) - 1);
      l.slot = (seed >> 3) & ((std::uint64_t{1} << l.slot_bits) - 1);
      FUZZ_CHECK(l.valid());
      // Slots are fixed per writer: only the node settings may change on one sequence.
      if (!any || (l.slot_bits == layout.slot_bits && l.slot == layout.slot) || layout.slot_bits == 0) {
        if (!(any && layout.slot_bits == 0 && l.slot_bits != 0)) {
          // Another node id may still have a larger value in the last millisecond.
          if (l.node_bits != layout.node_bits || l.node_id != layout.node_id) exhausted = false;
          layout = l;
        }
      }
    }
    int burst = (p[0] & 0x08) ? 1 + p[7] * ((p[0] & 0x20) ? 64 : 1) : 1;
    if (burst > budget) burst = budget;
    budget -= burst;

    const bool in_range = now >= kTsidEpochUnixMs && now <= kTsidEpochUnixMs + static_cast<std::int64_t>(kTsidMaxMs);
    for (int k = 0; k < burst; ++k) {
      if (k == 0 && any && layout.counter_bits() <= 10 && (last >> kTsidLowBits) < kTsidMaxMs) {
        std::uint64_t want = 0;
        FUZZ_CHECK(BruteSuccessor(last, layout, &want));
        std::uint64_t got = 0;
        FUZZ_CHECK(tsid_successor(last, layout, &got) && got == want);
      }
      std::uint64_t v = 0xDEADBEEF;
      // How far into its millisecond the clock is: chosen by the input, 0..999,999.
      const std::uint32_t sub_ms_ns = (static_cast<std::uint32_t>(p[1]) << 12 | p[2] << 4 | (k & 15)) % 1000000;
      const GenerateStatus st = gen.next({now, sub_ms_ns}, layout, &v);
      if (!in_range) {
        FUZZ_CHECK(st == GenerateStatus::kClockOutOfRange);
        FUZZ_CHECK(v == 0xDEADBEEF);
      } else if (st == GenerateStatus::kOk) {
        FUZZ_CHECK(!exhausted);
        FUZZ_CHECK(!any || v > last);
        FUZZ_CHECK(tsid_node(v, layout.node_bits) == layout.node_id);
        FUZZ_CHECK((v & ((std::uint64_t{1} << layout.slot_bits) - 1)) == layout.slot);
        FUZZ_CHECK(tsid_time_ms(v) >= static_cast<std::uint64_t>(now - kTsidEpochUnixMs));
        last = v;
        any = true;
      } else {
        FUZZ_CHECK(st == GenerateStatus::kExhausted);
        FUZZ_CHECK(any && (last >> kTsidLowBits) == kTsidMaxMs);
        exhausted = true;
      }
    }
  }
  return 0;
}
