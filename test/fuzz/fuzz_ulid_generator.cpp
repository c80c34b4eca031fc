// Drives UlidGenerator and UlidMonotonicGenerator with fuzzer-chosen clock
// readings and random bytes. Each value a generator returns must be strictly
// greater than every value it returned before; kClockOutOfRange exactly when the
// clock is outside 0..kMax48BitMs; the monotonic generator's values follow its
// rules (fresh random on a new millisecond, previous + 1 otherwise).
//
// Input: a sequence of 13-byte steps:
//   byte 0      how to move the clock (see below) and which generator(s) to call
//   bytes 1-2   a burst count when bits 0x60 of byte 0 are set (calls with this
//               clock reading and per-call derived random input: up to 256, or
//               65536 with bit 0x80), so the fuzzer can reach exhaustion
//   bytes 3-4   clock argument
//   bytes 5-12  seed of the random bytes
#include <cstddef>
#include <cstdint>
#include <cstring>

#include "fuzz_check.hpp"
#include "ulid_generator.hpp"

using namespace ulid_tsid;
using u128 = unsigned __int128;

namespace {

u128 AsInt(const std::uint8_t b[16]) {
  u128 v = 0;
  for (int i = 0; i < 16; ++i) v = v << 8 | b[i];
  return v;
}

std::uint64_t SplitMix(std::uint64_t& s) {
  std::uint64_t z = (s += 0x9E3779B97F4A7C15ULL);
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
  return z ^ (z >> 31);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  UlidGenerator gen;
  UlidMonotonicGenerator mono;
  bool gen_any = false, mono_any = false, gen_exhausted = false;
  u128 gen_last = 0, mono_last = 0;
  std::int64_t now = 1700000000000;
  int budget = 70000;  // calls per input (enough to use up a millisecond), to keep runs fast

  for (std::size_t off = 0; off + 13 <= size; off += 13) {
    const std::uint8_t* p = data + off;
    const std::uint16_t arg = static_cast<std::uint16_t>(p[3] << 8 | p[4]);
    switch (p[0] & 7) {
      case 0: break;                                                     // stands still
      case 1: now += arg; break;                                         // forward
      case 2: now -= arg; break;                                         // backwards
      case 3: now = static_cast<std::int64_t>(kMax48BitMs) - arg; break;  // near the end of time
      case 4: now = static_cast<std::int64_t>(kMax48BitMs) + 1 + arg; break;  // past it
      case 5: now = -1 - static_cast<std::int64_t>(arg); break;          // before 1970
      case 6: now = arg; break;                                          // near 1970
      default: now += static_cast<std::int64_t>(arg) << 16; break;       // big jump
    }
    const int which = (p[0] >> 3) & 3;  // 0, 3: both; 1: gen only; 2: mono only
    // Most steps are single calls; some are short bursts; a few are long enough
    // (with the budget below) to use up a millisecond's 16-bit sequence.
    int burst = 1;
    if ((p[0] & 0x60) == 0x60) burst = 1 + ((p[0] & 0x80) ? (p[1] << 8 | p[2]) : p[2]);
    if (burst > budget) burst = budget;
    budget -= burst;
    std::uint64_t seed;
    std::memcpy(&seed, p + 5, 8);
    const bool in_range = now >= 0 && static_cast<std::uint64_t>(now) <= kMax48BitMs;

    for (int k = 0; k < burst; ++k) {
      std::uint8_t random[kUlidRandomBytes];
      if (k == 0) {
        std::memcpy(random, p + 5, 8);
        random[8] = p[1];
        random[9] = p[2];
      } else {
        const std::uint64_t x = SplitMix(seed), y = SplitMix(seed);
        std::memcpy(random, &x, 8);
        std::memcpy(random + 8, &y, 2);
      }
      std::uint8_t out[16];
      if (which != 2) {
        std::memset(out, 0xEE, 16);
        // The fraction comes from the first two random bytes, the tail from the rest.
        const auto fraction = static_cast<std::uint16_t>(random[0] << 8 | random[1]);
        const GenerateStatus st = gen.next({now, ulid_tsid::fraction_ns<16>(fraction)}, random + 2, out);
        if (!in_range) {
          FUZZ_CHECK(st == GenerateStatus::kClockOutOfRange);
        } else if (st == GenerateStatus::kOk) {
          // Once exhausted, never a value again (it could only repeat or go back).
          FUZZ_CHECK(!gen_exhausted);
          const u128 v = AsInt(out);
          FUZZ_CHECK(!gen_any || v > gen_last);
          // The tick is the clock's (ms, fraction) when ahead, else the last tick + 1.
          const std::uint64_t candidate = static_cast<std::uint64_t>(now) << 16 | fraction;
          const std::uint64_t last_high = gen_any ? static_cast<std::uint64_t>(gen_last >> 64) : 0;
          FUZZ_CHECK(static_cast<std::uint64_t>(v >> 64) == (candidate > last_high ? candidate : last_high + 1));
          FUZZ_CHECK(std::memcmp(out + 8, random + 2, 8) == 0);
          FUZZ_CHECK(ulid_time_ms(out) >= static_cast<std::uint64_t>(now));
          gen_last = v;
          gen_any = true;
        } else {
          FUZZ_CHECK(st == GenerateStatus::kExhausted);
          // Only when the 64-bit tick space is used up.
          FUZZ_CHECK(gen_any && static_cast<std::uint64_t>(gen_last >> 64) == ~std::uint64_t{0});
          gen_exhausted = true;
        }
      }
      if (which != 1) {
        std::memset(out, 0xEE, 16);
        const GenerateStatus st = mono.next({now, 0}, random, out);
        if (!in_range) {
          FUZZ_CHECK(st == GenerateStatus::kClockOutOfRange);
        } else if (st == GenerateStatus::kOk) {
          const u128 v = AsInt(out);
          FUZZ_CHECK(!mono_any || v > mono_last);
          const auto ms = static_cast<std::uint64_t>(now);
          if (!mono_any || ms > static_cast<std::uint64_t>(mono_last >> 80)) {
            FUZZ_CHECK(ulid_time_ms(out) == ms);
            FUZZ_CHECK(std::memcmp(out + 6, random, 10) == 0);
          } else {
            FUZZ_CHECK(v == mono_last + 1);
          }
          mono_last = v;
          mono_any = true;
        } else {
          FUZZ_CHECK(st == GenerateStatus::kExhausted);
          FUZZ_CHECK(mono_any);
          FUZZ_CHECK((mono_last & ((u128{1} << 80) - 1)) == (u128{1} << 80) - 1);
          FUZZ_CHECK(static_cast<std::uint64_t>(now) <= static_cast<std::uint64_t>(mono_last >> 80));
          for (int i = 0; i < 16; ++i) FUZZ_CHECK(out[i] == 0xEE);
        }
      }
    }
  }
  return 0;
}
