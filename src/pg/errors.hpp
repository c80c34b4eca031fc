// Error reports shared by the key types. Each one is an ERROR with the SQLSTATE
// that the project promises: 22P02 bad text, 22003 out of range, 22023 bad argument.
#pragma once

#include "postgres_api.hpp"

#include "../core/crockford.hpp"
#include "../core/ticks.hpp"

namespace ulid_tsid::pg {

// How a type's text looks, for error details.
struct TextForm {
  const char* type_name;  // "ulid"
  const char* shape;      // "26 Crockford base32 characters"
  const char* largest;    // "7ZZZZZZZZZZZZZZZZZZZZZZZZZ"
  // For a type whose values are also integers: the hint given when the text is
  // a decimal integer, so that a driver's decimal string is not just "too long".
  const char* decimal_hint = nullptr;
  // TSID text: a 12-symbol input (its leading 0 dropped, as the TSID article's
  // URLs do) gets a hint that shows its 13-character form and that form's time.
  bool hint_leading_zero = false;
};

// Bad text for `form`. Returns only when `escontext` collects soft errors
// (PG 16+), after which the caller returns.
void report_bad_text(Node* escontext, const TextForm& form, const char* input,
                     std::size_t length, DecodeStatus status);

// A generator that could not produce a value: the clock outside the key's range,
// or the range used up. Never returns.
[[noreturn]] void report_generate_failure(const char* function_name, GenerateStatus status);
// generate_ulid_monotonic()'s 80-bit part cannot take +1 in this millisecond.
[[noreturn]] void report_monotonic_overflow();
[[noreturn]] void report_no_randomness();
[[noreturn]] void report_tsid_on_standby();

}  // namespace ulid_tsid::pg
