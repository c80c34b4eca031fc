// The SQL type ulid: text and bytea conversions, timestamps, min/max support and
// the generators. Comparison, hashing, sortsupport and send/recv are Postgres's
// own uuid functions, bound in the extension script: the bytes are the same.
#include "postgres_api.hpp"

#include "../core/crockford.hpp"
#include "../core/clock.hpp"
#include "../core/ulid.hpp"
#include "errors.hpp"
#include "mark.hpp"
#include "process_state.hpp"
#include "timestamps.hpp"

extern "C" {
PG_FUNCTION_INFO_V1(ulid_in);
PG_FUNCTION_INFO_V1(ulid_out);
PG_FUNCTION_INFO_V1(ulid_from_bytea);
PG_FUNCTION_INFO_V1(ulid_timestamp);
PG_FUNCTION_INFO_V1(ulid_lower_bound);
PG_FUNCTION_INFO_V1(ulid_upper_bound);
PG_FUNCTION_INFO_V1(ulid_to_timestamp);
PG_FUNCTION_INFO_V1(ulid_from_timestamp);
PG_FUNCTION_INFO_V1(ulid_smaller);
PG_FUNCTION_INFO_V1(ulid_larger);
PG_FUNCTION_INFO_V1(generate_ulid);
PG_FUNCTION_INFO_V1(generate_ulid_monotonic);
}

using namespace ulid_tsid;
using namespace ulid_tsid::pg;

namespace {

constexpr TextForm kUlidText = {"ulid", "26 Crockford base32 characters",
                                "7ZZZZZZZZZZZZZZZZZZZZZZZZZ"};

}  // namespace

// Text to ulid: 26 Crockford characters, any case, I/L/O read as 1/1/0.
Datum ulid_in(PG_FUNCTION_ARGS) {
  const char* text = PG_GETARG_CSTRING(0);
  const std::size_t length = strlen(text);
  pg_uuid_t* out = palloc_uuid();
  const DecodeStatus status = decode_128(text, length, out->data);
  if (!status.ok()) {
    report_bad_text(fcinfo->context, kUlidText, text, length, status);
    PG_RETURN_NULL();
  }
  PG_RETURN_UUID_P(out);
}

// Ulid to its canonical 26 upper-case characters.
Datum ulid_out(PG_FUNCTION_ARGS) {
  char* out = static_cast<char*>(palloc(kUlidTextLength + 1));
  encode_128(PG_GETARG_UUID_P(0)->data, out);
  out[kUlidTextLength] = '\0';
  PG_RETURN_CSTRING(out);
}

// Exactly 16 bytes of bytea to ulid.
Datum ulid_from_bytea(PG_FUNCTION_ARGS) {
  bytea* raw = PG_GETARG_BYTEA_PP(0);
  const std::size_t length = VARSIZE_ANY_EXHDR(raw);
  if (length != 16) {
    ereport(ERROR, (errcode(ERRCODE_INVALID_PARAMETER_VALUE),
                    errmsg("invalid length for a ulid: %zu bytes", length),
                    errdetail("A ulid is made from exactly 16 bytes.")));
  }
  pg_uuid_t* out = palloc_uuid();
  memcpy(out->data, VARDATA_ANY(raw), 16);
  PG_RETURN_UUID_P(out);
}

// The creation time of a ulid, to the millisecond.
Datum ulid_timestamp(PG_FUNCTION_ARGS) {
  const std::uint64_t ms = ulid_time_ms(PG_GETARG_UUID_P(0)->data);
  PG_RETURN_TIMESTAMPTZ(timestamptz_from_unix_ms(static_cast<int64>(ms)));
}

// The smallest ulid of the timestamp's millisecond (random part all zeros).
Datum ulid_lower_bound(PG_FUNCTION_ARGS) { return uuid_bound_of(fcinfo, ulid_bound, false, OutOfRange::kError, "ulid"); }

// The largest ulid of the timestamp's millisecond (random part all ones).
Datum ulid_upper_bound(PG_FUNCTION_ARGS) { return uuid_bound_of(fcinfo, ulid_bound, true, OutOfRange::kError, "ulid"); }

// The casts to and from timestamp (UTC): a timestamp's microseconds are the
// UTC instant's timestamptz. Symbols of their own, so that the planner's
// lookup by C symbol (extension_objects.cpp) finds ulid_timestamp() alone.
Datum ulid_to_timestamp(PG_FUNCTION_ARGS) { return ulid_timestamp(fcinfo); }
Datum ulid_from_timestamp(PG_FUNCTION_ARGS) {
  return uuid_bound_of(fcinfo, ulid_bound, false, OutOfRange::kError, "ulid", TimeType::kTimestamp);
}

// min() and max() transition functions.
Datum ulid_smaller(PG_FUNCTION_ARGS) {
  pg_uuid_t* a = PG_GETARG_UUID_P(0);
  pg_uuid_t* b = PG_GETARG_UUID_P(1);
  PG_RETURN_UUID_P(memcmp(a->data, b->data, 16) <= 0 ? a : b);
}

Datum ulid_larger(PG_FUNCTION_ARGS) {
  pg_uuid_t* a = PG_GETARG_UUID_P(0);
  pg_uuid_t* b = PG_GETARG_UUID_P(1);
  PG_RETURN_UUID_P(memcmp(a->data, b->data, 16) >= 0 ? a : b);
}

// A new ulid: strictly increasing per backend, or across the database when preloaded;
// within a millisecond in clock order across backends too.
Datum generate_ulid(PG_FUNCTION_ARGS) {
  ProcessState& state = process_state();
  mark_prepare(fcinfo, state);
  std::uint8_t random[kUlidTailBytes];
  draw_random(random, sizeof random);
  pg_uuid_t* out = palloc_uuid();
  const std::int64_t now_ns = realtime_ns();
  std::uint64_t tick = 0;
  const GenerateStatus status = state.ulid.next(split_ns(now_ns), random, out->data, &tick);
  if (unlikely(status != GenerateStatus::kOk)) report_generate_failure("generate_ulid", status);
  mark_cover_at(static_cast<std::int64_t>(tick >> kUlidFractionBits), now_ns);
  PG_RETURN_UUID_P(out);
}

// A new ulid in the ULID spec's monotonic mode (previous random part + 1 within
// a millisecond); an ERROR rather than a wrap when the 80 bits run out. One
// sequence per backend, or for the whole database when preloaded: the random
// bytes and the result are allocated before its spinlock, errors reported after.
Datum generate_ulid_monotonic(PG_FUNCTION_ARGS) {
  ProcessState& state = process_state();
  mark_prepare(fcinfo, state);
  const ClockMs now = split_ns(realtime_ns());
  std::uint8_t random[kUlidRandomBytes] = {};
  if (state.ulid_monotonic.needs_random(now)) draw_random(random, sizeof random);
  pg_uuid_t* out = palloc_uuid();
  std::int64_t value_ms = -1;
  const GenerateStatus status = state.ulid_monotonic.next(now, random, out->data, &value_ms);
  if (unlikely(status == GenerateStatus::kExhausted)) report_monotonic_overflow();
  if (unlikely(status != GenerateStatus::kOk)) report_generate_failure("generate_ulid_monotonic", status);
  mark_cover(value_ms, now.ms, false);
  PG_RETURN_UUID_P(out);
}
