// A second, deliberately simple Crockford base32 codec that the tests (and the
// fuzz targets) check the core against. It shares nothing with src/core: the
// alphabet is spelled out again, symbols are found by a linear search, numbers
// are big-endian byte arrays multiplied by 32 one byte at a time, and encoding
// reads the value bit by bit. Slow and obvious on purpose.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <ostream>
#include <string>

#include "crockford.hpp"

namespace ref {

inline constexpr char kAlphabet[] = "0123456789ABCDEFGHJKMNPQRSTVWXYZ";

// 0..31 for an accepted byte (either case, I/L -> 1, O -> 0), else -1.
inline int symbol_value(unsigned char c) {
  if (c >= 'a' && c <= 'z') c = static_cast<unsigned char>(c - 'a' + 'A');
  if (c == 'I' || c == 'L') return 1;
  if (c == 'O') return 0;
  for (int i = 0; i < 32; ++i) {
    if (static_cast<unsigned char>(kAlphabet[i]) == c) return i;
  }
  return -1;
}

// num = num * 32 + v on a big-endian N-byte number; false when it no longer fits.
template <std::size_t N>
bool mul32_add(std::uint8_t (&num)[N], int v) {
  unsigned carry = static_cast<unsigned>(v);
  for (std::size_t k = N; k-- > 0;) {
    const unsigned x = num[k] * 32u + carry;
    num[k] = static_cast<std::uint8_t>(x & 0xFF);
    carry = x >> 8;
  }
  return carry == 0;
}

// The outcome of a decode, comparable and printable for gtest.
struct Status {
  int error = 0;  // static_cast of ulid_tsid::DecodeError
  std::size_t position = 0;
  bool operator==(const Status& o) const { return error == o.error && position == o.position; }
  bool operator!=(const Status& o) const { return !(*this == o); }
};

inline Status from(ulid_tsid::DecodeStatus s) {
  return {static_cast<int>(s.error), s.position};
}
inline Status make(ulid_tsid::DecodeError e, std::size_t position = 0) {
  return {static_cast<int>(e), position};
}

inline std::ostream& operator<<(std::ostream& os, const Status& s) {
  static const char* const kNames[] = {"kNone", "kEmpty", "kBadLength", "kBadCharacter",
                                       "kOverflow"};
  const char* name = (s.error >= 0 && s.error <= 4) ? kNames[s.error] : "?";
  return os << "{" << name << ", position " << s.position << "}";
}

// ULID text: exactly 26 symbols, value below 2^128. The first bad byte wins over
// a wrong length (the core's documented order); a wrong length wins over overflow.
inline Status decode128(const char* text, std::size_t length, std::uint8_t out[16]) {
  using ulid_tsid::DecodeError;
  if (length == 0) return make(DecodeError::kEmpty, 0);
  for (std::size_t i = 0; i < length; ++i) {
    if (symbol_value(static_cast<unsigned char>(text[i])) < 0) {
      return make(DecodeError::kBadCharacter, i);
    }
  }
  if (length != 26) return make(DecodeError::kBadLength, length);
  std::uint8_t num[16] = {};
  for (std::size_t i = 0; i < length; ++i) {
    if (!mul32_add(num, symbol_value(static_cast<unsigned char>(text[i])))) {
      return make(DecodeError::kOverflow, 0);
    }
  }
  std::memcpy(out, num, 16);
  return make(DecodeError::kNone, 0);
}

// TSID text: exactly 13 symbols, value below 2^64.
inline Status decode64(const char* text, std::size_t length, std::uint64_t* out) {
  using ulid_tsid::DecodeError;
  if (length == 0) return make(DecodeError::kEmpty, 0);
  for (std::size_t i = 0; i < length; ++i) {
    if (symbol_value(static_cast<unsigned char>(text[i])) < 0) {
      return make(DecodeError::kBadCharacter, i);
    }
  }
  if (length != 13) return make(DecodeError::kBadLength, length);
  std::uint8_t num[8] = {};
  for (std::size_t i = 0; i < length; ++i) {
    if (!mul32_add(num, symbol_value(static_cast<unsigned char>(text[i])))) {
      return make(DecodeError::kOverflow, 0);
    }
  }
  std::uint64_t v = 0;
  for (int k = 0; k < 8; ++k) v = v * 256 + num[k];
  *out = v;
  return make(DecodeError::kNone, 0);
}

// Bit `i` (0 = most significant) of a big-endian byte string.
inline int bit_at(const std::uint8_t* bytes, int i) { return (bytes[i / 8] >> (7 - i % 8)) & 1; }

// `symbols` characters for `nbits` bits, padded with leading zero bits.
inline std::string encode_bits(const std::uint8_t* bytes, int nbits, int symbols) {
  const int pad = symbols * 5 - nbits;
  std::string out;
  for (int s = 0; s < symbols; ++s) {
    int v = 0;
    for (int b = 0; b < 5; ++b) {
      const int i = s * 5 + b - pad;
      v = v * 2 + (i < 0 ? 0 : bit_at(bytes, i));
    }
    out += kAlphabet[v];
  }
  return out;
}

inline std::string encode128(const std::uint8_t bytes[16]) { return encode_bits(bytes, 128, 26); }

inline std::string encode64(std::uint64_t value) {
  std::uint8_t be[8];
  for (int k = 7; k >= 0; --k, value >>= 8) be[k] = static_cast<std::uint8_t>(value);
  return encode_bits(be, 64, 13);
}

}  // namespace ref
