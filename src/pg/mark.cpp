// The reservation protocol of the generators' persisted high-water mark
// (src/core/mark.hpp's rules; the record kept by mark_store.hpp, and the
// server's copy by mark_file.hpp): a backend prepares by reading the mark and
// starting every generator above it; a value past the reservation moves it
// first, flushed before the value is returned; a value in its last
// kMarkRenewMs renews it without waiting. See docs/guarantees.md.
#include "postgres_api.hpp"

#include "mark.hpp"

#include <climits>
#include <limits>

extern "C" {
#include "access/xlog.h"
#include "utils/guc.h"
}

#include "mark_file.hpp"
#include "mark_store.hpp"
#include "settings.hpp"
#include "shared_state.hpp"
#include "timestamps.hpp"

namespace ulid_tsid::pg {

MarkState g_mark_state;
int g_max_lead_ms = 60000;    // ulid_tsid.max_lead
int g_raise_limit_s = 86400;  // ulid_tsid.raise_limit

namespace {

bool g_warned = false;          // the lead WARNING: given yet, and when
std::int64_t g_warned_at_ms = 0;
std::int64_t g_ahead_step = 0;  // mark_next_ahead_step(): this backend's next per-backend ahead step

// A record that covers every value: no mark to keep here (none in this
// database, or a hot standby, which cannot write one).
void cover_everything(MarkState& mark) {
  mark.lifetime = 1;
  know(mark, {std::numeric_limits<std::int64_t>::max(), std::numeric_limits<std::int64_t>::max(), 1});
}

// After a superuser set the mark back (ulid_tsid_mark_reset() in another
// session): this backend's own generators go back to it too. Shared ticks (and
// the shared monotonic sequence) are not touched here: the reset moved them
// once, and values made since are above.
void apply_reset(ProcessState& state, std::int64_t target) {
  const std::int64_t ms = reset_point_ms(target);
  if (!state.ulid.ticks().shared()) state.ulid.reset_above_ms(ms);
  if (!state.uuidv7.ticks().shared()) state.uuidv7.reset_above_ms(ms);
  if (!state.tsid.ticks().shared()) state.tsid.reset_above_ms(ms);
  if (!state.ulid_monotonic.shared()) state.ulid_monotonic.reset_above_ms(ms);
}

}  // namespace

// How far ahead of the clock a mark set from outside the library may reach: a
// non-superuser (the extension's owner) must not date the database's keys to
// the year 2100 by mistake (a dump of a server whose clock was wrong, a typo).
std::int64_t raise_limit_ms() { return unix_ms_now() + static_cast<std::int64_t>(g_raise_limit_s) * 1000; }

void mark_forget_ahead_step() { g_ahead_step = 0; }

// `known` becomes `record`, and the fast path's numbers follow it.
void know(MarkState& mark, const MarkRecord& record) {
  mark.known = record;
  const bool ours = record.lifetime == mark.lifetime;
  mark.renew_ms = ours ? record.reserved_ms - kMarkRenewMs : std::numeric_limits<std::int64_t>::min();
  mark.cover_floor_ms = ours ? record.floor_ms : std::numeric_limits<std::int64_t>::min();
}

// Where generators set back to `target` start: never below the clock plus a
// reservation's step, since values made just before the reset may run a few
// milliseconds ahead of the clock (a burst within a tick, a TSID's full
// millisecond), and a tick set below them could repeat them.
std::int64_t reset_point_ms(std::int64_t target) {
  return mark_max(target, unix_ms_now() + kMarkAheadReserveMs);
}

void apply_floor(ProcessState& state, std::int64_t ms) {
  if (ms <= 0) return;
  state.ulid.start_above_ms(ms);
  state.ulid_monotonic.start_above_ms(ms);
  state.tsid.start_above_ms(ms);
  state.uuidv7.start_above_ms(ms);
}

// Preloaded: this backend's generators on its database's ticks (once, after
// find_mark()). Ticks that start afresh must start above the whole mark.
void share_ticks(ProcessState& state) {
  if (!shared_ticks_available() || state.ulid_monotonic.shared()) return;
  if (share_database_ticks(state, g_location.found ? g_location.relid[kReservedSeq] : InvalidOid)) {
    g_mark_state.fresh_ticks = true;
  }
}

void define_mark_settings() {
  DefineCustomIntVariable("ulid_tsid.max_lead", "How far keys may run ahead of the clock before a WARNING.",
                          "After a restart onto a clock that is behind the mark, keys continue above it and run "
                          "ahead of the clock; past this lead each session warns (at most once a minute). "
                          "0 turns the warning off.",
                          &g_max_lead_ms, 60000, 0, INT_MAX, PGC_SIGHUP, GUC_UNIT_MS, nullptr, nullptr, nullptr);
  DefineCustomIntVariable("ulid_tsid.raise_limit",
                          "How far ahead of the clock a restored mark or the extension owner's raise may reach.",
                          "A restore (ulid_tsid_mark_dumped) or ulid_tsid_mark_raise() by a role that is not a "
                          "superuser moves the mark at most this far past the clock; a superuser's raise is not "
                          "limited.",
                          &g_raise_limit_s, 86400, 0, INT_MAX / 1000, PGC_SIGHUP, GUC_UNIT_S, nullptr, nullptr, nullptr);
}

void mark_prepare_slow(FunctionCallInfo, ProcessState& state) {
  MarkState& mark = g_mark_state;
  const bool recovery = RecoveryInProgress();
  if (mark.ready && mark.in_recovery && recovery) return;  // still a hot standby, prepared
  // Nothing is marked prepared before the end: an ERROR on the way (a lock
  // wait cancelled, say) leaves the next call to prepare again.
  find_mark();
  share_ticks(state);
  const std::int64_t node_ms = recovery ? 0 : node_mark_read();
  MarkTuples seq;
  if (!open_mark(recovery ? AccessShareLock : RowExclusiveLock, false, &seq)) {
    // No mark in this database (its SQL objects predate 0.4.0): values follow
    // the clock as before, and the next transaction looks again.
    cover_everything(mark);
    mark.in_recovery = recovery;
    mark.settled = false;
    return;
  }
  XLogRecPtr lsn;
  bool capped = false;
  const MarkRecord stored = read_record(seq, node_ms, raise_limit_ms(), &lsn, &capped);
  close_mark(&seq);
  if (capped) {
    ereport(WARNING, (errmsg("ulid_tsid: the mark set from outside (ulid_tsid_mark_dumped, or this server's copy "
                             "above sequences set back) is more than ulid_tsid.raise_limit ahead of the clock; keys "
                             "start at that limit"),
                      errhint("If the clock is right and the mark is too (a dump restored onto a server whose "
                              "clock is far behind), a superuser can raise it: SELECT ulid_tsid_mark_raise(...).")));
  }
  if (recovery) {
    // A standby's values are never stored on it: they start above everything
    // it has replayed, and it reserves nothing (it cannot write WAL). Its
    // ULIDs and UUIDv7s are told apart by their random bits; it makes no TSIDs.
    apply_floor(state, mark_max(stored.reserved_ms, stored.floor_ms));
    mark.fresh_ticks = false;
    cover_everything(mark);
    mark.ready = true;
    mark.in_recovery = true;
    mark.settled = false;
    return;
  }
  XLogFlush(lsn);  // what `known` covers must be durable before a value relies on it
  // So must the server's copy: the backend that wrote this reservation may
  // not have written the file yet (it does so right after its WAL flush), and
  // a crash in between would leave the copy below values made here.
  node_mark_cover(node_ms, stored);
  const std::uint64_t lifetime = current_lifetime();
  // The reservation of this lifetime lower than this backend saw it: a
  // superuser set the mark back (nothing else lowers it within a lifetime).
  if (mark.settled_once && stored.lifetime == lifetime && mark.lifetime == lifetime &&
      stored.reserved_ms < mark.known.reserved_ms) {
    apply_reset(state, mark_start_floor(stored, lifetime));
  }
  mark.lifetime = lifetime;
  // Ticks that start afresh know nothing of what this lifetime made: above
  // its whole reservation, as after a restart.
  apply_floor(state, mark.fresh_ticks ? mark_max(stored.reserved_ms, stored.floor_ms)
                                      : mark_start_floor(stored, mark.lifetime));
  mark.fresh_ticks = false;
  know(mark, stored);
  mark.ready = true;
  mark.in_recovery = false;
  mark.settled = mark.settled_once = true;
}

// A renewal (mark_renewal_due()): the reservation moved on before it runs out,
// by this backend when it gets every lock at once, else by whoever holds them
// (that backend's record is taken over once it is flushed). It never waits:
// the value at hand is covered already, and the next value tries again.
void mark_renew(std::int64_t value_ms, std::int64_t now_ms) {
  MarkState& mark = g_mark_state;
  const std::int64_t node_ms = node_mark_read();
  MarkTuples seq;
  if (!open_mark(RowExclusiveLock, true, &seq, false)) return;
  XLogRecPtr lsn;
  const MarkRecord stored = read_record(seq, node_ms, raise_limit_ms(), &lsn);
  if (!mark_renewal_due(stored, mark.lifetime, value_ms, now_ms)) {
    // Moved on by another backend: known once that backend's WAL and file
    // writes are done, without waiting for them.
    close_mark(&seq);
#if PG_VERSION_NUM >= 150000
    const XLogRecPtr flushed = GetFlushRecPtr(nullptr);
#else
    const XLogRecPtr flushed = GetFlushRecPtr();
#endif
    if (stored.lifetime == mark.lifetime && stored.reserved_ms > mark.known.reserved_ms && lsn <= flushed &&
        node_ms >= mark_max(stored.reserved_ms, stored.floor_ms)) {
      know(mark, stored);
    }
    return;
  }
  const MarkRecord next = mark_reserve(stored, mark.lifetime, value_ms, now_ms, false);
  write_record(&seq, next, &lsn);
  close_mark(&seq);
  XLogFlush(lsn);
  // Another writer of the file: the next value takes over from it.
  if (node_mark_write(mark_max(next.reserved_ms, next.floor_ms), false, false)) know(mark, next);
}

void mark_reserve_slow(std::int64_t value_ms, std::int64_t now_ms, bool per_backend) {
  MarkState& mark = g_mark_state;
  if (!mark.settled) return;
  if (mark_covers(mark.known, mark.lifetime, value_ms, now_ms, per_backend)) {
    if (mark_renewal_due(mark.known, mark.lifetime, value_ms, now_ms)) mark_renew(value_ms, now_ms);
    return;
  }
  const std::int64_t node_ms = node_mark_read();
  MarkTuples seq;
  if (!open_mark(RowExclusiveLock, true, &seq)) {
    // The mark is gone (the extension dropped): nothing left to keep.
    mark.settled = false;
    cover_everything(mark);
    return;
  }
  XLogRecPtr lsn;
  MarkRecord stored = read_record(seq, node_ms, raise_limit_ms(), &lsn);
  bool wrote = false;
  if (!mark_covers(stored, mark.lifetime, value_ms, now_ms, per_backend)) {
    const bool backend_ahead = per_backend && value_ms > now_ms + kMarkAheadSlackMs;
    const MarkRecord next = mark_reserve(stored, mark.lifetime, value_ms, now_ms, per_backend, g_ahead_step);
    if (backend_ahead) g_ahead_step = mark_next_ahead_step(g_ahead_step);
    write_record(&seq, next, &lsn);
    stored = next;
    wrote = true;
  }
  close_mark(&seq);
  // The value leaves only once the reservation that covers it is on disk, in
  // the sequences and in the server's own copy.
  XLogFlush(lsn);
  if (wrote) {
    node_mark_write(mark_max(stored.reserved_ms, stored.floor_ms), false);
  } else {
    node_mark_cover(node_ms, stored);  // another backend's reservation: see mark_prepare_slow()
  }
  know(mark, stored);
  const std::int64_t lead = value_ms - now_ms;
  if (g_max_lead_ms > 0 && lead > g_max_lead_ms && (!g_warned || now_ms - g_warned_at_ms >= 60000)) {
    g_warned = true;
    g_warned_at_ms = now_ms;
    ereport(WARNING, (errmsg("ulid_tsid: keys run %lld ms ahead of the clock", static_cast<long long>(lead)),
                      errdetail("They continue above the generators' mark, which earlier keys set; the clock is "
                                "behind it (ulid_tsid.max_lead is %d ms).",
                                g_max_lead_ms),
                      errhint("If the clock is right now and was wrong before, a superuser can set the mark back "
                              "with SELECT ulid_tsid_mark_reset(); new keys may then sort below those made while "
                              "the clock was wrong.")));
  }
}

}  // namespace ulid_tsid::pg
