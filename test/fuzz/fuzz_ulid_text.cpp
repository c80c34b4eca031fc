// Fuzzes decode_128 (ULID text) and encode_128: the result must match the
// independent reference decoder; on success the encoding is the canonical
// upper-case text and decodes back to the same bytes; on failure the reported
// error and position say exactly what is wrong, and the output is untouched.
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string>

#include "crockford.hpp"
#include "fuzz_check.hpp"
#include "reference_codec.hpp"

using namespace ulid_tsid;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const char* text = reinterpret_cast<const char*>(data);

  std::uint8_t a[16], b[16], r[16];
  std::memset(a, 0xA5, 16);
  std::memset(b, 0x5A, 16);
  const DecodeStatus st = decode_128(text, size, a);
  const DecodeStatus st2 = decode_128(text, size, b);
  FUZZ_CHECK(st.error == st2.error && st.position == st2.position);  // deterministic
  FUZZ_CHECK(ref::from(st) == ref::decode128(text, size, r));

  if (st.ok()) {
    FUZZ_CHECK(size == kUlidTextLength);
    FUZZ_CHECK(std::memcmp(a, b, 16) == 0);
    FUZZ_CHECK(std::memcmp(a, r, 16) == 0);
    char out[kUlidTextLength];
    encode_128(a, out);
    for (std::size_t i = 0; i < kUlidTextLength; ++i) {
      const int v = crockford_value(data[i]);
      FUZZ_CHECK(out[i] == kCrockfordAlphabet[v]);  // canonical: upper case, aliases resolved
      FUZZ_CHECK(!(out[i] >= 'a' && out[i] <= 'z'));
    }
    FUZZ_CHECK(std::string(out, kUlidTextLength) == ref::encode128(a));
    std::uint8_t back[16];
    FUZZ_CHECK(decode_128(out, kUlidTextLength, back).ok());
    FUZZ_CHECK(std::memcmp(back, a, 16) == 0);
  } else {
    for (int i = 0; i < 16; ++i) FUZZ_CHECK(a[i] == 0xA5);  // untouched on failure
    switch (st.error) {
      case DecodeError::kEmpty:
        FUZZ_CHECK(size == 0 && st.position == 0);
        break;
      case DecodeError::kBadCharacter:
        FUZZ_CHECK(st.position < size);
        FUZZ_CHECK(crockford_value(data[st.position]) < 0);
        for (std::size_t i = 0; i < st.position; ++i) FUZZ_CHECK(crockford_value(data[i]) >= 0);
        break;
      case DecodeError::kBadLength:
        FUZZ_CHECK(st.position == size && size != kUlidTextLength && size != 0);
        for (std::size_t i = 0; i < size; ++i) FUZZ_CHECK(crockford_value(data[i]) >= 0);
        break;
      case DecodeError::kOverflow:
        FUZZ_CHECK(size == kUlidTextLength && st.position == 0);
        FUZZ_CHECK(crockford_value(data[0]) > 7);
        break;
      default:
        FUZZ_CHECK(false);
    }
  }

  // The other direction: the first 16 input bytes as a value.
  if (size >= 16) {
    char out[kUlidTextLength];
    encode_128(data, out);
    FUZZ_CHECK(out[0] >= '0' && out[0] <= '7');
    std::uint8_t back[16];
    FUZZ_CHECK(decode_128(out, kUlidTextLength, back).ok());
    FUZZ_CHECK(std::memcmp(back, data, 16) == 0);
  }
  return 0;
}
