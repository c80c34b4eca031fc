// TypeID text (typeid.hpp): the spec v0.3 cases verbatim (typeid_spec_cases.hpp),
// exact errors and positions, every byte value in every position, prefix rules,
// prefix mismatch, 64-bit TypeIDs, and round trips checked against the
// independent Crockford reference codec (same bit layout, upper case).
#include <gtest/gtest.h>

#include <cctype>
#include <cstring>
#include <random>
#include <string>
#include <vector>

#include "reference_codec.hpp"
#include "typeid.hpp"
#include "typeid_spec_cases.hpp"
#include "iterations.hpp"

namespace {

using ulid_tsid::TypeidError;
using ulid_tsid::TypeidStatus;

struct St {
  TypeidError error;
  std::size_t position;
  bool operator==(const St& o) const { return error == o.error && position == o.position; }
  bool operator!=(const St& o) const { return !(*this == o); }
};
std::ostream& operator<<(std::ostream& os, const St& s) {
  return os << "{" << ulid_tsid::typeid_error_message(s.error) << " (" << static_cast<int>(s.error)
            << "), pos " << s.position << "}";
}
const St kOk{TypeidError::kNone, 0};

St Parse128(const std::string& text, const std::string& prefix, std::uint8_t out[16]) {
  const TypeidStatus s =
      ulid_tsid::typeid_parse_128(text.data(), text.size(), prefix.data(), prefix.size(), out);
  return {s.error, s.position};
}
St Parse64(const std::string& text, const std::string& prefix, std::uint64_t* out) {
  const TypeidStatus s =
      ulid_tsid::typeid_parse_64(text.data(), text.size(), prefix.data(), prefix.size(), out);
  return {s.error, s.position};
}
std::string Format128(const std::string& prefix, const std::uint8_t b[16]) {
  char buf[ulid_tsid::kTypeidMaxLength128 + 8];
  std::memset(buf, '#', sizeof buf);
  const std::size_t n = ulid_tsid::typeid_format_128(prefix.data(), prefix.size(), b, buf);
  EXPECT_LE(n, ulid_tsid::kTypeidMaxLength128);
  EXPECT_EQ(buf[n], '#') << "wrote past the returned length";
  return std::string(buf, n);
}
std::string Format64(const std::string& prefix, std::uint64_t v) {
  char buf[ulid_tsid::kTypeidMaxLength64 + 8];
  std::memset(buf, '#', sizeof buf);
  const std::size_t n = ulid_tsid::typeid_format_64(prefix.data(), prefix.size(), v, buf);
  EXPECT_LE(n, ulid_tsid::kTypeidMaxLength64);
  EXPECT_EQ(buf[n], '#') << "wrote past the returned length";
  return std::string(buf, n);
}
bool PrefixValid(const std::string& p) { return ulid_tsid::typeid_prefix_valid(p.data(), p.size()); }
std::string Hex(const std::uint8_t* b, int n) {
  static const char* d = "0123456789abcdef";
  std::string s;
  for (int i = 0; i < n; ++i) { s += d[b[i] >> 4]; s += d[b[i] & 15]; }
  return s;
}
std::string UuidHex(const char* uuid) {
  std::string s;
  for (const char* p = uuid; *p; ++p) if (*p != '-') s += *p;
  return s;
}
std::string Lower(std::string s) {
  for (char& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return s;
}
// The text's apparent prefix: everything before the last '_' (empty without one).
std::string ApparentPrefix(const std::string& t) {
  const auto p = t.rfind('_');
  return p == std::string::npos ? std::string() : t.substr(0, p);
}

const std::string kLower = "0123456789abcdefghjkmnpqrstvwxyz";
int ModelValue(int c) {
  const auto p = kLower.find(static_cast<char>(c));
  return (c != 0 && p != std::string::npos) ? static_cast<int>(p) : -1;
}
// The prefix rule written as the spec's regex would read it.
bool ModelPrefixValid(const std::string& p) {
  if (p.empty()) return true;
  if (p.size() > 63) return false;
  for (char c : p) if (!((c >= 'a' && c <= 'z') || c == '_')) return false;
  return p.front() != '_' && p.back() != '_';
}

std::string RandomPrefix(std::mt19937_64& rng) {
  const int kind = static_cast<int>(rng() % 6);
  std::size_t len;
  switch (kind) {
    case 0: return "";
    case 1: len = 63; break;
    case 2: len = 1; break;
    default: len = 1 + rng() % 63;
  }
  std::string p(len, 'a');
  for (std::size_t i = 0; i < len; ++i) {
    const bool edge = i == 0 || i + 1 == len;
    p[i] = (!edge && rng() % 4 == 0) ? '_' : static_cast<char>('a' + rng() % 26);
  }
  return p;
}

TEST(Typeid, Constants) {
  EXPECT_STREQ(ulid_tsid::kTypeidAlphabet, "0123456789abcdefghjkmnpqrstvwxyz");
  EXPECT_EQ(ulid_tsid::kTypeidMaxPrefixLength, 63u);
  EXPECT_EQ(ulid_tsid::kTypeidMaxLength128, 63u + 1 + 26);
  EXPECT_EQ(ulid_tsid::kTypeidMaxLength64, 63u + 1 + 13);
  for (int e = 0; e <= static_cast<int>(TypeidError::kSuffixOverflow); ++e) {
    ASSERT_NE(ulid_tsid::typeid_error_message(static_cast<TypeidError>(e)), nullptr);
  }
}

TEST(TypeidSpec, ValidCasesDecodeAndEncode) {
  int n = 0;
  for (const auto& c : typeid_spec::kValid) {
    SCOPED_TRACE(c.name);
    ++n;
    std::uint8_t got[16];
    ASSERT_EQ(Parse128(c.text, c.prefix, got), kOk);
    EXPECT_EQ(Hex(got, 16), UuidHex(c.uuid));
    EXPECT_EQ(Format128(c.prefix, got), c.text);
    // The same text where another prefix is expected.
    const std::string other = std::string(c.prefix).empty() ? "user" : "";
    std::uint8_t untouched[16];
    std::memset(untouched, 0xA5, 16);
    EXPECT_EQ(Parse128(c.text, other, untouched), (St{TypeidError::kPrefixMismatch, 0}));
    EXPECT_EQ(Parse128(c.text, std::string(c.prefix) + "x", untouched),
              (St{TypeidError::kPrefixMismatch, 0}));
    for (int k = 0; k < 16; ++k) ASSERT_EQ(untouched[k], 0xA5);
  }
  EXPECT_EQ(n, 9);
}

TEST(TypeidSpec, InvalidCasesFailWhateverPrefixIsExpected) {
  int n = 0;
  for (const auto& c : typeid_spec::kInvalid) {
    SCOPED_TRACE(c.name);
    ++n;
    const std::string text = c.text;
    std::vector<std::string> expected = {"", "prefix", "pre_fix"};
    const std::string apparent = ApparentPrefix(text);
    if (PrefixValid(apparent)) expected.push_back(apparent);
    for (const auto& e : expected) {
      std::uint8_t out[16];
      std::memset(out, 0xA5, 16);
      EXPECT_NE(Parse128(text, e, out), kOk) << "expected prefix '" << e << "'";
      for (int k = 0; k < 16; ++k) ASSERT_EQ(out[k], 0xA5);
      // Not a 64-bit TypeID either.
      std::uint64_t v = 7;
      EXPECT_NE(Parse64(text, e, &v), kOk) << "expected prefix '" << e << "'";
      EXPECT_EQ(v, 7u);
    }
  }
  EXPECT_EQ(n, 19);
}

// The exact error and offset for each spec case, with "prefix" expected.
TEST(TypeidSpec, InvalidCasesExactErrors) {
  struct Want { const char* name; TypeidError error; std::size_t position; };
  const Want wants[] = {
      {"prefix-uppercase", TypeidError::kBadPrefix, 0},
      {"prefix-numeric", TypeidError::kBadPrefix, 0},
      {"prefix-period", TypeidError::kBadPrefix, 3},
      {"prefix-non-ascii", TypeidError::kBadPrefix, 2},
      {"prefix-spaces", TypeidError::kBadPrefix, 0},
      {"prefix-64-chars", TypeidError::kBadPrefix, 63},
      {"separator-empty-prefix", TypeidError::kBadPrefix, 0},
      {"separator-empty", TypeidError::kMissingSuffix, 1},
      {"suffix-short", TypeidError::kBadSuffixLength, 32},
      {"suffix-long", TypeidError::kBadSuffixLength, 33},
      {"suffix-spaces", TypeidError::kBadSuffixCharacter, 32},
      {"suffix-uppercase", TypeidError::kBadSuffixCharacter, 17},
      {"suffix-hyphens", TypeidError::kBadSuffixCharacter, 16},
      {"suffix-wrong-alphabet", TypeidError::kBadSuffixCharacter, 7},
      {"suffix-ambiguous-crockford", TypeidError::kBadSuffixCharacter, 7},
      {"suffix-hyphens-crockford", TypeidError::kBadSuffixCharacter, 16},
      {"suffix-overflow", TypeidError::kSuffixOverflow, 7},
      {"prefix-underscore-start", TypeidError::kBadPrefix, 0},
      {"prefix-underscore-end", TypeidError::kBadPrefix, 6},
  };
  ASSERT_EQ(sizeof wants / sizeof wants[0], sizeof typeid_spec::kInvalid / sizeof typeid_spec::kInvalid[0]);
  for (std::size_t i = 0; i < sizeof wants / sizeof wants[0]; ++i) {
    const auto& c = typeid_spec::kInvalid[i];
    ASSERT_STREQ(c.name, wants[i].name);
    std::uint8_t out[16];
    EXPECT_EQ(Parse128(c.text, "prefix", out), (St{wants[i].error, wants[i].position})) << c.name;
  }
}

TEST(TypeidPrefix, ValidShapes) {
  for (const char* p : {"", "a", "z", "ab", "a_b", "a__b", "user", "pre_fix", "snake_case_type"}) {
    EXPECT_TRUE(PrefixValid(p)) << p;
  }
  EXPECT_TRUE(PrefixValid(std::string(63, 'q')));
  EXPECT_TRUE(PrefixValid("a" + std::string(61, '_') + "z"));
}

TEST(TypeidPrefix, InvalidShapesWithPositions) {
  struct Case { std::string p; std::size_t pos; };
  const Case cases[] = {
      {std::string(64, 'a'), 63},
      {std::string(100, 'a'), 63},
      {"_user", 0},
      {"user_", 4},
      {"_", 0},
      {"__", 0},
      {"a_", 1},
      {"user1", 4},
      {"1user", 0},
      {"us3r", 2},
      {"User", 0},
      {"usER", 2},
      {"us\xc3\xa9r", 2},
      {"\xff", 0},
      {" user", 0},
      {"user ", 4},
      {"us er", 2},
      {"us-er", 2},
      {"us.er", 2},
      {std::string("us\0er", 5), 2},
      {std::string(62, 'a') + "_", 62},
      {std::string(63, 'a') + "_", 63},
  };
  for (const auto& c : cases) {
    EXPECT_FALSE(PrefixValid(c.p)) << c.p;
    const TypeidStatus s = ulid_tsid::typeid_prefix_check(c.p.data(), c.p.size());
    EXPECT_EQ((St{s.error, s.position}), (St{TypeidError::kBadPrefix, c.pos})) << c.p;
    // In a text: kBadPrefix at the same offset, whatever prefix is expected.
    const std::string text = c.p + "_00000000000000000000000000";
    std::uint8_t out[16];
    for (const std::string& e : {std::string(), std::string("user"), std::string(63, 'a')}) {
      EXPECT_EQ(Parse128(text, e, out), (St{TypeidError::kBadPrefix, c.pos})) << text;
    }
  }
}

// Every byte at the first, a middle and the last position of 1-, 2-, 3- and 63-byte prefixes.
TEST(TypeidPrefix, EveryByteValueAgainstTheRegexModel) {
  for (std::size_t len : {1u, 2u, 3u, 63u, 64u}) {
    for (std::size_t pos : {std::size_t{0}, len / 2, len - 1}) {
      for (int c = 0; c < 256; ++c) {
        std::string p(len, 'k');
        p[pos] = static_cast<char>(c);
        EXPECT_EQ(PrefixValid(p), ModelPrefixValid(p)) << "len " << len << " pos " << pos << " byte " << c;
      }
    }
  }
}

TEST(TypeidPrefix, MismatchIsItsOwnError) {
  const std::string suffix = "01h455vb4pex5vsknk084sn02q";
  struct Case { std::string text_prefix, expected; };
  const Case cases[] = {
      {"user", "order"}, {"order", "user"}, {"user", "user_x"}, {"user_x", "user"},
      {"user", "use"},   {"use", "user"},   {"user", ""},       {"", "user"},
      {"user", "usex"},  {"a", "b"},        {std::string(63, 'a'), std::string(62, 'a')},
  };
  for (const auto& c : cases) {
    const std::string text = c.text_prefix.empty() ? suffix : c.text_prefix + "_" + suffix;
    std::uint8_t out[16];
    std::memset(out, 0xA5, 16);
    EXPECT_EQ(Parse128(text, c.expected, out), (St{TypeidError::kPrefixMismatch, 0}))
        << text << " expected " << c.expected;
    for (int k = 0; k < 16; ++k) ASSERT_EQ(out[k], 0xA5);
    std::uint64_t v = 3;
    const std::string text64 =
        c.text_prefix.empty() ? suffix.substr(0, 13) : c.text_prefix + "_" + suffix.substr(0, 13);
    EXPECT_EQ(Parse64(text64, c.expected, &v), (St{TypeidError::kPrefixMismatch, 0})) << text64;
    EXPECT_EQ(v, 3u);
    // And it parses where its own prefix is expected.
    EXPECT_EQ(Parse128(text, c.text_prefix, out), kOk) << text;
    EXPECT_EQ(Parse64(text64, c.text_prefix, &v), kOk) << text64;
  }
  // A bad prefix is reported as bad, not as a mismatch, even when nothing matches.
  std::uint8_t out[16];
  EXPECT_EQ(Parse128("User_" + suffix, "user", out), (St{TypeidError::kBadPrefix, 0}));
  // The suffix is only looked at once the prefix is right.
  EXPECT_EQ(Parse128("order_!", "user", out), (St{TypeidError::kPrefixMismatch, 0}));
}

TEST(TypeidParse, MissingSuffix) {
  std::uint8_t out[16];
  std::uint64_t v;
  EXPECT_EQ(Parse128("", "", out), (St{TypeidError::kMissingSuffix, 0}));
  EXPECT_EQ(Parse64("", "", &v), (St{TypeidError::kMissingSuffix, 0}));
  EXPECT_EQ(Parse128("_", "", out), (St{TypeidError::kMissingSuffix, 1}));
  EXPECT_EQ(Parse128("_", "user", out), (St{TypeidError::kMissingSuffix, 1}));
  EXPECT_EQ(Parse128("user_", "user", out), (St{TypeidError::kMissingSuffix, 5}));
  EXPECT_EQ(Parse64("user_", "user", &v), (St{TypeidError::kMissingSuffix, 5}));
  EXPECT_EQ(Parse128("user_", "", out), (St{TypeidError::kPrefixMismatch, 0}));
  EXPECT_EQ(Parse128("", "user", out), (St{TypeidError::kMissingSuffix, 0}));
}

// Each of the 256 byte values at each of the 26 suffix positions, with and without a prefix.
TEST(TypeidParse, EveryByteValueAtEverySuffixPosition128) {
  for (const std::string prefix : {"", "prefix", "a_b"}) {
    const std::size_t off = prefix.empty() ? 0 : prefix.size() + 1;
    for (int pos = 0; pos < 26; ++pos) {
      for (int c = 0; c < 256; ++c) {
        std::string s = (prefix.empty() ? "" : prefix + "_") + std::string(26, '0');
        s[off + pos] = static_cast<char>(c);
        std::uint8_t got[16];
        std::memset(got, 0xA5, 16);
        const St st = Parse128(s, prefix, got);
        const int value = ModelValue(c);
        if (value < 0) {
          if (c == '_') {
            EXPECT_NE(st, kOk);  // moves the split: some prefix error
            EXPECT_TRUE(st.error == TypeidError::kBadPrefix || st.error == TypeidError::kPrefixMismatch ||
                        st.error == TypeidError::kMissingSuffix) << st;
          } else {
            EXPECT_EQ(st, (St{TypeidError::kBadSuffixCharacter, off + pos})) << "byte " << c << " pos " << pos;
          }
          for (int k = 0; k < 16; ++k) ASSERT_EQ(got[k], 0xA5) << "bytes touched on failure";
          continue;
        }
        if (pos == 0 && value > 7) {
          EXPECT_EQ(st, (St{TypeidError::kSuffixOverflow, off})) << "byte " << c;
          for (int k = 0; k < 16; ++k) ASSERT_EQ(got[k], 0xA5);
          continue;
        }
        ASSERT_EQ(st, kOk) << "byte " << c << " pos " << pos;
        std::uint8_t want[16] = {};
        const int shift = 5 * (25 - pos);
        for (int b = 0; b < 5; ++b) {
          if ((value >> b) & 1) {
            const int bit = shift + b;
            want[15 - bit / 8] |= static_cast<std::uint8_t>(1u << (bit % 8));
          }
        }
        EXPECT_EQ(Hex(got, 16), Hex(want, 16)) << "byte " << c << " pos " << pos;
        EXPECT_EQ(Format128(prefix, got), s);
      }
    }
  }
}

TEST(TypeidParse, EveryByteValueAtEverySuffixPosition64) {
  for (const std::string prefix : {"", "prefix", "a_b"}) {
    const std::size_t off = prefix.empty() ? 0 : prefix.size() + 1;
    for (int pos = 0; pos < 13; ++pos) {
      for (int c = 0; c < 256; ++c) {
        std::string s = (prefix.empty() ? "" : prefix + "_") + std::string(13, '0');
        s[off + pos] = static_cast<char>(c);
        std::uint64_t got = 0x5A5A5A5A5A5A5A5AULL;
        const St st = Parse64(s, prefix, &got);
        const int value = ModelValue(c);
        if (value < 0) {
          if (c == '_') {
            EXPECT_NE(st, kOk);
          } else {
            EXPECT_EQ(st, (St{TypeidError::kBadSuffixCharacter, off + pos})) << "byte " << c;
          }
          EXPECT_EQ(got, 0x5A5A5A5A5A5A5A5AULL);
          continue;
        }
        if (pos == 0 && value > 15) {
          EXPECT_EQ(st, (St{TypeidError::kSuffixOverflow, off})) << "byte " << c;
          EXPECT_EQ(got, 0x5A5A5A5A5A5A5A5AULL);
          continue;
        }
        ASSERT_EQ(st, kOk) << "byte " << c << " pos " << pos;
        EXPECT_EQ(got, static_cast<std::uint64_t>(value) << (5 * (12 - pos)));
        EXPECT_EQ(Format64(prefix, got), s);
      }
    }
  }
}

TEST(TypeidParse, FirstCharacterLimit128) {
  for (char c : kLower) {
    const std::string s = "x_" + std::string(1, c) + std::string(25, 'z');
    std::uint8_t out[16];
    const St st = Parse128(s, "x", out);
    if (ModelValue(c) <= 7) {
      EXPECT_EQ(st, kOk) << s;
    } else {
      EXPECT_EQ(st, (St{TypeidError::kSuffixOverflow, 2})) << s;
    }
  }
  std::uint8_t out[16];
  EXPECT_EQ(Parse128("8zzzzzzzzzzzzzzzzzzzzzzzzz", "", out), (St{TypeidError::kSuffixOverflow, 0}));
  EXPECT_EQ(Parse128("80000000000000000000000000", "", out), (St{TypeidError::kSuffixOverflow, 0}));
}

TEST(TypeidParse, SuffixLengths) {
  for (std::size_t n = 1; n < 60; ++n) {
    const std::string s = "prefix_" + std::string(n, '1');
    std::uint8_t out[16];
    std::uint64_t v;
    const St st128 = Parse128(s, "prefix", out);
    const St st64 = Parse64(s, "prefix", &v);
    if (n == 26) EXPECT_EQ(st128, kOk);
    else EXPECT_EQ(st128, (St{TypeidError::kBadSuffixLength, n < 26 ? s.size() : 7 + 26})) << n;
    if (n == 13) EXPECT_EQ(st64, kOk);
    else EXPECT_EQ(st64, (St{TypeidError::kBadSuffixLength, n < 13 ? s.size() : 7 + 13})) << n;
  }
  // A bad character is reported even when the length is also wrong.
  std::uint8_t out[16];
  EXPECT_EQ(Parse128("prefix_12U", "prefix", out), (St{TypeidError::kBadSuffixCharacter, 9}));
}

TEST(Typeid64, Boundaries) {
  std::uint64_t v = 0;
  EXPECT_EQ(Parse64("prefix_fzzzzzzzzzzzz", "prefix", &v), kOk);
  EXPECT_EQ(v, ~std::uint64_t{0});
  EXPECT_EQ(Format64("prefix", v), "prefix_fzzzzzzzzzzzz");
  v = 42;
  EXPECT_EQ(Parse64("prefix_g000000000000", "prefix", &v), (St{TypeidError::kSuffixOverflow, 7}));
  EXPECT_EQ(Parse64("prefix_zzzzzzzzzzzzz", "prefix", &v), (St{TypeidError::kSuffixOverflow, 7}));
  EXPECT_EQ(v, 42u);
  EXPECT_EQ(Parse64("prefix_000000000000", "prefix", &v), (St{TypeidError::kBadSuffixLength, 19}));
  EXPECT_EQ(Parse64("prefix_00000000000000", "prefix", &v), (St{TypeidError::kBadSuffixLength, 20}));
  EXPECT_EQ(Parse64("prefix_0000000000ABC", "prefix", &v), (St{TypeidError::kBadSuffixCharacter, 17}));
  EXPECT_EQ(Parse64("prefix_FZZZZZZZZZZZZ", "prefix", &v), (St{TypeidError::kBadSuffixCharacter, 7}));
  EXPECT_EQ(Parse64("PREFIX_0000000000000", "prefix", &v), (St{TypeidError::kBadPrefix, 0}));
  EXPECT_EQ(Parse64("prefix_000000000000o", "prefix", &v), (St{TypeidError::kBadSuffixCharacter, 19}));
  EXPECT_EQ(v, 42u);
  EXPECT_EQ(Parse64("0000000000000", "", &v), kOk);
  EXPECT_EQ(v, 0u);
  EXPECT_EQ(Parse64("000000000000z", "", &v), kOk);
  EXPECT_EQ(v, 31u);
  EXPECT_EQ(Format64("", 32), "0000000000010");
  EXPECT_EQ(Format64("", 0x0123456789ABCDEFULL), Lower(ref::encode64(0x0123456789ABCDEFULL)));
  // 128-bit text is not a 64-bit TypeID and vice versa.
  EXPECT_EQ(Parse64("prefix_01h455vb4pex5vsknk084sn02q", "prefix", &v).error, TypeidError::kBadSuffixLength);
  std::uint8_t out[16];
  EXPECT_EQ(Parse128("prefix_fzzzzzzzzzzzz", "prefix", out).error, TypeidError::kBadSuffixLength);
}

TEST(TypeidRoundTrip, Random128WithRandomPrefixes) {
  std::mt19937_64 rng(20240410);
  for (int i = 0; i < Iterations(100000); ++i) {
    std::uint8_t b[16];
    for (auto& x : b) x = static_cast<std::uint8_t>(rng());
    if (i % 7 == 0) std::memset(b, i % 14 == 0 ? 0 : 0xFF, 16);
    const std::string prefix = RandomPrefix(rng);
    ASSERT_TRUE(PrefixValid(prefix)) << prefix;
    const std::string text = Format128(prefix, b);
    ASSERT_EQ(text.size(), (prefix.empty() ? 0 : prefix.size() + 1) + 26);
    // Independent check: the suffix is the reference Crockford text in lower case.
    ASSERT_EQ(text.substr(text.size() - 26), Lower(ref::encode128(b)));
    std::uint8_t back[16];
    ASSERT_EQ(Parse128(text, prefix, back), kOk) << text;
    ASSERT_EQ(Hex(back, 16), Hex(b, 16)) << text;
    // Any other expected prefix is refused.
    const std::string other = prefix.empty() ? "a" : prefix.substr(1) + "q";
    if (PrefixValid(other) && other != prefix) {
      ASSERT_EQ(Parse128(text, other, back).error, TypeidError::kPrefixMismatch) << text;
    }
  }
}

TEST(TypeidRoundTrip, Random64WithRandomPrefixes) {
  std::mt19937_64 rng(77);
  for (int i = 0; i < Iterations(100000); ++i) {
    std::uint64_t v = rng();
    if (i % 5 == 0) v >>= rng() % 64;
    const std::string prefix = RandomPrefix(rng);
    const std::string text = Format64(prefix, v);
    ASSERT_EQ(text.size(), (prefix.empty() ? 0 : prefix.size() + 1) + 13);
    ASSERT_EQ(text.substr(text.size() - 13), Lower(ref::encode64(v)));
    std::uint64_t back = ~v;
    ASSERT_EQ(Parse64(text, prefix, &back), kOk) << text;
    ASSERT_EQ(back, v) << text;
  }
}

TEST(TypeidFormat, MaximumLengths) {
  const std::string p(63, 'm');
  std::uint8_t b[16];
  std::memset(b, 0xFF, 16);
  EXPECT_EQ(Format128(p, b).size(), ulid_tsid::kTypeidMaxLength128);
  EXPECT_EQ(Format128(p, b), p + "_7zzzzzzzzzzzzzzzzzzzzzzzzz");
  EXPECT_EQ(Format64(p, ~std::uint64_t{0}).size(), ulid_tsid::kTypeidMaxLength64);
  EXPECT_EQ(Format128("", b), "7zzzzzzzzzzzzzzzzzzzzzzzzz");
}

}  // namespace
