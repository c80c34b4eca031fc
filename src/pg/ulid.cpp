// The SQL type ulid: text and bytea conversions, timestamps, min/max support and
// the generators. Comparison, hashing, sortsupport and send/recv are Postgres's
// own uuid functions, bound in the extension script: the bytes are the same.
#include "../core/crockford.hpp"
#include "../core/clock.hpp"
#include "../core/ulid.hpp"
#include "errors.hpp"
#include "postgres_api.hpp"
#include "process_state.hpp"
#include "timestamps.hpp"

using namespace ulid_tsid;
using namespace ulid_tsid::pg;

namespace {

constexpr TextForm kUlidText = {"ulid", "26 Crockford base32 characters",
                                "7ZZZZZZZZZZZZZZZZZZZZZZZZZ"};

std::uint8_t* palloc_ulid() { return static_cast<std::uint8_t*>(palloc(16)); }

const std::uint8_t* ulid_arg(FunctionCallInfo fcinfo, int n) {
  return reinterpret_cast<const std::uint8_t*>(PG_GETARG_POINTER(n));
}

Datum ulid_bound_of(FunctionCallInfo fcinfo, bool upper) {
  const int64 ms = unix_ms_from_timestamptz(PG_GETARG_TIMESTAMPTZ(0), 0,
                                            static_cast<int64>(kUlidMaxMs), "ulid");
  std::uint8_t* out = palloc_ulid();
  ulid_bound(static_cast<std::uint64_t>(ms), upper, out);
  PG_RETURN_POINTER(out);
}

}  // namespace

// Text to ulid: 26 Crockford characters, any case, I/L/O read as 1/1/0.
ULID_TSID_FUNCTION(ulid_in) {
  const char* text = PG_GETARG_CSTRING(0);
  const std::size_t length = strlen(text);
  std::uint8_t* out = palloc_ulid();
  const DecodeStatus status = decode_128(text, length, out);
  if (!status.ok()) {
    report_bad_text(fcinfo->context, kUlidText, text, length, status);
    PG_RETURN_NULL();
  }
  PG_RETURN_POINTER(out);
}

// Ulid to its canonical 26 upper-case characters.
ULID_TSID_FUNCTION(ulid_out) {
  char* out = static_cast<char*>(palloc(kUlidTextLength + 1));
  encode_128(ulid_arg(fcinfo, 0), out);
  out[kUlidTextLength] = '\0';
  PG_RETURN_CSTRING(out);
}

// Exactly 16 bytes of bytea to ulid.
ULID_TSID_FUNCTION(ulid_from_bytea) {
  bytea* raw = PG_GETARG_BYTEA_PP(0);
  const std::size_t length = VARSIZE_ANY_EXHDR(raw);
  if (length != 16) {
    ereport(ERROR, (errcode(ERRCODE_INVALID_PARAMETER_VALUE),
                    errmsg("invalid length for a ulid: %zu bytes", length),
                    errdetail("A ulid is made from exactly 16 bytes.")));
  }
  std::uint8_t* out = palloc_ulid();
  memcpy(out, VARDATA_ANY(raw), 16);
  PG_RETURN_POINTER(out);
}

// The creation time of a ulid, to the millisecond.
ULID_TSID_FUNCTION(ulid_timestamp) {
  const std::uint64_t ms = ulid_time_ms(ulid_arg(fcinfo, 0));
  PG_RETURN_TIMESTAMPTZ(timestamptz_from_unix_ms(static_cast<int64>(ms)));
}

// The smallest ulid of the timestamp's millisecond (random part all zeros).
ULID_TSID_FUNCTION(ulid_lower_bound) { return ulid_bound_of(fcinfo, false); }

// The largest ulid of the timestamp's millisecond (random part all ones).
ULID_TSID_FUNCTION(ulid_upper_bound) { return ulid_bound_of(fcinfo, true); }

// min() and max() transition functions.
ULID_TSID_FUNCTION(ulid_smaller) {
  const std::uint8_t* a = ulid_arg(fcinfo, 0);
  const std::uint8_t* b = ulid_arg(fcinfo, 1);
  PG_RETURN_POINTER(memcmp(a, b, 16) <= 0 ? a : b);
}

ULID_TSID_FUNCTION(ulid_larger) {
  const std::uint8_t* a = ulid_arg(fcinfo, 0);
  const std::uint8_t* b = ulid_arg(fcinfo, 1);
  PG_RETURN_POINTER(memcmp(a, b, 16) >= 0 ? a : b);
}

// A new ulid: strictly increasing per backend, or cluster-wide when preloaded;
// within a millisecond in clock order across backends too.
ULID_TSID_FUNCTION(generate_ulid) {
  ProcessState& state = process_state();
  std::uint8_t random[kUlidTailBytes];
  draw_random(random, sizeof random);
  std::uint8_t* out = palloc_ulid();
  const GenerateStatus status = state.ulid.next_at(realtime_ns(), random, out);
  if (unlikely(status != GenerateStatus::kOk)) report_generate_failure("generate_ulid", status);
  PG_RETURN_POINTER(out);
}

// A new ulid in the ULID spec's monotonic mode (previous random part + 1 within
// a millisecond); an ERROR rather than a wrap when the 80 bits run out.
ULID_TSID_FUNCTION(generate_ulid_monotonic) {
  ProcessState& state = process_state();
  const std::int64_t now_ms = split_ns(realtime_ns()).ms;
  std::uint8_t random[kUlidRandomBytes] = {};
  if (state.ulid_monotonic.needs_random(now_ms)) draw_random(random, sizeof random);
  std::uint8_t* out = palloc_ulid();
  const GenerateStatus status = state.ulid_monotonic.next(now_ms, random, out);
  if (unlikely(status == GenerateStatus::kExhausted)) report_monotonic_overflow();
  if (unlikely(status != GenerateStatus::kOk)) report_generate_failure("generate_ulid_monotonic", status);
  PG_RETURN_POINTER(out);
}
