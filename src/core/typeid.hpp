// TypeID text (jetify-com/typeid spec v0.3): `prefix_` + 26 lower-case base32
// characters of a 128-bit value, and the same shape with 13 characters for our
// 64-bit values (tsid). An empty prefix has no separator.
//
//   prefix   ^([a-z]([a-z_]{0,61}[a-z])?)?$   (at most 63 bytes)
//   suffix   alphabet 0123456789abcdefghjkmnpqrstvwxyz, strictly lower case,
//            no Crockford folding (i l o u and upper case are errors);
//            128 bits: exactly 26 characters, the first at most '7' (two zero
//            bits are prepended); 64 bits: exactly 13, the first at most 'f'.
//
// Parsing splits at the LAST underscore; a text without one has the empty
// prefix; a present separator with an empty prefix ("_0000...", "_") is invalid.
// Parsing takes the prefix the caller expects and refuses any other one.
//
// Pure C++17: no Postgres headers, no heap, nothing throws.
#pragma once

#include <cstddef>
#include <cstdint>

namespace ulid_tsid {

inline constexpr char kTypeidAlphabet[] = "0123456789abcdefghjkmnpqrstvwxyz";
inline constexpr std::size_t kTypeidMaxPrefixLength = 63;
inline constexpr std::size_t kTypeidSuffixLength128 = 26;
inline constexpr std::size_t kTypeidSuffixLength64 = 13;
// Max text length: 63 + 1 + 26 (128 bits), 63 + 1 + 13 (64 bits).
inline constexpr std::size_t kTypeidMaxLength128 = 90, kTypeidMaxLength64 = 77;

// Why a parse failed. Checked in this order: the text's own prefix (kBadPrefix),
// then against the expected prefix (kPrefixMismatch), then the suffix (missing,
// bad character, length, overflow).
enum class TypeidError : std::uint8_t {
  kNone = 0,
  kBadPrefix,           // the text's prefix breaks the prefix rule (incl. "_" + suffix with empty prefix)
  kPrefixMismatch,      // valid prefix, but not the expected one
  kMissingSuffix,       // empty text, "_" alone, or "prefix_" with nothing after it
  kBadSuffixLength,     // suffix characters all valid, but not exactly 26 (13)
  kBadSuffixCharacter,  // a suffix byte outside the lower-case alphabet
  kSuffixOverflow,      // first suffix character above '7' ('f' for 64 bits)
};

// `position`: byte offset in the whole text of
//   kBadPrefix          the first offending prefix byte (for a prefix longer than
//                       63 bytes made of valid bytes: 63; for a trailing '_': its offset;
//                       for an empty prefix before the separator: 0)
//   kPrefixMismatch     0
//   kMissingSuffix      the text's length
//   kBadSuffixCharacter the first bad byte of the suffix
//   kBadSuffixLength    too short: the text's length; too long: the first excess byte
//   kSuffixOverflow     the first suffix character
struct TypeidStatus {
  TypeidError error = TypeidError::kNone;
  std::size_t position = 0;
  bool ok() const noexcept { return error == TypeidError::kNone; }
};

// True when `prefix` obeys the prefix rule (the empty prefix is valid).
bool typeid_prefix_valid(const char* prefix, std::size_t length) noexcept;

// The same check with the offending byte's offset (kNone or kBadPrefix).
TypeidStatus typeid_prefix_check(const char* prefix, std::size_t length) noexcept;

// A short English description of an error (static string, never null).
const char* typeid_error_message(TypeidError error) noexcept;

// Write the TypeID (no terminator) into out; return the length written; the
// caller has checked typeid_prefix_valid. `out` needs kTypeidMaxLength128 / 64 bytes.
std::size_t typeid_format_128(const char* prefix, std::size_t prefix_length,
                              const std::uint8_t bytes[16], char* out) noexcept;
std::size_t typeid_format_64(const char* prefix, std::size_t prefix_length, std::uint64_t value,
                             char* out) noexcept;

// Parse `text`; the expected prefix must itself be valid (caller checks); on
// failure `bytes`/`value` are untouched. `bytes` are big-endian (UUID order).
TypeidStatus typeid_parse_128(const char* text, std::size_t length, const char* expected_prefix,
                              std::size_t expected_length, std::uint8_t bytes[16]) noexcept;
TypeidStatus typeid_parse_64(const char* text, std::size_t length, const char* expected_prefix,
                             std::size_t expected_length, std::uint64_t* value) noexcept;

}  // namespace ulid_tsid
