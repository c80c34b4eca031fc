#include "postgres_api.hpp"

#include "errors.hpp"

#include "../core/tsid.hpp"
#include "timestamps.hpp"

namespace ulid_tsid::pg {

void report_bad_text(Node* escontext, const TextForm& form, const char* input,
                     std::size_t length, DecodeStatus status) {
  const char* type_name = form.type_name;
  if (form.decimal_hint != nullptr && is_decimal_integer(input, length)) {
    errsave(escontext, errcode(ERRCODE_INVALID_TEXT_REPRESENTATION),
            errmsg("invalid input syntax for type %s: \"%s\"", type_name, input),
            errdetail("A %s is %s; decimal digits are not read as a %s.", type_name, form.shape,
                      type_name),
            errhint("%s", form.decimal_hint));
    return;
  }
  switch (status.error) {
    case DecodeError::kBadLength: {
      char padded[kTsidTextLength + 1];
      std::uint64_t value = 0;
      if (form.hint_leading_zero && tsid_text_with_leading_zero(input, length, padded) &&
          decode_64(padded, kTsidTextLength, &value).ok()) {
        padded[kTsidTextLength] = '\0';
        errsave(escontext, errcode(ERRCODE_INVALID_TEXT_REPRESENTATION),
                errmsg("invalid input syntax for type %s: \"%s\"", type_name, input),
                errdetail("A %s is %s; this input has %zu.", type_name, form.shape, length),
                errhint("With its leading 0 restored (TSIDs made until 2028-09 begin with 0, and some "
                        "encoders drop it), this is '%s', a TSID of %s: write it so, or '0' || $1 for a parameter.",
                        padded, timestamptz_to_str(timestamptz_from_unix_ms(tsid_unix_ms(value)))));
        return;
      }
      errsave(escontext, errcode(ERRCODE_INVALID_TEXT_REPRESENTATION),
              errmsg("invalid input syntax for type %s: \"%s\"", type_name, input),
              errdetail("A %s is %s; this input has %zu.", type_name, form.shape, length));
      return;
    }
    case DecodeError::kEmpty:
      errsave(escontext, errcode(ERRCODE_INVALID_TEXT_REPRESENTATION),
              errmsg("invalid input syntax for type %s: \"%s\"", type_name, input),
              errdetail("A %s is %s; this input has %zu.", type_name, form.shape, length));
      return;
    case DecodeError::kBadCharacter: {
      const unsigned char c = static_cast<unsigned char>(input[status.position]);
      if (c >= 0x21 && c < 0x7F) {
        errsave(escontext, errcode(ERRCODE_INVALID_TEXT_REPRESENTATION),
                errmsg("invalid input syntax for type %s: \"%s\"", type_name, input),
                errdetail("Character \"%c\" at position %zu is not a Crockford base32 symbol.", c,
                          status.position + 1));
      } else {
        errsave(escontext, errcode(ERRCODE_INVALID_TEXT_REPRESENTATION),
                errmsg("invalid input syntax for type %s: \"%s\"", type_name, input),
                errdetail("Byte 0x%02X at position %zu is not a Crockford base32 symbol.", c,
                          status.position + 1));
      }
      return;
    }
    case DecodeError::kOverflow:
    case DecodeError::kNone:
      break;
  }
  errsave(escontext, errcode(ERRCODE_INVALID_TEXT_REPRESENTATION),
          errmsg("invalid input syntax for type %s: \"%s\"", type_name, input),
          errdetail("The largest %s is %s.", type_name, form.largest));
}

void report_generate_failure(const char* function_name, GenerateStatus status) {
  if (status == GenerateStatus::kClockOutOfRange) {
    ereport(ERROR, (errcode(ERRCODE_NUMERIC_VALUE_OUT_OF_RANGE),
                    errmsg("%s(): the system clock is outside the range of the key's timestamp",
                           function_name)));
  }
  ereport(ERROR, (errcode(ERRCODE_NUMERIC_VALUE_OUT_OF_RANGE),
                  errmsg("%s(): no later value is left in the key's time range", function_name),
                  errdetail("The timestamp field has reached its largest value."),
                  errhint("If the system clock once ran far ahead, keys continue above the mark it left: a "
                          "superuser can set the mark back with SELECT ulid_tsid_mark_reset();")));
  pg_unreachable();
}

void report_monotonic_overflow() {
  ereport(ERROR, (errcode(ERRCODE_NUMERIC_VALUE_OUT_OF_RANGE),
                  errmsg("generate_ulid_monotonic(): no larger value is left in this millisecond"),
                  errdetail("The 80-bit random part cannot be incremented without wrapping around."),
                  errhint("Use generate_ulid(), which never runs out within a millisecond.")));
  pg_unreachable();
}

void report_no_randomness() {
  ereport(ERROR, (errcode(ERRCODE_INTERNAL_ERROR),
                  errmsg("could not seed the random number generator from the kernel")));
  pg_unreachable();
}

void report_tsid_on_standby() {
  ereport(ERROR, (errcode(ERRCODE_READ_ONLY_SQL_TRANSACTION),
                  errmsg("generate_tsid() cannot run on a standby"),
                  errdetail("A standby carries its primary's node id and cannot record the TSIDs it made, so "
                            "they could repeat its own or the primary's."),
                  errhint("Make TSIDs on the primary; generate_ulid() and generate_uuidv7() work on a standby.")));
  pg_unreachable();
}

}  // namespace ulid_tsid::pg
