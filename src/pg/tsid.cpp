// The SQL type tsid (an int8 underneath: comparison, hashing, sortsupport and
// binary I/O are Postgres's int8 functions, bound in the extension script), its
// settings, and generate_tsid().
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
#include "utils/guc.h"
#if PG_VERSION_NUM >= 170000
#include "storage/procnumber.h"
#else
#include "storage/backendid.h"
#endif
}

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

// Both are properties of the server (PGC_SIGHUP): a session cannot change them,
// so a setting copied to other nodes per session (Citus's propagated SET LOCAL)
// cannot give them all one id. Each is checked alone, because their check hooks
// would otherwise see each other's old values and the order of two lines in
// postgresql.conf would decide what a reload keeps; the combination is checked
// where a value is generated.
constexpr int kNodeIdUnset = -1;
int g_node_id = kNodeIdUnset;
int g_node_bits = 0;  // one cluster needs no node bits; multi-node setups set both

int bit_width(unsigned value) {
  int bits = 0;
  while (value != 0) {
    ++bits;
    value >>= 1;
  }
  return bits;
}

// The node settings as a layout, or an ERROR that names what to set.
TsidLayout node_layout() {
  TsidLayout layout;
  layout.node_bits = g_node_bits;
  if (g_node_bits == 0) return layout;  // the node id, set or not, takes no bits
  if (unlikely(g_node_id == kNodeIdUnset)) {
    ereport(ERROR, (errcode(ERRCODE_INVALID_PARAMETER_VALUE),
                    errmsg("generate_tsid(): ulid_tsid.node_bits is %d but ulid_tsid.node_id is not set", g_node_bits),
                    errhint("Give this server its own ulid_tsid.node_id, from 0 to %d, in postgresql.conf or "
                            "with ALTER SYSTEM, then reload.",
                            (1 << g_node_bits) - 1)));
  }
  if (unlikely(g_node_id >= (1 << g_node_bits))) {
    ereport(ERROR, (errcode(ERRCODE_INVALID_PARAMETER_VALUE),
                    errmsg("generate_tsid(): ulid_tsid.node_id %d does not fit in ulid_tsid.node_bits = %d", g_node_id,
                           g_node_bits),
                    errdetail("With %d node bits, node ids go from 0 to %d.", g_node_bits, (1 << g_node_bits) - 1),
                    errhint("Raise ulid_tsid.node_bits (the same on every server) or lower ulid_tsid.node_id.")));
  }
  layout.node_id = static_cast<std::uint64_t>(g_node_id);
  return layout;
}

int slot_bits(bool shared) { return shared ? 0 : bit_width(static_cast<unsigned>(MaxBackends)); }

// This backend's layout: with shared ticks the node alone; otherwise the node and
// this backend's slot (unique among live backends) in the lowest bits.
TsidLayout current_layout(bool shared) {
  TsidLayout layout = node_layout();
  if (!shared) {
    // Slots run 1..MaxBackends (0 stays free for a backend without one, as in
    // single-user mode): MyBackendId is 1-based, MyProcNumber (17+) 0-based.
#if PG_VERSION_NUM >= 170000
    const int slot = MyProcNumber + 1;
#else
    const int slot = MyBackendId;
#endif
    layout.slot_bits = slot_bits(shared);
    layout.slot = slot > 0 ? static_cast<std::uint64_t>(slot) : 0;
  }
  if (unlikely(!layout.valid())) {
    ereport(ERROR,
            (errcode(ERRCODE_INVALID_PARAMETER_VALUE),
             errmsg("generate_tsid(): no counter bits left"),
             errdetail("ulid_tsid.node_bits = %d and %d bits for the backend slot (max_connections and "
                       "worker settings) exceed the 22 bits below the timestamp.",
                       layout.node_bits, layout.slot_bits),
             errhint("Add ulid_tsid to shared_preload_libraries (no slot bits needed), or lower "
                     "ulid_tsid.node_bits.")));
  }
  return layout;
}

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

namespace ulid_tsid::pg {

void define_tsid_settings() {
  DefineCustomIntVariable("ulid_tsid.node_bits", "Bits of a TSID given to the node id (0-20).",
                          "0 (the default) gives all 22 low bits to the counter; servers that write "
                          "into shared data set the same node_bits everywhere and distinct node_ids.",
                          &g_node_bits, 0, 0, kTsidMaxNodeBits, PGC_SIGHUP, 0, nullptr, nullptr, nullptr);
  DefineCustomIntVariable("ulid_tsid.node_id", "This server's node id, written into every generated TSID.",
                          "-1 (the default) means not set, which generate_tsid() refuses when node_bits "
                          "is above 0. Give each server that writes TSIDs into shared data its own id.",
                          &g_node_id, kNodeIdUnset, kNodeIdUnset, (1 << kTsidMaxNodeBits) - 1, PGC_SIGHUP, 0,
                          nullptr, nullptr, nullptr);
}

TsidSettings describe_tsid_settings(bool shared) {
  TsidSettings settings;
  settings.node_bits = g_node_bits;
  settings.node_id = g_node_id;
  settings.slot_bits = slot_bits(shared);
  settings.counter_bits = 22 - g_node_bits - settings.slot_bits;
  if (settings.counter_bits < 0) settings.counter_bits = 0;
  return settings;
}

}  // namespace ulid_tsid::pg

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
  const TsidLayout layout = current_layout(shared);
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
