// Fuzzes decode_64 (TSID text, exactly 13 characters), encode_64 and
// tsid_text_with_leading_zero (the 12-character hint), like
// fuzz_ulid_text: reference agreement, canonical re-encoding, exact errors.
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

  std::uint64_t a = 0xA5A5A5A5A5A5A5A5ULL, b = 0x5A5A5A5A5A5A5A5AULL, r = 0;
  const DecodeStatus st = decode_64(text, size, &a);
  const DecodeStatus st2 = decode_64(text, size, &b);
  FUZZ_CHECK(st.error == st2.error && st.position == st2.position);
  FUZZ_CHECK(ref::from(st) == ref::decode64(text, size, &r));

  if (st.ok()) {
    FUZZ_CHECK(size == kTsidTextLength);
    FUZZ_CHECK(a == b && a == r);
    char out[kTsidTextLength];
    encode_64(a, out);
    FUZZ_CHECK(std::string(out, kTsidTextLength) == ref::encode64(a));
    // The canonical text is the input, upper-cased and aliases resolved.
    for (std::size_t i = 0; i < size; ++i) {
      FUZZ_CHECK(out[i] == kCrockfordAlphabet[crockford_value(data[i])]);
    }
    std::uint64_t back = ~a;
    FUZZ_CHECK(decode_64(out, kTsidTextLength, &back).ok() && back == a);
  } else {
    FUZZ_CHECK(a == 0xA5A5A5A5A5A5A5A5ULL);
    switch (st.error) {
      case DecodeError::kEmpty:
        FUZZ_CHECK(size == 0 && st.position == 0);
        break;
      case DecodeError::kBadCharacter:
        FUZZ_CHECK(st.position < size && crockford_value(data[st.position]) < 0);
        for (std::size_t i = 0; i < st.position; ++i) FUZZ_CHECK(crockford_value(data[i]) >= 0);
        break;
      case DecodeError::kBadLength:
        FUZZ_CHECK(st.position == size && size != kTsidTextLength && size != 0);
        for (std::size_t i = 0; i < size; ++i) FUZZ_CHECK(crockford_value(data[i]) >= 0);
        break;
      case DecodeError::kOverflow:
        FUZZ_CHECK(size == kTsidTextLength && st.position == 0 && crockford_value(data[0]) > 15);
        break;
      default:
        FUZZ_CHECK(false);
    }
  }

  // The hint's 13-character form: exactly for 12 symbols ('0' then the canonical
  // symbols), and it always decodes to a TSID that prints as that form.
  char padded[kTsidTextLength];
  const bool has_padded = tsid_text_with_leading_zero(text, size, padded);
  FUZZ_CHECK(has_padded == (st.error == DecodeError::kBadLength && size == kTsidTextLength - 1));
  if (has_padded) {
    std::uint64_t v = 0;
    FUZZ_CHECK(decode_64(padded, kTsidTextLength, &v).ok() && (v >> 60) == 0);
    char again[kTsidTextLength];
    encode_64(v, again);
    FUZZ_CHECK(std::memcmp(again, padded, kTsidTextLength) == 0);
    for (std::size_t i = 0; i < size; ++i) FUZZ_CHECK(padded[i + 1] == kCrockfordAlphabet[crockford_value(data[i])]);
  }

  if (size >= 8) {
    std::uint64_t v = 0;
    std::memcpy(&v, data, 8);
    char out[kTsidTextLength];
    encode_64(v, out);
    std::uint64_t back = ~v;
    FUZZ_CHECK(decode_64(out, kTsidTextLength, &back).ok() && back == v);
  }
  return 0;
}
