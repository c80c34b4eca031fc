// Crockford base32 of the core (crockford.hpp), checked against exact
// expectations and against the independent reference codec in reference_codec.hpp.
#include <gtest/gtest.h>

#include <cstring>
#include <random>
#include <string>

#include "crockford.hpp"
#include "reference_codec.hpp"

namespace {

using ulid_tsid::DecodeError;
using ulid_tsid::decode_128;
using ulid_tsid::decode_64;
using ulid_tsid::encode_128;
using ulid_tsid::encode_64;

ref::Status Decode128(const std::string& s, std::uint8_t out[16]) {
  return ref::from(decode_128(s.data(), s.size(), out));
}
ref::Status Decode64(const std::string& s, std::uint64_t* out) {
  return ref::from(decode_64(s.data(), s.size(), out));
}
std::string Encode128(const std::uint8_t b[16]) {
  char buf[26];
  encode_128(b, buf);
  return std::string(buf, 26);
}
std::string Encode64(std::uint64_t v) {
  char buf[13];
  encode_64(v, buf);
  return std::string(buf, 13);
}
std::string Hex(const std::uint8_t* b, int n) {
  static const char* d = "0123456789abcdef";
  std::string s;
  for (int i = 0; i < n; ++i) { s += d[b[i] >> 4]; s += d[b[i] & 15]; }
  return s;
}

const ref::Status kOk = ref::make(DecodeError::kNone);

// Every byte that must be accepted, with its value.
bool ExpectedAccepted(int c, int* value) {
  const std::string alphabet = "0123456789ABCDEFGHJKMNPQRSTVWXYZ";
  for (int i = 0; i < 32; ++i) {
    if (c == alphabet[i]) { *value = i; return true; }
    if (alphabet[i] >= 'A' && c == alphabet[i] - 'A' + 'a') { *value = i; return true; }
  }
  switch (c) {
    case 'I': case 'i': case 'L': case 'l': *value = 1; return true;
    case 'O': case 'o': *value = 0; return true;
  }
  return false;
}

TEST(CrockfordAlphabet, IsCrockfordsWithoutILOU) {
  EXPECT_STREQ(ulid_tsid::kCrockfordAlphabet, "0123456789ABCDEFGHJKMNPQRSTVWXYZ");
  EXPECT_EQ(ulid_tsid::kUlidTextLength, 26u);
  EXPECT_EQ(ulid_tsid::kTsidTextLength, 13u);
}

TEST(CrockfordValue, EveryByteValueExactly) {
  int accepted = 0;
  for (int c = 0; c < 256; ++c) {
    int value = -1;
    const bool want = ExpectedAccepted(c, &value);
    const int got = ulid_tsid::crockford_value(static_cast<unsigned char>(c));
    if (want) {
      ++accepted;
      EXPECT_EQ(got, value) << "byte " << c;
    } else {
      EXPECT_EQ(got, -1) << "byte " << c;
    }
  }
  // 32 symbols + 22 lower-case letters + I i L l O o.
  EXPECT_EQ(accepted, 32 + 22 + 6);
}

TEST(CrockfordValue, UIsRejectedInBothCases) {
  EXPECT_EQ(ulid_tsid::crockford_value('U'), -1);
  EXPECT_EQ(ulid_tsid::crockford_value('u'), -1);
}

// Each of the 256 byte values at each of the 26 positions of a ULID.
TEST(Decode128, EveryByteValueAtEveryPosition) {
  for (int pos = 0; pos < 26; ++pos) {
    for (int c = 0; c < 256; ++c) {
      std::string s(26, '0');
      s[pos] = static_cast<char>(c);
      std::uint8_t got[16];
      std::memset(got, 0xA5, 16);
      const ref::Status st = Decode128(s, got);
      int value = -1;
      if (!ExpectedAccepted(c, &value)) {
        EXPECT_EQ(st, ref::make(DecodeError::kBadCharacter, pos)) << "byte " << c << " pos " << pos;
        for (int k = 0; k < 16; ++k) ASSERT_EQ(got[k], 0xA5) << "bytes touched on failure";
        continue;
      }
      if (pos == 0 && value > 7) {
        EXPECT_EQ(st, ref::make(DecodeError::kOverflow, 0)) << "byte " << c;
        continue;
      }
      ASSERT_EQ(st, kOk) << "byte " << c << " pos " << pos;
      // value << 5 * (25 - pos), as 16 big-endian bytes.
      std::uint8_t want[16] = {};
      const int shift = 5 * (25 - pos);
      for (int b = 0; b < 5; ++b) {
        if ((value >> b) & 1) {
          const int bit = shift + b;  // 0 = least significant
          want[15 - bit / 8] |= static_cast<std::uint8_t>(1u << (bit % 8));
        }
      }
      EXPECT_EQ(Hex(got, 16), Hex(want, 16)) << "byte " << c << " pos " << pos;
    }
  }
}

// Each of the 256 byte values at each position of 1- to 14-character texts:
// only 13 characters are a TSID, but a bad character is reported first.
TEST(Decode64, EveryByteValueAtEveryPositionAndLength) {
  for (int len = 1; len <= 14; ++len) {
    for (int pos = 0; pos < len; ++pos) {
      for (int c = 0; c < 256; ++c) {
        std::string s(len, '0');
        s[pos] = static_cast<char>(c);
        std::uint64_t got = 0x5A5A5A5A5A5A5A5AULL;
        const ref::Status st = Decode64(s, &got);
        int value = -1;
        if (!ExpectedAccepted(c, &value)) {
          EXPECT_EQ(st, ref::make(DecodeError::kBadCharacter, pos));
          EXPECT_EQ(got, 0x5A5A5A5A5A5A5A5AULL);
          continue;
        }
        if (len != 13) {
          EXPECT_EQ(st, ref::make(DecodeError::kBadLength, len)) << "byte " << c << " len " << len;
          EXPECT_EQ(got, 0x5A5A5A5A5A5A5A5AULL);
          continue;
        }
        if (pos == 0 && value > 15) {
          EXPECT_EQ(st, ref::make(DecodeError::kOverflow, 0)) << "byte " << c;
          continue;
        }
        ASSERT_EQ(st, kOk) << "byte " << c << " pos " << pos;
        EXPECT_EQ(got, static_cast<std::uint64_t>(value) << (5 * (len - 1 - pos)));
      }
    }
  }
}

// The 32 symbols, their lower case and the aliases, at every position, in
// otherwise random valid text: the decoded value must match the reference.
TEST(Decode128, SymbolsCasesAndAliasesEverywhere) {
  std::mt19937_64 rng(1);
  const std::string extra = "abcdefghjkmnpqrstvwxyzIiLlOo";
  const std::string symbols = std::string(ulid_tsid::kCrockfordAlphabet) + extra;
  for (int pos = 0; pos < 26; ++pos) {
    for (char sym : symbols) {
      std::string s(26, '0');
      for (int k = 1; k < 26; ++k) s[k] = ulid_tsid::kCrockfordAlphabet[rng() % 32];
      s[0] = ulid_tsid::kCrockfordAlphabet[rng() % 8];
      s[pos] = sym;
      std::uint8_t got[16], want[16];
      const ref::Status st = Decode128(s, got);
      const ref::Status rst = ref::decode128(s.data(), s.size(), want);
      ASSERT_EQ(st, rst) << s;
      if (st == kOk) {
        EXPECT_EQ(Hex(got, 16), Hex(want, 16)) << s;
        // Canonical form: upper case, aliases resolved.
        std::string canon = s;
        for (char& ch : canon) {
          ch = ref::kAlphabet[ref::symbol_value(static_cast<unsigned char>(ch))];
        }
        EXPECT_EQ(Encode128(got), canon) << s;
      }
    }
  }
}

TEST(Decode64, SymbolsCasesAndAliasesEverywhere) {
  const std::string symbols =
      std::string(ulid_tsid::kCrockfordAlphabet) + "abcdefghjkmnpqrstvwxyzIiLlOo";
  for (int pos = 0; pos < 13; ++pos) {
    for (char sym : symbols) {
      std::string s = "0123456789ABC";
      s[pos] = sym;
      std::uint64_t got = 0, want = 0;
      const ref::Status st = Decode64(s, &got);
      ASSERT_EQ(st, ref::decode64(s.data(), s.size(), &want)) << s;
      if (st == kOk) EXPECT_EQ(got, want) << s;
    }
  }
}

TEST(Decode128, AliasesDecodeLikeTheirDigits) {
  const std::string aliased = "01IILLiillOOoo0123456789AB";
  const std::string digits = "01111111110000" "0123456789AB";
  ASSERT_EQ(aliased.size(), 26u);
  ASSERT_EQ(digits.size(), 26u);
  std::uint8_t a[16], b[16];
  ASSERT_EQ(Decode128(aliased, a), kOk);
  ASSERT_EQ(Decode128(digits, b), kOk);
  EXPECT_EQ(Hex(a, 16), Hex(b, 16));
  EXPECT_EQ(Encode128(a), digits);
}

TEST(Decode128, LowerCaseEqualsUpperCase) {
  std::uint8_t a[16], b[16];
  ASSERT_EQ(Decode128("01ARYZ6S41TSV4RRFFQ69G5FAV", a), kOk);
  ASSERT_EQ(Decode128("01aryz6s41tsv4rrffq69g5fav", b), kOk);
  EXPECT_EQ(Hex(a, 16), Hex(b, 16));
  // The spec's example: ulid(1469918176385) == 01ARYZ6S41TSV4RRFFQ69G5FAV.
  std::uint64_t ms = 0;
  for (int i = 0; i < 6; ++i) ms = ms << 8 | a[i];
  EXPECT_EQ(ms, 1469918176385ULL);
}

TEST(Decode128, MaximumAndOneAbove) {
  std::uint8_t b[16];
  ASSERT_EQ(Decode128("7ZZZZZZZZZZZZZZZZZZZZZZZZZ", b), kOk);
  for (int i = 0; i < 16; ++i) EXPECT_EQ(b[i], 0xFF);
  ASSERT_EQ(Decode128("7zzzzzzzzzzzzzzzzzzzzzzzzz", b), kOk);
  for (int i = 0; i < 16; ++i) EXPECT_EQ(b[i], 0xFF);
  std::memset(b, 0x11, 16);
  EXPECT_EQ(Decode128("80000000000000000000000000", b), ref::make(DecodeError::kOverflow, 0));
  EXPECT_EQ(Decode128("ZZZZZZZZZZZZZZZZZZZZZZZZZZ", b), ref::make(DecodeError::kOverflow, 0));
  for (int i = 0; i < 16; ++i) EXPECT_EQ(b[i], 0x11) << "bytes touched on overflow";
  ASSERT_EQ(Decode128("00000000000000000000000000", b), kOk);
  for (int i = 0; i < 16; ++i) EXPECT_EQ(b[i], 0);
  ASSERT_EQ(Decode128("oooooooooooooooooooooooooo", b), kOk);
  for (int i = 0; i < 16; ++i) EXPECT_EQ(b[i], 0);
}

TEST(Decode128, WrongLengths) {
  std::uint8_t b[16];
  std::memset(b, 0x33, 16);
  EXPECT_EQ(Decode128("", b), ref::make(DecodeError::kEmpty, 0));
  EXPECT_EQ(ref::from(decode_128(nullptr, 0, b)), ref::make(DecodeError::kEmpty, 0));
  EXPECT_EQ(Decode128(std::string(25, '0'), b), ref::make(DecodeError::kBadLength, 25));
  EXPECT_EQ(Decode128(std::string(27, '0'), b), ref::make(DecodeError::kBadLength, 27));
  EXPECT_EQ(Decode128(std::string(14, '0'), b), ref::make(DecodeError::kBadLength, 14));
  EXPECT_EQ(Decode128(std::string(1, '0'), b), ref::make(DecodeError::kBadLength, 1));
  EXPECT_EQ(Decode128(std::string(100, 'Z'), b), ref::make(DecodeError::kBadLength, 100));
  // A 27-character text whose first 26 would be valid is still rejected.
  EXPECT_EQ(Decode128("01ARZ3NDEKTSV4RRFFQ69G5FAV0", b), ref::make(DecodeError::kBadLength, 27));
  for (int i = 0; i < 16; ++i) EXPECT_EQ(b[i], 0x33);
}

TEST(Decode128, ErrorPositions) {
  std::uint8_t b[16];
  EXPECT_EQ(Decode128("01ARZ3NDEKTSV4RRFFQ69G5FAU", b), ref::make(DecodeError::kBadCharacter, 25));
  EXPECT_EQ(Decode128("U1ARZ3NDEKTSV4RRFFQ69G5FAV", b), ref::make(DecodeError::kBadCharacter, 0));
  EXPECT_EQ(Decode128(" 01ARZ3NDEKTSV4RRFFQ69G5FA", b), ref::make(DecodeError::kBadCharacter, 0));
  EXPECT_EQ(Decode128("01ARZ3NDEK-SV4RRFFQ69G5FAV", b), ref::make(DecodeError::kBadCharacter, 10));
  // The first bad character is reported even when the length is wrong too.
  EXPECT_EQ(Decode128("01ARZ3NDEKTSV4RRFFQ69G5FAV ", b), ref::make(DecodeError::kBadCharacter, 26));
  EXPECT_EQ(Decode128("01AR\"", b), ref::make(DecodeError::kBadCharacter, 4));
  // ...and before the overflow check.
  EXPECT_EQ(Decode128("Z1ARZ3NDEKTSV4RRFFQ69G5FAU", b), ref::make(DecodeError::kBadCharacter, 25));
  // Embedded NUL is a byte like any other.
  const std::string with_nul("01ARZ3NDEK\0SV4RRFFQ69G5FAV", 26);
  EXPECT_EQ(Decode128(with_nul, b), ref::make(DecodeError::kBadCharacter, 10));
  // Non-ASCII (UTF-8 of 'Ø' and a Latin-1 'O' with stroke).
  EXPECT_EQ(Decode128("01ARZ3NDEKTSV4RRFFQ69G5F\xC3\x98", b),
            ref::make(DecodeError::kBadCharacter, 24));
}

TEST(Decode64, MaximumAndLimits) {
  std::uint64_t v = 1;
  ASSERT_EQ(Decode64("FZZZZZZZZZZZZ", &v), kOk);
  EXPECT_EQ(v, ~std::uint64_t{0});
  ASSERT_EQ(Decode64("fzzzzzzzzzzzz", &v), kOk);
  EXPECT_EQ(v, ~std::uint64_t{0});
  v = 7;
  EXPECT_EQ(Decode64("G000000000000", &v), ref::make(DecodeError::kOverflow, 0));
  EXPECT_EQ(Decode64("ZZZZZZZZZZZZZ", &v), ref::make(DecodeError::kOverflow, 0));
  EXPECT_EQ(v, 7u) << "value touched on failure";
  ASSERT_EQ(Decode64("0ZZZZZZZZZZZZ", &v), kOk);
  EXPECT_EQ(v, (std::uint64_t{1} << 60) - 1);
  ASSERT_EQ(Decode64("000000000000z", &v), kOk);
  EXPECT_EQ(v, 31u);
  ASSERT_EQ(Decode64("0000000000010", &v), kOk);
  EXPECT_EQ(v, 32u);
}

// 0.2.0 read a short text as if its leading zeros were dropped, so a decimal
// string such as "12345" became 1117317. Every length but 13 is refused now.
TEST(Decode64, ShortTextIsRefused) {
  std::uint64_t v = 99;
  EXPECT_EQ(Decode64("12345", &v), ref::make(DecodeError::kBadLength, 5));
  EXPECT_EQ(Decode64("3ZK0", &v), ref::make(DecodeError::kBadLength, 4));
  EXPECT_EQ(Decode64("0", &v), ref::make(DecodeError::kBadLength, 1));
  EXPECT_EQ(Decode64("ZZZZZZZZZZZZ", &v), ref::make(DecodeError::kBadLength, 12));
  EXPECT_EQ(Decode64("915268788478279683", &v), ref::make(DecodeError::kBadLength, 18));
  EXPECT_EQ(v, 99u);
}

TEST(IsDecimalInteger, DigitsWithAnOptionalSign) {
  const auto dec = [](const std::string& s) { return ulid_tsid::is_decimal_integer(s.data(), s.size()); };
  EXPECT_TRUE(dec("915268788478279683"));
  EXPECT_TRUE(dec("-1"));
  EXPECT_TRUE(dec("+12"));
  EXPECT_TRUE(dec("0"));
  EXPECT_FALSE(dec(""));
  EXPECT_FALSE(dec("-"));
  EXPECT_FALSE(dec("12a"));
  EXPECT_FALSE(dec(" 12"));
  EXPECT_FALSE(dec("0AWE5HZP3SKTK"));
}

TEST(Decode64, WrongLengthsAndPositions) {
  std::uint64_t v = 99;
  EXPECT_EQ(Decode64("", &v), ref::make(DecodeError::kEmpty, 0));
  EXPECT_EQ(Decode64(std::string(14, '0'), &v), ref::make(DecodeError::kBadLength, 14));
  EXPECT_EQ(Decode64(std::string(26, '1'), &v), ref::make(DecodeError::kBadLength, 26));
  EXPECT_EQ(Decode64(std::string(27, 'Z'), &v), ref::make(DecodeError::kBadLength, 27));
  EXPECT_EQ(Decode64("0000000000000U", &v), ref::make(DecodeError::kBadCharacter, 13));
  EXPECT_EQ(Decode64("00U", &v), ref::make(DecodeError::kBadCharacter, 2));
  EXPECT_EQ(Decode64(std::string(12, '0'), &v), ref::make(DecodeError::kBadLength, 12));
  EXPECT_EQ(Decode64("-1", &v), ref::make(DecodeError::kBadCharacter, 0));
  EXPECT_EQ(Decode64("G00000000000U", &v), ref::make(DecodeError::kBadCharacter, 12));
  EXPECT_EQ(v, 99u);
}

TEST(Encode128, KnownValues) {
  std::uint8_t b[16] = {};
  EXPECT_EQ(Encode128(b), "00000000000000000000000000");
  b[15] = 1;
  EXPECT_EQ(Encode128(b), "00000000000000000000000001");
  b[15] = 32;
  EXPECT_EQ(Encode128(b), "00000000000000000000000010");
  std::memset(b, 0xFF, 16);
  EXPECT_EQ(Encode128(b), "7ZZZZZZZZZZZZZZZZZZZZZZZZZ");
  std::memset(b, 0, 16);
  b[0] = 0x80;
  EXPECT_EQ(Encode128(b), "40000000000000000000000000");
}

TEST(Encode64, KnownValues) {
  EXPECT_EQ(Encode64(0), "0000000000000");
  EXPECT_EQ(Encode64(31), "000000000000Z");
  EXPECT_EQ(Encode64(~std::uint64_t{0}), "FZZZZZZZZZZZZ");
  EXPECT_EQ(Encode64(std::uint64_t{1} << 63), "8000000000000");
}

// Every single-bit value and its neighbours round-trip and match the reference.
TEST(RoundTrip128, EveryBitAndNeighbours) {
  for (int bit = 0; bit < 128; ++bit) {
    for (int delta = -1; delta <= 1; ++delta) {
      std::uint8_t b[16] = {};
      b[15 - bit / 8] = static_cast<std::uint8_t>(1u << (bit % 8));
      if (delta == -1) {  // 2^bit - 1: all lower bits set
        std::memset(b, 0, 16);
        for (int k = 0; k < bit; ++k) b[15 - k / 8] |= static_cast<std::uint8_t>(1u << (k % 8));
      } else if (delta == 1) {
        b[15] |= 1;
      }
      const std::string text = Encode128(b);
      ASSERT_EQ(text, ref::encode128(b)) << "bit " << bit;
      std::uint8_t back[16];
      ASSERT_EQ(Decode128(text, back), kOk) << text;
      EXPECT_EQ(Hex(back, 16), Hex(b, 16)) << text;
    }
  }
}

TEST(RoundTrip128, RandomValues) {
  std::mt19937_64 rng(42);
  for (int n = 0; n < 100000; ++n) {
    std::uint8_t b[16];
    for (auto& x : b) x = static_cast<std::uint8_t>(rng());
    const std::string text = Encode128(b);
    ASSERT_EQ(text, ref::encode128(b));
    ASSERT_LE(text[0], '7');
    std::uint8_t back[16];
    ASSERT_EQ(Decode128(text, back), kOk) << text;
    ASSERT_EQ(std::memcmp(back, b, 16), 0) << text;
  }
}

TEST(RoundTrip64, RandomAndEdgeValues) {
  std::mt19937_64 rng(43);
  for (int n = 0; n < 100000 + 64 * 3; ++n) {
    std::uint64_t v = rng();
    if (n >= 100000) {  // every 2^k - 1, 2^k, 2^k + 1
      const int k = (n - 100000) / 3;
      v = (std::uint64_t{1} << k) + static_cast<std::uint64_t>((n - 100000) % 3) - 1;
    }
    const std::string text = Encode64(v);
    ASSERT_EQ(text, ref::encode64(v));
    std::uint64_t back = ~v;
    ASSERT_EQ(Decode64(text, &back), kOk) << text;
    ASSERT_EQ(back, v) << text;
    // Dropping a leading zero is no longer the same value: it is refused.
    if (text[0] == '0') {
      ASSERT_EQ(Decode64(text.substr(1), &back), ref::make(DecodeError::kBadLength, 12)) << text;
    }
  }
}

// Encoding preserves order: byte order of values == string order of texts.
TEST(RoundTrip128, TextOrderIsByteOrder) {
  std::mt19937_64 rng(44);
  for (int n = 0; n < 20000; ++n) {
    std::uint8_t a[16], b[16];
    for (auto& x : a) x = static_cast<std::uint8_t>(rng());
    std::memcpy(b, a, 16);
    b[rng() % 16] = static_cast<std::uint8_t>(rng());  // often shares a long prefix
    const int by = std::memcmp(a, b, 16);
    const int tx = Encode128(a).compare(Encode128(b));
    ASSERT_EQ(by < 0, tx < 0);
    ASSERT_EQ(by == 0, tx == 0);
  }
}

// Randomized cross-check of both decoders against the reference: random strings
// over the accepted bytes, over all bytes, valid texts with one mutation, and
// random lengths around the accepted ones.
std::string RandomInput(std::mt19937_64& rng, std::size_t target_len) {
  static const std::string accepted =
      "0123456789ABCDEFGHJKMNPQRSTVWXYZabcdefghjkmnpqrstvwxyzIiLlOo";
  static const std::string near_miss = "Uu -_.{}\"'\t\n\0\x7f\x80\xff";
  const int kind = static_cast<int>(rng() % 4);
  std::size_t len = target_len;
  const int lk = static_cast<int>(rng() % 8);
  if (lk == 0) len = rng() % 32;
  else if (lk == 1) len = target_len + (rng() % 3) - 1;
  std::string s(len, '0');
  for (auto& c : s) {
    switch (kind) {
      case 0: c = accepted[rng() % accepted.size()]; break;
      case 1: c = static_cast<char>(rng() % 256); break;
      case 2: c = ulid_tsid::kCrockfordAlphabet[rng() % 32]; break;
      default: c = (rng() % 64 == 0) ? near_miss[rng() % near_miss.size()]
                                       : accepted[rng() % accepted.size()];
    }
  }
  if (kind == 2 && len > 0 && rng() % 2) s[0] = "01234567"[rng() % 8];
  return s;
}

TEST(CrossCheck, Decode128AgainstReference) {
  std::mt19937_64 rng(7);
  int ok = 0, failed = 0;
  for (int n = 0; n < 100000; ++n) {
    const std::string s = RandomInput(rng, 26);
    std::uint8_t got[16], want[16];
    std::memset(got, 0xC3, 16);
    std::memset(want, 0xC3, 16);
    const ref::Status st = Decode128(s, got);
    ASSERT_EQ(st, ref::decode128(s.data(), s.size(), want)) << "input of length " << s.size();
    ASSERT_EQ(std::memcmp(got, want, 16), 0);
    (st == kOk ? ok : failed)++;
  }
  // Both outcomes are exercised in earnest.
  EXPECT_GT(ok, 10000);
  EXPECT_GT(failed, 10000);
}

TEST(CrossCheck, Decode64AgainstReference) {
  std::mt19937_64 rng(8);
  int ok = 0, failed = 0;
  for (int n = 0; n < 100000; ++n) {
    // Mostly the one accepted length, sometimes a neighbour or a short text.
    const std::size_t want_len = rng() % 4 == 0 ? 1 + rng() % 14 : 13;
    const std::string s = RandomInput(rng, want_len);
    std::uint64_t got = 0xC3C3, want = 0xC3C3;
    const ref::Status st = Decode64(s, &got);
    ASSERT_EQ(st, ref::decode64(s.data(), s.size(), &want)) << "input of length " << s.size();
    ASSERT_EQ(got, want);
    (st == kOk ? ok : failed)++;
  }
  EXPECT_GT(ok, 10000);
  EXPECT_GT(failed, 10000);
}

// The reference itself must be able to disagree: a sanity check that it is not
// a copy of the core (it rejects what a broken table would accept).
TEST(CrossCheck, ReferenceIsNotTrivial) {
  std::uint8_t b[16];
  EXPECT_EQ(ref::decode128("80000000000000000000000000", 26, b),
            ref::make(DecodeError::kOverflow, 0));
  EXPECT_EQ(ref::decode128("0000000000000000000000000U", 26, b),
            ref::make(DecodeError::kBadCharacter, 25));
  ASSERT_EQ(ref::decode128("7ZZZZZZZZZZZZZZZZZZZZZZZZZ", 26, b), kOk);
  EXPECT_EQ(Hex(b, 16), std::string(32, 'f'));
  std::uint64_t v;
  EXPECT_EQ(ref::decode64("G000000000000", 13, &v), ref::make(DecodeError::kOverflow, 0));
}

// A TSID written without its leading zero (the TSID article's URLs): only a
// text of exactly 12 symbols gets its 13-character form, canonical, and that
// form decodes to the value whose time is the article's (2023-11-02).
TEST(TsidLeadingZero, TwelveSymbolsOnly) {
  char out[13];
  ASSERT_TRUE(ulid_tsid::tsid_text_with_leading_zero("E34NNFRTCQ15", 12, out));
  EXPECT_EQ(std::string(out, 13), "0E34NNFRTCQ15");
  ASSERT_TRUE(ulid_tsid::tsid_text_with_leading_zero("dxzbe2d7tbo4", 12, out));  // lower case, O for 0
  EXPECT_EQ(std::string(out, 13), "0DXZBE2D7TB04");
  std::uint64_t v = 0;
  ASSERT_EQ(Decode64("0E34NNFRTCQ15", &v), kOk);
  EXPECT_EQ(static_cast<std::int64_t>(v >> 22) + 1577836800000, 1698940426182);  // 2023-11-02T15:53:46.182Z
  ASSERT_EQ(Decode64("0DXZBE2D7TB04", &v), kOk);
  EXPECT_EQ((static_cast<std::int64_t>(v >> 22) + 1577836800000) / 86400000, 19647);  // 2023-10-17
  std::memset(out, '#', sizeof out);
  for (const char* bad : {"", "E34NNFRTCQ1", "0E34NNFRTCQ15", "E34NNFRTCQ1U", "E34NNFRTCQ1-", "E34NNFRTCQ1 "}) {
    EXPECT_FALSE(ulid_tsid::tsid_text_with_leading_zero(bad, std::strlen(bad), out)) << bad;
  }
  EXPECT_EQ(std::string(out, 13), std::string(13, '#'));
  // Every 12-symbol text: '0' then its symbols, canonical; the result decodes.
  std::mt19937_64 rng(7);
  const std::string symbols = std::string(ulid_tsid::kCrockfordAlphabet) + "abcdefghjkmnpqrstvwxyzIiLlOo";
  for (int n = 0; n < 20000; ++n) {
    std::string s(12, '0');
    for (char& c : s) c = symbols[rng() % symbols.size()];
    ASSERT_TRUE(ulid_tsid::tsid_text_with_leading_zero(s.data(), s.size(), out)) << s;
    ASSERT_EQ(out[0], '0');
    for (int i = 0; i < 12; ++i) {
      ASSERT_EQ(out[i + 1], ulid_tsid::kCrockfordAlphabet[ulid_tsid::crockford_value(static_cast<unsigned char>(s[i]))]);
    }
    ASSERT_EQ(Decode64(std::string(out, 13), &v), kOk);
  }
}

}  // namespace
