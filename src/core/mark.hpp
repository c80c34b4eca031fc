// The persisted high-water mark of a database's generators, as pure logic: what
// a backend's generators must start above, and how far a reservation moves.
// The Postgres side (src/pg/mark.cpp) keeps the record in two extension-owned
// sequences, WAL-logged and flushed before a value past the reservation is
// returned; this file knows nothing of where the record lives.
//
// Every time here is Unix milliseconds, the one unit all four generators share
// (a ULID or UUIDv7 tick, a TSID and a monotonic ULID each name a millisecond).
//
// The record holds three things:
//   reserved_ms  no value of the lifetime that wrote it has a millisecond above
//                this (a value past it moves it first, and waits for the WAL
//                flush before it is returned);
//   floor_ms     what a new backend of the same lifetime starts above: the
//                reservation of every earlier lifetime, and (without shared
//                ticks) any reservation made for values that ran ahead of the
//                clock;
//   lifetime     who wrote reserved_ms: one server lifetime (a start, a crash
//                recovery, a promotion), never 0.
// A backend whose lifetime differs starts above both times: the lifetime that
// wrote them may have returned values up to reserved_ms. A backend of the same
// lifetime starts above floor_ms only: taking reserved_ms, which runs ahead of
// the clock by design, would push every new backend, and the mark with it,
// further ahead each time.
#pragma once

#include <cstdint>

namespace ulid_tsid {

// How far ahead of the clock a reservation reaches when values follow the
// clock: the mark is written about once a second per database at most. Each
// write is a WAL flush and an fsync of the server's copy (about 1.3 ms with
// fsync on) in the insert that makes it; at four writes a second they showed
// in one client's slowest 0.1% of inserts. The price of a longer one: after a
// restart, a crash or a promotion, and on a standby, values start up to this
// far ahead of the clock.
inline constexpr std::int64_t kMarkReserveMs = 1000;
// How far ahead of a value a reservation reaches when values run ahead of the
// clock (after a restart with the clock behind the mark): values then advance
// by counting (65,536 ULIDs or 4,096 UUIDv7s or 2^counter_bits TSIDs per
// millisecond of value), so a short step keeps the jump small for each
// backend that starts while the clock is behind.
inline constexpr std::int64_t kMarkAheadReserveMs = 10;
// A value further ahead of the clock than this counts as running ahead (a TSID
// may wait up to 2 ms for the clock; ULIDs and UUIDv7s follow it).
inline constexpr std::int64_t kMarkAheadSlackMs = 2;
// How long before a reservation runs out the first value made in it renews it,
// while values follow the clock: that one backend writes and flushes, trying
// the mark's locks without waiting, and every other one goes on under the old
// reservation instead of queueing behind the write when it ends. A renewal
// reaches kMarkReserveMs past the clock, so the mark is written at most every
// kMarkReserveMs - kMarkRenewMs.
inline constexpr std::int64_t kMarkRenewMs = 50;

struct MarkRecord {
  std::int64_t reserved_ms = 0;
  std::int64_t floor_ms = 0;
  std::uint64_t lifetime = 0;
};

inline std::int64_t mark_max(std::int64_t a, std::int64_t b) noexcept { return a > b ? a : b; }

// The millisecond a backend of `lifetime` must start above.
inline std::int64_t mark_start_floor(const MarkRecord& stored, std::uint64_t lifetime) noexcept {
  return stored.lifetime == lifetime ? stored.floor_ms : mark_max(stored.floor_ms, stored.reserved_ms);
}

// The record after a backend of `lifetime` is about to return a value of
// millisecond `value_ms` at clock `now_ms`, when `stored` does not cover it.
// `per_backend`: the generator has no shared ticks, so that a later backend
// (which may take over this one's TSID slot) cannot know what this one made:
// a value running ahead of the clock then raises the floor to what this
// backend may return before it reserves again, the value plus `ahead_step`.
// Each new backend that starts while values run ahead pushes the floor by
// that much plus one millisecond: a first reservation with a step of 0 keeps
// connection churn from pushing values ahead faster than the clock moves
// (mark_next_ahead_step()), and the reservation stays the backend's own (the
// clock's window, kMarkReserveMs, would push each backend that far).
inline MarkRecord mark_reserve(const MarkRecord& stored, std::uint64_t lifetime, std::int64_t value_ms,
                               std::int64_t now_ms, bool per_backend,
                               std::int64_t ahead_step = kMarkAheadReserveMs) noexcept {
  MarkRecord next = stored;
  if (stored.lifetime != lifetime) {
    next.floor_ms = mark_max(stored.floor_ms, stored.reserved_ms);
    next.lifetime = lifetime;
  }
  const bool backend_ahead = per_backend && value_ms > now_ms + kMarkAheadSlackMs;
  const std::int64_t wanted =
      backend_ahead ? value_ms + ahead_step : mark_max(now_ms + kMarkReserveMs, value_ms + kMarkAheadReserveMs);
  next.reserved_ms = mark_max(next.reserved_ms, wanted);
  if (backend_ahead) next.floor_ms = mark_max(next.floor_ms, wanted);
  return next;
}

// The step of a backend's next reservation for per-backend values running
// ahead of the clock, after one of `step`: 0 first (a short session pushes the
// floor by one millisecond), then 1, 2, 4, 8, 10 (a long one writes the mark
// once per 10 ms of values, as every other generator does).
inline std::int64_t mark_next_ahead_step(std::int64_t step) noexcept {
  const std::int64_t doubled = step == 0 ? 1 : step * 2;
  return doubled > kMarkAheadReserveMs ? kMarkAheadReserveMs : doubled;
}

// Whether `stored` already covers a value of millisecond `value_ms` made at
// clock `now_ms` by a backend of `lifetime` (then no write is needed, only the
// flush of what is stored): the reservation must be this lifetime's and reach
// the value, and a per-backend value running ahead of the clock must also be
// under the floor (see mark_reserve()).
inline bool mark_covers(const MarkRecord& stored, std::uint64_t lifetime, std::int64_t value_ms,
                        std::int64_t now_ms, bool per_backend) noexcept {
  if (stored.lifetime != lifetime || value_ms > stored.reserved_ms) return false;
  return !per_backend || value_ms <= now_ms + kMarkAheadSlackMs || value_ms <= stored.floor_ms;
}

// Whether a value of millisecond `value_ms` made at clock `now_ms`, covered by
// `stored` (mark_covers()), falls in the reservation's last kMarkRenewMs with
// values following the clock: then a renewal is due, mark_reserve() of the same
// value. Values running ahead of the clock reserve in their own short steps
// when they pass the reservation and renew nothing.
inline bool mark_renewal_due(const MarkRecord& stored, std::uint64_t lifetime, std::int64_t value_ms,
                             std::int64_t now_ms) noexcept {
  return stored.lifetime == lifetime && value_ms <= stored.reserved_ms &&
         value_ms > stored.reserved_ms - kMarkRenewMs && value_ms <= now_ms + kMarkAheadSlackMs;
}

}  // namespace ulid_tsid
