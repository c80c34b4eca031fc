// The persisted high-water mark (src/core/mark.hpp) kept in the database: two
// extension-owned sequences, written in place and WAL-logged as core's
// nextval() writes a sequence, and flushed before a value past the reservation
// leaves a generator. See README: Guarantees.
#pragma once

#include "postgres_api.hpp"

#include "../core/mark.hpp"
#include "process_state.hpp"

namespace ulid_tsid::pg {

// This backend's view of its database's mark.
struct MarkState {
  bool ready = false;        // prepared: floors applied, `known` valid
  bool in_recovery = false;  // prepared on a hot standby: prepare again once promoted
  std::uint64_t lifetime = 0;
  MarkRecord known;          // a flushed record: what values are covered without a write
};

MarkState& mark_state();

// Slow paths of mark_prepare() and mark_cover().
void mark_prepare_slow(FunctionCallInfo fcinfo, ProcessState& state);
void mark_reserve_slow(std::int64_t value_ms, std::int64_t now_ms, bool per_backend);

// Before a generator claims: the first call of a backend (and its first after
// a promotion) reads the database's mark and starts every generator above it.
inline void mark_prepare(FunctionCallInfo fcinfo, ProcessState& state) {
  const MarkState& mark = mark_state();
  if (likely(mark.ready && !mark.in_recovery)) return;
  mark_prepare_slow(fcinfo, state);
}

// Before a value of Unix millisecond `value_ms`, made at clock `now_ms`, is
// returned: moves the reservation past it first when it is not covered.
// `per_backend`: the generator's ticks are this backend's (not preloaded) and
// its uniqueness rests on the backend's TSID slot.
inline void mark_cover(std::int64_t value_ms, std::int64_t now_ms, bool per_backend) {
  const MarkState& mark = mark_state();
  if (likely(mark_covers(mark.known, mark.lifetime, value_ms, now_ms, per_backend))) return;
  mark_reserve_slow(value_ms, now_ms, per_backend);
}

}  // namespace ulid_tsid::pg
