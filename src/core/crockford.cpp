#include "crockford.hpp"

#include <array>

#include "big_endian.hpp"

namespace ulid_tsid {
namespace {

constexpr std::array<std::int8_t, 256> MakeDecodeTable() {
  std::array<std::int8_t, 256> table{};
  for (auto& entry : table) entry = -1;
  for (int i = 0; i < 32; ++i) {
    const char upper = kCrockfordAlphabet[i];
    table[static_cast<unsigned char>(upper)] = static_cast<std::int8_t>(i);
    if (upper >= 'A' && upper <= 'Z') {
      table[static_cast<unsigned char>(upper - 'A' + 'a')] = static_cast<std::int8_t>(i);
    }
  }
  // Crockford's aliases: symbols people misread as digits.
  table['I'] = table['i'] = table['L'] = table['l'] = 1;
  table['O'] = table['o'] = 0;
  return table;
}

constexpr std::array<std::int8_t, 256> kDecodeTable = MakeDecodeTable();

}  // namespace

int crockford_value(unsigned char c) noexcept { return kDecodeTable[c]; }

void encode_128(const std::uint8_t bytes[16], char out[kUlidTextLength], const char* alphabet) noexcept {
  std::uint64_t hi = load_be(bytes), lo = load_be(bytes + 8);
  // 26 symbols carry 130 bits: the first holds the top 3 bits, the rest 5 each.
  for (int i = static_cast<int>(kUlidTextLength) - 1; i >= 0; --i) {
    out[i] = alphabet[lo & 31];
    lo = (lo >> 5) | (hi << 59);
    hi >>= 5;
  }
}

DecodeStatus decode_128(const char* text, std::size_t length, std::uint8_t bytes[16]) noexcept {
  if (length == 0) return {DecodeError::kEmpty, 0};
  std::uint64_t hi = 0, lo = 0;
  // Report the first bad character even when the length is also wrong: it is the
  // more useful hint (a pasted quote or space), and both are rejected anyway.
  for (std::size_t i = 0; i < length; ++i) {
    const int v = kDecodeTable[static_cast<unsigned char>(text[i])];
    if (v < 0) return {DecodeError::kBadCharacter, i};
    if (i < kUlidTextLength) {
      hi = (hi << 5) | (lo >> 59);
      lo = (lo << 5) | static_cast<std::uint64_t>(v);
    }
  }
  if (length != kUlidTextLength) return {DecodeError::kBadLength, length};
  if (kDecodeTable[static_cast<unsigned char>(text[0])] > 7) return {DecodeError::kOverflow, 0};
  store_be(hi, bytes);
  store_be(lo, bytes + 8);
  return {};
}

void encode_64(std::uint64_t value, char out[kTsidTextLength], const char* alphabet) noexcept {
  // 13 symbols carry 65 bits: the first holds the top 4 bits.
  for (int i = static_cast<int>(kTsidTextLength) - 1; i >= 0; --i) {
    out[i] = alphabet[value & 31];
    value >>= 5;
  }
}

DecodeStatus decode_64(const char* text, std::size_t length, std::uint64_t* value) noexcept {
  if (length == 0) return {DecodeError::kEmpty, 0};
  std::uint64_t result = 0;
  for (std::size_t i = 0; i < length; ++i) {
    const int v = kDecodeTable[static_cast<unsigned char>(text[i])];
    if (v < 0) return {DecodeError::kBadCharacter, i};
    result = (result << 5) | static_cast<std::uint64_t>(v);
  }
  if (length != kTsidTextLength) return {DecodeError::kBadLength, length};
  if (kDecodeTable[static_cast<unsigned char>(text[0])] > 15) {
    return {DecodeError::kOverflow, 0};
  }
  *value = result;
  return {};
}

bool tsid_text_with_leading_zero(const char* text, std::size_t length, char out[kTsidTextLength]) noexcept {
  if (length + 1 != kTsidTextLength) return false;
  for (std::size_t i = 0; i < length; ++i) {
    if (kDecodeTable[static_cast<unsigned char>(text[i])] < 0) return false;
  }
  out[0] = '0';
  for (std::size_t i = 0; i < length; ++i) {
    out[i + 1] = kCrockfordAlphabet[kDecodeTable[static_cast<unsigned char>(text[i])]];
  }
  return true;
}

bool is_decimal_integer(const char* text, std::size_t length) noexcept {
  std::size_t i = (length > 0 && (text[0] == '-' || text[0] == '+')) ? 1 : 0;
  if (i == length) return false;
  for (; i < length; ++i) {
    if (text[i] < '0' || text[i] > '9') return false;
  }
  return true;
}

}  // namespace ulid_tsid
