// Crockford base32 for fixed-width keys: 128-bit values as 26 characters
// (ULID) and 64-bit values as 13 characters (TSID).
//
// Pure C++17: no Postgres headers, no heap, nothing throws.
#pragma once

#include <cstddef>
#include <cstdint>

namespace ulid_tsid {

inline constexpr char kCrockfordAlphabet[] = "0123456789ABCDEFGHJKMNPQRSTVWXYZ";
inline constexpr std::size_t kUlidTextLength = 26;
inline constexpr std::size_t kTsidTextLength = 13;

// Why a decode failed; `position` (0-based byte offset) is set for kBadCharacter.
enum class DecodeError : std::uint8_t {
  kNone = 0,
  kEmpty,          // nothing to decode
  kBadLength,      // not the one accepted length: 26 (ULID), 13 (TSID)
  kBadCharacter,   // not a Crockford symbol or alias (U, punctuation, space, non-ASCII)
  kOverflow,       // more bits than the value has (first character too large)
};

struct DecodeStatus {
  DecodeError error = DecodeError::kNone;
  std::size_t position = 0;
  bool ok() const noexcept { return error == DecodeError::kNone; }
};

// Value of one input byte: 0..31, or -1 when the byte is not accepted.
// Accepts both cases and Crockford's aliases I, L -> 1 and O -> 0.
int crockford_value(unsigned char c) noexcept;

// Writes exactly 26 characters (no terminator) for 16 big-endian bytes, in
// `alphabet` (32 symbols): Crockford's upper case by default, TypeID's lower case.
void encode_128(const std::uint8_t bytes[16], char out[kUlidTextLength],
                const char* alphabet = kCrockfordAlphabet) noexcept;

// Reads exactly 26 characters into 16 big-endian bytes; `bytes` is untouched on failure.
DecodeStatus decode_128(const char* text, std::size_t length, std::uint8_t bytes[16]) noexcept;

// Writes exactly 13 characters (no terminator), in `alphabet` as above.
void encode_64(std::uint64_t value, char out[kTsidTextLength],
               const char* alphabet = kCrockfordAlphabet) noexcept;

// Reads exactly 13 characters, as tsid-creator's TSID.from does. A shorter text
// is refused rather than read as if its leading zeros were dropped: short
// decimal strings ("12345") are valid Crockford symbols and would be misread.
DecodeStatus decode_64(const char* text, std::size_t length, std::uint64_t* value) noexcept;

// For a text of exactly 12 Crockford symbols (aliases and lower case included):
// writes the 13 canonical characters it reads as with a leading '0' restored,
// and returns true. That is how a TSID below 2^60 (one made before 2028-09-16)
// looks when its leading zero was dropped, as the TSID article's URLs do
// ('E34NNFRTCQ15' for '0E34NNFRTCQ15'). False, with `out` untouched, for any
// other text. decode_64 stays strict: callers use this for an error's hint.
bool tsid_text_with_leading_zero(const char* text, std::size_t length, char out[kTsidTextLength]) noexcept;

// True for an optionally signed run of ASCII digits. Every TSID since 2020 is 18
// or 19 decimal digits, so its decimal text never decodes as 13 characters of
// base32; the caller can name the bigint path instead of a bare length error.
bool is_decimal_integer(const char* text, std::size_t length) noexcept;

}  // namespace ulid_tsid
