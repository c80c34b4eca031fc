#include "postgres_api.hpp"

#include "timestamps.hpp"

extern "C" {
#include "utils/datetime.h"
#include "utils/timestamp.h"
}

#include "../core/clock_ticks.hpp"
#include "../core/tsid.hpp"

namespace ulid_tsid::pg {

std::int64_t unix_ms_now() { return (GetCurrentTimestamp() + kUnixEpochInPgMicros) / 1000; }

namespace {

// A time for an error message, printed as its SQL type prints it: a timestamptz
// in the session's TimeZone, a timestamp (the UTC instant's microseconds)
// without a zone; both in ISO style whatever DateStyle, as timestamptz_to_str()
// prints. Its own copy: timestamptz_to_str() reuses one buffer.
char* time_text(TimestampTz ts, TimeType type) {
  if (type == TimeType::kTimestamptz) return pstrdup(timestamptz_to_str(ts));
  char* text = static_cast<char*>(palloc(MAXDATELEN + 1));
  struct pg_tm tm;
  fsec_t fsec;
  if (TIMESTAMP_NOT_FINITE(ts)) {
    EncodeSpecialTimestamp(ts, text);
  } else if (timestamp2tm(ts, nullptr, &tm, &fsec, nullptr, nullptr) == 0) {
    EncodeDateTime(&tm, fsec, false, 0, nullptr, USE_ISO_DATES, text);
  } else {
    strlcpy(text, "(timestamp out of range)", MAXDATELEN + 1);
  }
  return text;
}

// The first microsecond of Unix millisecond `ms`, and the last, kept to the
// finite timestamptz range: a range given in milliseconds may reach past it
// (the mark's does), and its microseconds would overflow int64.
constexpr int64 kFirstMsInRange = MIN_TIMESTAMP / 1000 + kUnixEpochInPgMicros / 1000;
constexpr int64 kLastMsInRange = (END_TIMESTAMP - 1) / 1000 + kUnixEpochInPgMicros / 1000;

TimestampTz first_us_of_ms(int64 ms) {
  return ms <= kFirstMsInRange ? MIN_TIMESTAMP : timestamptz_from_unix_ms(ms);
}

TimestampTz last_us_of_ms(int64 ms) {
  return ms >= kLastMsInRange ? END_TIMESTAMP - 1 : timestamptz_from_unix_ms(ms) + 999;
}

}  // namespace

int64 unix_ms_from_timestamptz(TimestampTz ts, int64 min_ms, int64 max_ms, OutOfRange out_of_range,
                               const char* what, TimeType type) {
  if (!TIMESTAMP_NOT_FINITE(ts)) {
    // Divide before shifting the epoch: timestamptz's own range would overflow.
    int64 ms = ts / 1000;
    if (ts % 1000 < 0) --ms;
    ms += kUnixEpochInPgMicros / 1000;
    if (ms >= min_ms && ms <= max_ms) return ms;
    if (out_of_range == OutOfRange::kClamp) return ms < min_ms ? min_ms : max_ms;
  } else if (out_of_range == OutOfRange::kClamp) {
    return TIMESTAMP_IS_NOBEGIN(ts) ? min_ms : max_ms;
  }
  const char* from = time_text(first_us_of_ms(min_ms), type);
  const char* to = time_text(last_us_of_ms(max_ms), type);
  // `what` is a key type ("A ulid holds ...") or a thing named with its article.
  if (strncmp(what, "the ", 4) == 0) {
    ereport(ERROR, (errcode(ERRCODE_NUMERIC_VALUE_OUT_OF_RANGE),
                    errmsg("timestamp out of range for %s: \"%s\"", what, time_text(ts, type)),
                    errdetail("The %s holds times from %s to %s.", what + 4, from, to)));
  }
  ereport(ERROR, (errcode(ERRCODE_NUMERIC_VALUE_OUT_OF_RANGE),
                  errmsg("timestamp out of range for %s: \"%s\"", what, time_text(ts, type)),
                  errdetail("A %s holds times from %s to %s.", what, from, to)));
  pg_unreachable();
}

Datum uuid_bound_of(FunctionCallInfo fcinfo, void (*bound)(std::uint64_t ms, bool upper, std::uint8_t out[16]),
                    bool upper, OutOfRange out_of_range, const char* what, TimeType type) {
  const int64 ms = unix_ms_from_timestamptz(PG_GETARG_TIMESTAMPTZ(0), 0, static_cast<int64>(kMax48BitMs),
                                            out_of_range, what, type);
  pg_uuid_t* out = palloc_uuid();
  bound(static_cast<std::uint64_t>(ms), upper, out->data);
  PG_RETURN_UUID_P(out);
}

Datum tsid_bound_of(FunctionCallInfo fcinfo, bool upper, std::uint64_t max_ms, OutOfRange out_of_range) {
  const int64 unix_ms = unix_ms_from_timestamptz(PG_GETARG_TIMESTAMPTZ(0), kTsidEpochUnixMs,
                                                 kTsidEpochUnixMs + static_cast<int64>(max_ms), out_of_range, "tsid");
  PG_RETURN_INT64(static_cast<int64>(tsid_bound(static_cast<std::uint64_t>(unix_ms - kTsidEpochUnixMs), upper)));
}

}  // namespace ulid_tsid::pg
