// uuidv7() on the core uuid type, PostgreSQL 18's layout and semantics, plus
// the time-window bounds and, before PostgreSQL 17, uuid_extract_timestamp()
// and uuid_extract_version(). C symbols carry a prefix so that they never shadow
// the server's own functions of the same names on newer servers.
#include "postgres_api.hpp"

#include "../core/clock.hpp"
#include "../core/ulid.hpp"
#include "../core/uuidv7.hpp"
#include "errors.hpp"
#include "mark.hpp"
#include "process_state.hpp"
#include "timestamps.hpp"

extern "C" {
#include "utils/fmgrprotos.h"
}

extern "C" {
PG_FUNCTION_INFO_V1(ulid_tsid_uuidv7);
PG_FUNCTION_INFO_V1(ulid_tsid_uuidv7_shifted);
PG_FUNCTION_INFO_V1(ulid_tsid_uuidv7_shifted_pg18);
PG_FUNCTION_INFO_V1(ulid_tsid_compat_timestamptz_to_v7);
PG_FUNCTION_INFO_V1(uuidv7_lower_bound);
PG_FUNCTION_INFO_V1(uuidv7_upper_bound);
PG_FUNCTION_INFO_V1(ulid_tsid_uuid_extract_timestamp);
PG_FUNCTION_INFO_V1(ulid_tsid_uuid_extract_version);
PG_FUNCTION_INFO_V1(uuidv7_timestamp);
}

using namespace ulid_tsid;
using namespace ulid_tsid::pg;

namespace {

// A version-7 UUID of clock reading `now_ns` into `out`, with `random` in rand_b.
// Returns the value's tick.
std::uint64_t generate_into(FunctionCallInfo fcinfo, std::int64_t now_ns, const std::uint8_t random[kUuidv7RandomBytes],
                            std::uint8_t out[16]) {
  ProcessState& state = process_state();
  mark_prepare(fcinfo, state);
  std::uint64_t tick = 0;
  const GenerateStatus status = state.uuidv7.next(split_ns(now_ns), random, out, &tick);
  if (unlikely(status != GenerateStatus::kOk)) report_generate_failure("generate_uuidv7", status);
  return tick;
}

Datum uuid_from_tick(std::uint64_t tick) {
  std::uint8_t random[kUuidv7RandomBytes];
  draw_random(random, sizeof random);
  pg_uuid_t* out = palloc_uuid();
  uuidv7_store(tick, random, out->data);
  PG_RETURN_UUID_P(out);
}

bool is_rfc_variant(const std::uint8_t* uuid) { return (uuid[8] & 0xC0) == 0x80; }

constexpr int64 kGregorianEpochJdate = 2299161;  // 1582-10-15, UUIDv1's epoch

}  // namespace

// A version-7 UUID of now: strictly increasing per session, across the database when preloaded.
Datum ulid_tsid_uuidv7(PG_FUNCTION_ARGS) {
  const std::int64_t now_ns = realtime_ns();
  std::uint8_t random[kUuidv7RandomBytes];
  draw_random(random, sizeof random);
  pg_uuid_t* out = palloc_uuid();
  const std::uint64_t tick = generate_into(fcinfo, now_ns, random, out->data);
  mark_cover_at(static_cast<std::int64_t>(tick >> kUuidv7FractionBits), now_ns);
  PG_RETURN_UUID_P(out);
}

namespace {

// A version-7 UUID of now shifted by an interval. With pg18_errors (the
// function named uuidv7(interval), for SQL written for PostgreSQL 18) a shift
// outside 1970..10889 is reported with 18.6's SQLSTATE and words; else
// (generate_uuidv7(interval)) with the project's 22003 that names the instant.
// Deliberately off the clock, it is outside the persisted mark: its tick moves
// the sequence on, but the shifted value is not reserved.
Datum uuidv7_shifted(FunctionCallInfo fcinfo, bool pg18_errors) {
  Interval* shift = PG_GETARG_INTERVAL_P(0);
#ifdef INTERVAL_NOT_FINITE
  if (pg18_errors && INTERVAL_NOT_FINITE(shift)) {
    ereport(ERROR, (errcode(ERRCODE_DATETIME_VALUE_OUT_OF_RANGE),
                    errmsg("interval out of range for UUID version 7"),
                    errdetail("UUID version 7 does not support infinite intervals.")));
  }
#endif
  // Milliseconds and the nanoseconds past them travel apart, as in PostgreSQL
  // 18: nanoseconds since 1970 overflow 64 bits after 2262, long before 10889.
  std::uint8_t unshifted[16];
  const std::uint8_t unused_random[kUuidv7RandomBytes] = {};
  const ClockMs now = clock_tick_time<kUuidv7FractionBits>(generate_into(fcinfo, realtime_ns(), unused_random, unshifted));
  // Shift in timestamptz (microseconds) so that months and days follow the
  // calendar; the nanoseconds below a microsecond are carried across.
  TimestampTz ts = now.ms * 1000 + now.sub_ms_ns / 1000 - kUnixEpochInPgMicros;
  ts = DatumGetTimestampTz(
      DirectFunctionCall2(timestamptz_pl_interval, TimestampTzGetDatum(ts), PointerGetDatum(shift)));
  if (pg18_errors && (TIMESTAMP_NOT_FINITE(ts) || ts < -kUnixEpochInPgMicros ||
                      ts / 1000 + kUnixEpochInPgMicros / 1000 > static_cast<int64>(kMax48BitMs))) {
    ereport(ERROR, (errcode(ERRCODE_DATETIME_VALUE_OUT_OF_RANGE),
                    errmsg("timestamp out of range for UUID version 7"),
                    errdetail("UUID version 7 supports timestamps from 1970-01-01 to approximately year 10889.")));
  }
  // ERROR 22003 outside 1970..10889, naming the instant.
  const int64 shifted_ms = unix_ms_from_timestamptz(ts, 0, static_cast<int64>(kMax48BitMs), OutOfRange::kError, "uuidv7");
  const int64 shifted_us = ts + kUnixEpochInPgMicros;
  const auto sub_ms_ns = static_cast<std::uint32_t>((shifted_us - shifted_ms * 1000) * 1000 + now.sub_ms_ns % 1000);
  return uuid_from_tick(clock_tick<kUuidv7FractionBits>(static_cast<std::uint64_t>(shifted_ms), sub_ms_ns));
}

}  // namespace

