// The SQL type tsid (an int8 underneath: comparison, hashing, sortsupport and
// binary I/O are Postgres's int8 functions, bound in the extension script) and
// generate_tsid(); its settings are in tsid_settings.cpp.
#include "postgres_api.hpp"

#include "../core/clock.hpp"
#include "../core/clock_wait.hpp"
#include "../core/crockford.hpp"
#include "../core/tsid.hpp"
#include "errors.hpp"
#include "mark.hpp"
#include "process_state.hpp"
#include "settings.hpp"
#include "timestamps.hpp"

extern "C" {
PG_FUNCTION_INFO_V1(tsid_in);
PG_FUNCTION_INFO_V1(tsid_out);
PG_FUNCTION_INFO_V1(tsid_timestamp);
PG_FUNCTION_INFO_V1(tsid_lower_bound);
PG_FUNCTION_INFO_V1(tsid_upper_bound);
PG_FUNCTION_INFO_V1(tsid_node);
PG_FUNCTION_INFO_V1(tsid_counter);
PG_FUNCTION_INFO_V1(generate_tsid);
}

using namespace ulid_tsid;
using namespace ulid_tsid::pg;

namespace {

constexpr TextForm kTsidText = {
    "tsid", "13 Crockford base32 characters", "FZZZZZZZZZZZZ",
    "A TSID's number is a bigint: cast it through bigint, as in '915268788478279683'::bigint::tsid "
    "(or $1::bigint for a parameter).",
    true};

// A value may run at most this far ahead of the clock before the caller waits:
// further ahead means the clock stepped back, and waiting would stall.
constexpr std::uint64_t kMaxWaitMs = 2;
// The longest that wait lasts in real time (the monotonic clock): the clock's
// kMaxWaitMs and a millisecond more. A clock stepped back during the wait ends
// it there, and the value runs ahead of the clock as after any step back.
constexpr std::int64_t kMaxWaitNs = static_cast<std::int64_t>(kMaxWaitMs + 1) * kNsPerMs;

std::uint64_t tsid_arg(FunctionCallInfo fcinfo, int n) {
  return static_cast<std::uint64_t>(PG_GETARG_INT64(n));
}

int node_bits_arg(FunctionCallInfo fcinfo, int n) {
  const int32 bits = PG_GETARG_INT32(n);
  if (bits < 0 || bits > kTsidMaxNodeBits) {
    ereport(ERROR, (errcode(ERRCODE_INVALID_PARAMETER_VALUE),
                    errmsg("node_bits must be between 0 and %d, not %d", kTsidMaxNodeBits, bits)));
  }
  return bits;
}

}  // namespace


// Text to tsid: 13 Crockford characters, any case, I/L/O read as 1/1/0.
Datum tsid_in(PG_FUNCTION_ARGS) {
  const char* text = PG_GETARG_CSTRING(0);
  const std::size_t length = strlen(text);
  std::uint64_t value = 0;
  const DecodeStatus status = decode_64(text, length, &value);
  if (!status.ok()) {
    report_bad_text(fcinfo->context, kTsidText, text, length, status);
    PG_RETURN_NULL();
  }
  PG_RETURN_INT64(static_cast<int64>(value));
}

// Tsid to its canonical 13 upper-case characters.
Datum tsid_out(PG_FUNCTION_ARGS) {
  char* out = static_cast<char*>(palloc(kTsidTextLength + 1));
  encode_64(tsid_arg(fcinfo, 0), out);
  out[kTsidTextLength] = '\0';
  PG_RETURN_CSTRING(out);
}

// The creation time of a tsid, to the millisecond.
Datum tsid_timestamp(PG_FUNCTION_ARGS) {
  PG_RETURN_TIMESTAMPTZ(timestamptz_from_unix_ms(tsid_unix_ms(tsid_arg(fcinfo, 0))));
}

Datum tsid_lower_bound(PG_FUNCTION_ARGS) { return tsid_bound_of(fcinfo, false, kTsidMaxMs, OutOfRange::kError); }
Datum tsid_upper_bound(PG_FUNCTION_ARGS) { return tsid_bound_of(fcinfo, true, kTsidMaxMs, OutOfRange::kError); }

// The node id and the counter of a tsid read with `node_bits` node bits.
Datum tsid_node(PG_FUNCTION_ARGS) {
  PG_RETURN_INT32(static_cast<int32>(tsid_node(tsid_arg(fcinfo, 0), node_bits_arg(fcinfo, 1))));
}

Datum tsid_counter(PG_FUNCTION_ARGS) {
  PG_RETURN_INT32(static_cast<int32>(tsid_counter(tsid_arg(fcinfo, 0), node_bits_arg(fcinfo, 1))));
}

// A new tsid; never a duplicate within the cluster (see README: Guarantees).
Datum generate_tsid(PG_FUNCTION_ARGS) {
  ProcessState& state = process_state();
  mark_prepare(fcinfo, state);
  if (unlikely(g_mark_state.in_recovery)) report_tsid_on_standby();
  const bool shared = state.tsid.ticks().shared();
  const TsidLayout layout = current_tsid_layout(shared);
  const std::int64_t now_ns = realtime_ns();
  const ClockMs now = split_ns(now_ns);
  std::uint64_t value = 0;
  const GenerateStatus status = state.tsid.next(now, layout, &value);
  if (unlikely(status != GenerateStatus::kOk)) report_generate_failure("generate_tsid", status);
  const std::int64_t now_ms = now.ms;
  const std::int64_t value_ms = tsid_unix_ms(value);
  mark_cover(value_ms, now_ms, !shared);
  // A used-up millisecond moved the value ahead of the clock: wait for the clock,
  // so no value is ever ahead of it when its backend exits and a new backend
  // takes over the slot. Cancellable, and at most kMaxWaitNs of real time.
  if (unlikely(value_ms > now_ms) && static_cast<std::uint64_t>(value_ms - now_ms) <= kMaxWaitMs) {
    SystemClock clock;
    wait_for_clock_ms(clock, value_ms, kMaxWaitNs, [] { CHECK_FOR_INTERRUPTS(); });
  }
  PG_RETURN_INT64(static_cast<int64>(value));
}
