// TypeID (jetify-com/typeid spec v0.3) forms of ulid, uuid and tsid keys:
// prefix_ + 26 (or, for tsid, 13) lower-case base32 characters. Parsing takes
// the expected prefix, so an order_... ID is never accepted where a user_... belongs.
#include "postgres_api.hpp"

#include "../core/typeid.hpp"
#include "typeid.hpp"

extern "C" {
PG_FUNCTION_INFO_V1(ulid_tsid_typeid_128);
PG_FUNCTION_INFO_V1(ulid_tsid_typeid_parse_128);
PG_FUNCTION_INFO_V1(ulid_tsid_typeid_64);
PG_FUNCTION_INFO_V1(ulid_tsid_typeid_parse_64);
}

using namespace ulid_tsid;
using namespace ulid_tsid::pg;

namespace ulid_tsid::pg {

TextArg prefix_arg(FunctionCallInfo fcinfo, int n) {
  const TextArg prefix = text_arg(fcinfo, n);
  const TypeidStatus status = typeid_prefix_check(prefix.data, prefix.length);
  if (!status.ok()) {
    ereport(ERROR,
            (errcode(ERRCODE_INVALID_PARAMETER_VALUE),
             errmsg("invalid TypeID prefix: \"%.*s\"", static_cast<int>(prefix.length), prefix.data),
             errdetail("A prefix is at most 63 characters of a-z and _, starting and ending with a letter "
                       "(or empty); byte %zu breaks the rule.",
                       status.position + 1)));
  }
  return prefix;
}

namespace {

// Bad TypeID text for `prefix`: ERROR 22P02 naming the input and what is wrong.
[[noreturn]] void report_bad_typeid(TextArg input, TextArg prefix, int error, std::size_t position) {
  const auto kind = static_cast<TypeidError>(error);
  if (kind == TypeidError::kPrefixMismatch) {
    ereport(ERROR, (errcode(ERRCODE_INVALID_TEXT_REPRESENTATION),
                    errmsg("invalid input syntax for a TypeID: \"%.*s\"", static_cast<int>(input.length),
                           input.data),
                    errdetail("Expected the prefix \"%.*s\".", static_cast<int>(prefix.length), prefix.data)));
  }
  if (position >= input.length) {  // missing or too short: no byte to point at
    ereport(ERROR, (errcode(ERRCODE_INVALID_TEXT_REPRESENTATION),
                    errmsg("invalid input syntax for a TypeID: \"%.*s\"", static_cast<int>(input.length),
                           input.data),
                    errdetail("%s.", typeid_error_message(kind))));
  }
  ereport(ERROR, (errcode(ERRCODE_INVALID_TEXT_REPRESENTATION),
                  errmsg("invalid input syntax for a TypeID: \"%.*s\"", static_cast<int>(input.length),
                         input.data),
                  errdetail("%s (at byte %zu).", typeid_error_message(kind), position + 1)));
  pg_unreachable();
}

}  // namespace

Datum typeid_text_128(TextArg prefix, const std::uint8_t bytes[16]) {
  char out[kTypeidMaxLength128];
  const std::size_t length = typeid_format_128(prefix.data, prefix.length, bytes, out);
  PG_RETURN_TEXT_P(cstring_to_text_with_len(out, static_cast<int>(length)));
}

Datum typeid_text_64(TextArg prefix, std::uint64_t value) {
  char out[kTypeidMaxLength64];
  const std::size_t length = typeid_format_64(prefix.data, prefix.length, value, out);
  PG_RETURN_TEXT_P(cstring_to_text_with_len(out, static_cast<int>(length)));
}

void typeid_bytes_128(TextArg input, TextArg prefix, std::uint8_t out[16]) {
  const TypeidStatus status = typeid_parse_128(input.data, input.length, prefix.data, prefix.length, out);
  if (!status.ok()) report_bad_typeid(input, prefix, static_cast<int>(status.error), status.position);
}

std::uint64_t typeid_value_64(TextArg input, TextArg prefix) {
  std::uint64_t value = 0;
  const TypeidStatus status = typeid_parse_64(input.data, input.length, prefix.data, prefix.length, &value);
  if (!status.ok()) report_bad_typeid(input, prefix, static_cast<int>(status.error), status.position);
  return value;
}

}  // namespace ulid_tsid::pg

// ulid or uuid (the same 16 bytes) -> prefix_ + 26 characters.
Datum ulid_tsid_typeid_128(PG_FUNCTION_ARGS) { return typeid_text_128(prefix_arg(fcinfo, 1), PG_GETARG_UUID_P(0)->data); }

// prefix_ + 26 characters -> ulid or uuid, checked against the expected prefix.
Datum ulid_tsid_typeid_parse_128(PG_FUNCTION_ARGS) {
  const TextArg prefix = prefix_arg(fcinfo, 1);
  pg_uuid_t* out = palloc_uuid();
  typeid_bytes_128(text_arg(fcinfo, 0), prefix, out->data);
  PG_RETURN_UUID_P(out);
}

// tsid -> prefix_ + 13 characters.
Datum ulid_tsid_typeid_64(PG_FUNCTION_ARGS) {
  return typeid_text_64(prefix_arg(fcinfo, 1), static_cast<std::uint64_t>(PG_GETARG_INT64(0)));
}

// prefix_ + 13 characters -> tsid.
Datum ulid_tsid_typeid_parse_64(PG_FUNCTION_ARGS) {
  const TextArg prefix = prefix_arg(fcinfo, 1);
  PG_RETURN_INT64(static_cast<int64>(typeid_value_64(text_arg(fcinfo, 0), prefix)));
}
