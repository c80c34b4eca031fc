// The TypeID API of the glue (typeid.cpp), which the TypeID and public-ID
// functions share: text and prefix (or public-ID domain) arguments, TypeID text
// of a key, and the key of TypeID text (ERROR 22P02 for bad text).
#pragma once

#include "postgres_api.hpp"

namespace ulid_tsid::pg {

struct TextArg {
  const char* data;  // not NUL-terminated
  std::size_t length;
};

inline TextArg text_arg(FunctionCallInfo fcinfo, int n) {
  text* value = PG_GETARG_TEXT_PP(n);
  return {VARDATA_ANY(value), static_cast<std::size_t>(VARSIZE_ANY_EXHDR(value))};
}

// A TypeID prefix (or public-ID domain) argument; ERROR 22023 unless it obeys
// the TypeID prefix rule ^([a-z]([a-z_]{0,61}[a-z])?)?$.
TextArg prefix_arg(FunctionCallInfo fcinfo, int n);

// The TypeID text of 16 bytes or of a 64-bit value under `prefix`, as a text datum.
Datum typeid_text_128(TextArg prefix, const std::uint8_t bytes[16]);
Datum typeid_text_64(TextArg prefix, std::uint64_t value);

// The 16 bytes or the 64-bit value that TypeID text `input` holds under
// `prefix`; anything else is ERROR 22P02 naming the input and what is wrong.
void typeid_bytes_128(TextArg input, TextArg prefix, std::uint8_t out[16]);
std::uint64_t typeid_value_64(TextArg input, TextArg prefix);

}  // namespace ulid_tsid::pg
