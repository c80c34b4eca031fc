// Fuzzes parse_hex_key, the public-ID key file's content parser, against an
// independent reading of the rule: accepted exactly when the input, white
// space trimmed at both ends, is 64 hexadecimal digits; then the key is those
// digits' bytes, and otherwise the key is left all zeros.
#include <cctype>
#include <cstddef>
#include <cstdint>
#include <cstring>

#include "fuzz_check.hpp"
#include "key_file.hpp"

namespace {

bool IsSpace(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\v' || c == '\f'; }

int Nibble(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const char* text = reinterpret_cast<const char*>(data);
  std::uint8_t key[32];
  std::memset(key, 0xAA, sizeof key);
  const bool ok = ulid_tsid::parse_hex_key(text, size, key, sizeof key);

  std::size_t begin = 0, end = size;
  while (begin < end && IsSpace(text[begin])) ++begin;
  while (end > begin && IsSpace(text[end - 1])) --end;
  bool expected = end - begin == 64;
  std::uint8_t want[32] = {};
  for (std::size_t i = 0; expected && i < 32; ++i) {
    const int high = Nibble(text[begin + 2 * i]), low = Nibble(text[begin + 2 * i + 1]);
    if (high < 0 || low < 0) expected = false;
    else want[i] = static_cast<std::uint8_t>(high << 4 | low);
  }
  FUZZ_CHECK(ok == expected);
  if (!ok) std::memset(want, 0, sizeof want);
  FUZZ_CHECK(std::memcmp(key, want, sizeof key) == 0);
  return 0;
}
