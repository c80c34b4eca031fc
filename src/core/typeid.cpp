#include "typeid.hpp"

#include <cstring>

#include "crockford.hpp"

namespace ulid_tsid {

static_assert(kTypeidSuffixLength128 == kUlidTextLength && kTypeidSuffixLength64 == kTsidTextLength,
              "a TypeID suffix is the Crockford text of the same bits");

namespace {

// Strictly the lower-case alphabet: no upper case, no Crockford aliases. What
// passes decodes with the Crockford decoder, which reads lower case the same.
constexpr bool IsTypeidSymbol(unsigned char c) noexcept {
  return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'z' && c != 'i' && c != 'l' && c != 'o' && c != 'u');
}

constexpr bool IsLower(unsigned char c) noexcept { return c >= 'a' && c <= 'z'; }

// What the 128- and 64-bit parsers share: split, prefix checks, suffix checks.
// On success, *suffix_start is the offset of the suffix (of exactly
// suffix_length valid symbols whose first is at most max_first).
TypeidStatus ParseCommon(const char* text, std::size_t length, const char* expected,
                         std::size_t expected_length, std::size_t suffix_length, int max_first,
                         std::size_t* suffix_start) noexcept {
  if (length == 0) return {TypeidError::kMissingSuffix, 0};

  // Split at the last underscore.
  std::size_t sep = length;  // == length: no separator
  for (std::size_t i = length; i > 0; --i) {
    if (text[i - 1] == '_') { sep = i - 1; break; }
  }
  const bool has_sep = sep != length;
  const std::size_t prefix_length = has_sep ? sep : 0;
  const std::size_t start = has_sep ? sep + 1 : 0;

  if (has_sep) {
    if (prefix_length == 0) {
      // "_" alone is a lone separator; "_xyz" a separator without a prefix.
      if (start == length) return {TypeidError::kMissingSuffix, length};
      return {TypeidError::kBadPrefix, 0};
    }
    const TypeidStatus st = typeid_prefix_check(text, prefix_length);
    if (!st.ok()) return st;
  }
  if (prefix_length != expected_length ||
      (prefix_length != 0 && std::memcmp(text, expected, prefix_length) != 0)) {
    return {TypeidError::kPrefixMismatch, 0};
  }
  if (start == length) return {TypeidError::kMissingSuffix, length};

  // Report the first bad character even when the length is also wrong: it is
  // the more useful hint (a pasted space or quote), as in crockford.cpp.
  for (std::size_t i = start; i < length; ++i) {
    if (!IsTypeidSymbol(static_cast<unsigned char>(text[i]))) {
      return {TypeidError::kBadSuffixCharacter, i};
    }
  }
  const std::size_t got = length - start;
  if (got < suffix_length) return {TypeidError::kBadSuffixLength, length};
  if (got > suffix_length) return {TypeidError::kBadSuffixLength, start + suffix_length};
  if (crockford_value(static_cast<unsigned char>(text[start])) > max_first) {
    return {TypeidError::kSuffixOverflow, start};
  }
  *suffix_start = start;
  return {};
}

// ParseCommon(), then the suffix, checked by it, handed to `decode` (which
// cannot fail on it).
template <typename Decode>
TypeidStatus ParseWith(const char* text, std::size_t length, const char* expected_prefix,
                       std::size_t expected_length, std::size_t suffix_length, int max_first,
                       Decode decode) noexcept {
  std::size_t start = 0;
  const TypeidStatus st =
      ParseCommon(text, length, expected_prefix, expected_length, suffix_length, max_first, &start);
  if (st.ok()) decode(text + start);
  return st;
}

std::size_t WritePrefix(const char* prefix, std::size_t prefix_length, char* out) noexcept {
  if (prefix_length == 0) return 0;
  std::memcpy(out, prefix, prefix_length);
  out[prefix_length] = '_';
  return prefix_length + 1;
}

}  // namespace

TypeidStatus typeid_prefix_check(const char* prefix, std::size_t length) noexcept {
  if (length == 0) return {};
  const std::size_t scan = length < kTypeidMaxPrefixLength ? length : kTypeidMaxPrefixLength;
  for (std::size_t i = 0; i < scan; ++i) {
    const unsigned char c = static_cast<unsigned char>(prefix[i]);
    if (IsLower(c)) continue;
    if (c == '_' && i != 0) continue;
    return {TypeidError::kBadPrefix, i};
  }
  if (length > kTypeidMaxPrefixLength) return {TypeidError::kBadPrefix, kTypeidMaxPrefixLength};
  if (prefix[length - 1] == '_') return {TypeidError::kBadPrefix, length - 1};
  return {};
}

bool typeid_prefix_valid(const char* prefix, std::size_t length) noexcept {
  return typeid_prefix_check(prefix, length).ok();
}

const char* typeid_error_message(TypeidError error) noexcept {
  switch (error) {
    case TypeidError::kNone: return "no error";
    case TypeidError::kBadPrefix:
      return "invalid prefix (at most 63 characters a-z and '_', starting and ending with a letter)";
    case TypeidError::kPrefixMismatch: return "prefix does not match the expected prefix";
    case TypeidError::kMissingSuffix: return "missing suffix";
    case TypeidError::kBadSuffixLength: return "suffix has the wrong length";
    case TypeidError::kBadSuffixCharacter:
      return "invalid suffix character (only 0-9 and lower-case a-z except i, l, o, u)";
    case TypeidError::kSuffixOverflow: return "suffix encodes a value too large";
  }
  return "unknown error";
}

std::size_t typeid_format_128(const char* prefix, std::size_t prefix_length,
                              const std::uint8_t bytes[16], char* out) noexcept {
  const std::size_t n = WritePrefix(prefix, prefix_length, out);
  encode_128(bytes, out + n, kTypeidAlphabet);
  return n + kTypeidSuffixLength128;
}

std::size_t typeid_format_64(const char* prefix, std::size_t prefix_length, std::uint64_t value,
                             char* out) noexcept {
  const std::size_t n = WritePrefix(prefix, prefix_length, out);
  encode_64(value, out + n, kTypeidAlphabet);
  return n + kTypeidSuffixLength64;
}

TypeidStatus typeid_parse_128(const char* text, std::size_t length, const char* expected_prefix,
                              std::size_t expected_length, std::uint8_t bytes[16]) noexcept {
  return ParseWith(text, length, expected_prefix, expected_length, kTypeidSuffixLength128, 7,
                   [bytes](const char* suffix) { decode_128(suffix, kTypeidSuffixLength128, bytes); });
}

TypeidStatus typeid_parse_64(const char* text, std::size_t length, const char* expected_prefix,
                             std::size_t expected_length, std::uint64_t* value) noexcept {
  return ParseWith(text, length, expected_prefix, expected_length, kTypeidSuffixLength64, 15,
                   [value](const char* suffix) { decode_64(suffix, kTypeidSuffixLength64, value); });
}

}  // namespace ulid_tsid
