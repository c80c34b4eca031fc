// Fuzzes TypeID text (typeid.hpp), 128- and 64-bit, with a fuzzer-chosen
// expected prefix. Input: byte 0 = n (low 6 bits: expected prefix length;
// bit 7: expect the text's own apparent prefix instead), then n bytes of
// expected prefix, then the text.
// On success the formatted value reproduces the input text exactly (the
// accepted form is canonical) and parsing is deterministic; on failure the
// output is untouched and the error and position say exactly what is wrong.
// The 128- and 64-bit parsers agree on everything before the suffix length.
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string>

#include "fuzz_check.hpp"
#include "typeid.hpp"

using namespace ulid_tsid;

namespace {

bool InAlphabet(unsigned char c) { return c != 0 && std::strchr(kTypeidAlphabet, c) != nullptr; }
int Value(unsigned char c) { return static_cast<int>(std::strchr(kTypeidAlphabet, c) - kTypeidAlphabet); }

// A simple restatement of the prefix rule.
bool PrefixOk(const std::string& p) {
  if (p.empty()) return true;
  if (p.size() > 63 || p.front() == '_' || p.back() == '_') return false;
  for (char c : p) if (!((c >= 'a' && c <= 'z') || c == '_')) return false;
  return true;
}

// Checks the failure's error/position against the text; suffix_len is 26 or 13.
void CheckFailure(const std::string& text, const std::string& expected, TypeidStatus st,
                  std::size_t suffix_len, int max_first) {
  const std::size_t sep = text.rfind('_');
  const bool has_sep = sep != std::string::npos;
  const std::string prefix = has_sep ? text.substr(0, sep) : std::string();
  const std::size_t start = has_sep ? sep + 1 : 0;
  const bool prefix_ok = has_sep ? (!prefix.empty() && PrefixOk(prefix)) : true;
  switch (st.error) {
    case TypeidError::kBadPrefix:
      FUZZ_CHECK(has_sep && !prefix_ok);
      FUZZ_CHECK(st.position < sep || (sep == 0 && st.position == 0));
      break;
    case TypeidError::kPrefixMismatch:
      FUZZ_CHECK(prefix_ok && prefix != expected && st.position == 0);
      break;
    case TypeidError::kMissingSuffix:
      FUZZ_CHECK(start == text.size() && st.position == text.size());
      FUZZ_CHECK(text.size() <= 1 || (prefix_ok && prefix == expected));
      break;
    case TypeidError::kBadSuffixCharacter:
      FUZZ_CHECK(prefix_ok && prefix == expected);
      FUZZ_CHECK(st.position >= start && st.position < text.size());
      FUZZ_CHECK(!InAlphabet(static_cast<unsigned char>(text[st.position])));
      for (std::size_t i = start; i < st.position; ++i) FUZZ_CHECK(InAlphabet(static_cast<unsigned char>(text[i])));
      break;
    case TypeidError::kBadSuffixLength:
      FUZZ_CHECK(prefix_ok && prefix == expected);
      FUZZ_CHECK(text.size() - start != suffix_len && text.size() > start);
      for (std::size_t i = start; i < text.size(); ++i) FUZZ_CHECK(InAlphabet(static_cast<unsigned char>(text[i])));
      FUZZ_CHECK(st.position == (text.size() - start < suffix_len ? text.size() : start + suffix_len));
      break;
    case TypeidError::kSuffixOverflow:
      FUZZ_CHECK(prefix_ok && prefix == expected);
      FUZZ_CHECK(text.size() - start == suffix_len && st.position == start);
      FUZZ_CHECK(Value(static_cast<unsigned char>(text[start])) > max_first);
      break;
    default:
      FUZZ_CHECK(false);
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size == 0) return 0;
  std::size_t n = data[0] & 63;
  if (n > size - 1) n = size - 1;
  std::string expected(reinterpret_cast<const char*>(data + 1), n);
  const std::string text(reinterpret_cast<const char*>(data + 1 + n), size - 1 - n);
  if (data[0] & 0x80) {
    const std::size_t sep = text.rfind('_');
    expected = sep == std::string::npos ? std::string() : text.substr(0, sep);
  }
  const bool expected_ok = PrefixOk(expected);
  FUZZ_CHECK(typeid_prefix_valid(expected.data(), expected.size()) == expected_ok);

  // 128 bits.
  std::uint8_t a[16], b[16];
  std::memset(a, 0xA5, 16);
  std::memset(b, 0x5A, 16);
  const TypeidStatus s1 = typeid_parse_128(text.data(), text.size(), expected.data(), expected.size(), a);
  const TypeidStatus s2 = typeid_parse_128(text.data(), text.size(), expected.data(), expected.size(), b);
  FUZZ_CHECK(s1.error == s2.error && s1.position == s2.position);
  if (s1.ok()) {
    FUZZ_CHECK(expected_ok);
    FUZZ_CHECK(std::memcmp(a, b, 16) == 0);
    char out[kTypeidMaxLength128];
    const std::size_t len = typeid_format_128(expected.data(), expected.size(), a, out);
    FUZZ_CHECK(std::string(out, len) == text);
  } else {
    for (int i = 0; i < 16; ++i) FUZZ_CHECK(a[i] == 0xA5 && b[i] == 0x5A);
    CheckFailure(text, expected, s1, 26, 7);
  }

  // 64 bits.
  std::uint64_t v = 0x1111111111111111ULL, w = 0x2222222222222222ULL;
  const TypeidStatus t1 = typeid_parse_64(text.data(), text.size(), expected.data(), expected.size(), &v);
  const TypeidStatus t2 = typeid_parse_64(text.data(), text.size(), expected.data(), expected.size(), &w);
  FUZZ_CHECK(t1.error == t2.error && t1.position == t2.position);
  if (t1.ok()) {
    FUZZ_CHECK(expected_ok && v == w);
    char out[kTypeidMaxLength64];
    const std::size_t len = typeid_format_64(expected.data(), expected.size(), v, out);
    FUZZ_CHECK(std::string(out, len) == text);
  } else {
    FUZZ_CHECK(v == 0x1111111111111111ULL && w == 0x2222222222222222ULL);
    CheckFailure(text, expected, t1, 13, 15);
  }

  // Both widths agree up to the suffix length.
  if (s1.error == TypeidError::kBadPrefix || s1.error == TypeidError::kPrefixMismatch ||
      s1.error == TypeidError::kMissingSuffix || s1.error == TypeidError::kBadSuffixCharacter) {
    FUZZ_CHECK(t1.error == s1.error && t1.position == s1.position);
  }
  if (s1.ok()) FUZZ_CHECK(t1.error == TypeidError::kBadSuffixLength);

  // The other direction: the text's first bytes as a value under a valid expected prefix.
  if (expected_ok && text.size() >= 16) {
    const auto* bytes = reinterpret_cast<const std::uint8_t*>(text.data());
    char out[kTypeidMaxLength128];
    const std::size_t len = typeid_format_128(expected.data(), expected.size(), bytes, out);
    FUZZ_CHECK(len == (expected.empty() ? 0 : expected.size() + 1) + 26);
    std::uint8_t back[16];
    FUZZ_CHECK(typeid_parse_128(out, len, expected.data(), expected.size(), back).ok());
    FUZZ_CHECK(std::memcmp(back, bytes, 16) == 0);
    std::uint64_t x;
    std::memcpy(&x, bytes, 8);
    char out64[kTypeidMaxLength64];
    const std::size_t len64 = typeid_format_64(expected.data(), expected.size(), x, out64);
    std::uint64_t y = ~x;
    FUZZ_CHECK(typeid_parse_64(out64, len64, expected.data(), expected.size(), &y).ok() && y == x);
  }
  return 0;
}
