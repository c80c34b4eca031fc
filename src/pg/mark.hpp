// The generators' side of the persisted high-water mark (src/core/mark.hpp):
// what a generator calls before it claims a value (mark_prepare()) and before
// it returns one (mark_cover()); the record lives in the database's sequences
// (mark_store.hpp) and the server's copy (mark_file.hpp). The generators call
// the mark; the mark never calls a generator's file. See docs/guarantees.md.
#pragma once

#include "postgres_api.hpp"

#include "../core/clock.hpp"
#include "../core/mark.hpp"
#include "process_state.hpp"

namespace ulid_tsid::pg {

// This backend's view of its database's mark.
struct MarkState {
  bool settled = false;      // prepared, and not on a hot standby (which prepares again once promoted)
  bool ready = false;        // prepared: floors applied, `known` valid
  bool in_recovery = false;  // prepared on a hot standby
  bool settled_once = false; // settled at least once: `known` is this backend's last view of the mark
  bool fresh_ticks = false;  // preloaded: the database's shared ticks started afresh, not yet above the mark
  std::uint64_t lifetime = 0;
  MarkRecord known;          // a flushed record: what values are covered without a write
  // mark_covers(known, lifetime, ...) and mark_renewal_due() folded into two
  // numbers for the fast path: a value up to renew_ms (the reservation less
  // kMarkRenewMs) is covered with no renewal due, and a per-backend one running
  // ahead of the clock only up to cover_floor_ms.
  std::int64_t renew_ms = 0;
  std::int64_t cover_floor_ms = 0;
};

extern MarkState g_mark_state;
extern int g_max_lead_ms;    // ulid_tsid.max_lead
extern int g_raise_limit_s;  // ulid_tsid.raise_limit

// For the mark's SQL functions (mark_functions.cpp):
// ulid_tsid.raise_limit past the clock, in Unix ms.
std::int64_t raise_limit_ms();
// `known` becomes `record`, and the fast path's numbers follow it.
void know(MarkState& mark, const MarkRecord& record);
// Every generator of `state` starts above Unix millisecond `ms`.
void apply_floor(ProcessState& state, std::int64_t ms);
// Where generators set back to `target` start.
std::int64_t reset_point_ms(std::int64_t target);
// Preloaded: `state` on its database's shared ticks (after find_mark()).
void share_ticks(ProcessState& state);
// After a reset: the next per-backend ahead step starts again at 0.
void mark_forget_ahead_step();

// Slow paths of mark_prepare() and mark_cover().
void mark_prepare_slow(FunctionCallInfo fcinfo, ProcessState& state);
void mark_reserve_slow(std::int64_t value_ms, std::int64_t now_ms, bool per_backend);

// Before a generator claims: the first call of a backend (and its first after
// a promotion) reads the database's mark and starts every generator above it.
inline void mark_prepare(FunctionCallInfo fcinfo, ProcessState& state) {
  if (likely(g_mark_state.settled)) return;
  mark_prepare_slow(fcinfo, state);
}

// Before a value of Unix millisecond `value_ms`, made at clock `now_ms`, is
// returned: moves the reservation past it first when it is not covered, and
// renews it, without waiting, when the value is in its last kMarkRenewMs.
// `per_backend`: the generator's ticks are this backend's (not preloaded) and
// its uniqueness rests on the backend's TSID slot.
inline void mark_cover(std::int64_t value_ms, std::int64_t now_ms, bool per_backend) {
  if (likely(value_ms <= g_mark_state.renew_ms) &&
      (!per_backend || likely(value_ms <= now_ms + kMarkAheadSlackMs) || value_ms <= g_mark_state.cover_floor_ms)) {
    return;
  }
  mark_reserve_slow(value_ms, now_ms, per_backend);
}

// mark_cover() for a generator with no per-backend slot, at a Unix-ns clock
// reading: the reading becomes milliseconds only on the slow path.
inline void mark_cover_at(std::int64_t value_ms, std::int64_t now_ns) {
  if (likely(value_ms <= g_mark_state.renew_ms)) return;
  mark_reserve_slow(value_ms, split_ns(now_ns).ms, false);
}

}  // namespace ulid_tsid::pg
