// Arguments of the TypeID and public-ID functions: text, a TypeID prefix (or
// public-ID domain), and the error for bad TypeID text; defined in typeid.cpp.
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

// Bad TypeID text for `prefix`: ERROR 22P02 naming the input and what is wrong.
[[noreturn]] void report_bad_typeid(TextArg input, TextArg prefix, int error, std::size_t position);

}  // namespace ulid_tsid::pg