// generate_uuidv7(interval): now shifted by the interval, the project's errors.
Datum ulid_tsid_uuidv7_shifted(PG_FUNCTION_ARGS) { return uuidv7_shifted(fcinfo, false); }

// uuidv7(interval) since 0.4.0: the same value, PostgreSQL 18.6's errors.
Datum ulid_tsid_uuidv7_shifted_pg18(PG_FUNCTION_ARGS) { return uuidv7_shifted(fcinfo, true); }

Datum uuidv7_lower_bound(PG_FUNCTION_ARGS) { return uuid_bound_of(fcinfo, uuidv7_bound, false, OutOfRange::kError, "uuidv7"); }
Datum uuidv7_upper_bound(PG_FUNCTION_ARGS) { return uuid_bound_of(fcinfo, uuidv7_bound, true, OutOfRange::kError, "uuidv7"); }

// pg_uuidv7's uuid_timestamptz_to_v7(t, zero), for ulid_tsid_compat: a version-7
// UUID of t (its microseconds in rand_a's fraction, as uuidv7() writes them) with
// fresh random bits, or with `zero` the smallest of t's millisecond (zero bits).
Datum ulid_tsid_compat_timestamptz_to_v7(PG_FUNCTION_ARGS) {
  if (PG_GETARG_BOOL(1)) return uuidv7_lower_bound(fcinfo);
  const TimestampTz ts = PG_GETARG_TIMESTAMPTZ(0);
  const int64 ms = unix_ms_from_timestamptz(ts, 0, static_cast<int64>(kMax48BitMs), OutOfRange::kError, "uuidv7");
  const int64 us = ts + kUnixEpochInPgMicros;
  const auto sub_ms_ns = static_cast<std::uint32_t>((us - ms * 1000) * 1000);
  return uuid_from_tick(clock_tick<kUuidv7FractionBits>(static_cast<std::uint64_t>(ms), sub_ms_ns));
}

// PostgreSQL 17's uuid_extract_timestamp(): versions 1 and 7 of the RFC variant.
Datum ulid_tsid_uuid_extract_timestamp(PG_FUNCTION_ARGS) {
  const std::uint8_t* uuid = PG_GETARG_UUID_P(0)->data;
  if (!is_rfc_variant(uuid)) PG_RETURN_NULL();
  const int version = uuid[6] >> 4;
  if (version == 1) {
    const std::uint64_t intervals = (std::uint64_t{uuid[6] & 0x0Fu} << 56) | (std::uint64_t{uuid[7]} << 48) |
                                    (std::uint64_t{uuid[4]} << 40) | (std::uint64_t{uuid[5]} << 32) |
                                    (std::uint64_t{uuid[0]} << 24) | (std::uint64_t{uuid[1]} << 16) |
                                    (std::uint64_t{uuid[2]} << 8) | std::uint64_t{uuid[3]};
    PG_RETURN_TIMESTAMPTZ(static_cast<TimestampTz>(intervals / 10) -
                          (POSTGRES_EPOCH_JDATE - kGregorianEpochJdate) * SECS_PER_DAY * USECS_PER_SEC);
  }
  if (version == 7) {
    PG_RETURN_TIMESTAMPTZ(timestamptz_from_unix_ms(static_cast<int64>(ulid_time_ms(uuid))));
  }
  PG_RETURN_NULL();
}

// PostgreSQL 17's uuid_extract_version(): NULL unless the RFC variant.
Datum ulid_tsid_uuid_extract_version(PG_FUNCTION_ARGS) {
  const std::uint8_t* uuid = PG_GETARG_UUID_P(0)->data;
  if (!is_rfc_variant(uuid)) PG_RETURN_NULL();
  PG_RETURN_INT16(static_cast<int16>(uuid[6] >> 4));
}

// The creation time of a version-7 UUID (RFC variant), to the millisecond; NULL
// for any other UUID. Unlike uuid_extract_timestamp() it never reads a version-1
// time, which does not follow byte order: so its time predicates can be turned
// into index conditions on the uuid.
Datum uuidv7_timestamp(PG_FUNCTION_ARGS) {
  const std::uint8_t* uuid = PG_GETARG_UUID_P(0)->data;
  if (!is_rfc_variant(uuid) || (uuid[6] >> 4) != 7) PG_RETURN_NULL();
  PG_RETURN_TIMESTAMPTZ(timestamptz_from_unix_ms(static_cast<int64>(ulid_time_ms(uuid))));
}
