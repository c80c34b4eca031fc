#include "postgres_api.hpp"

#include "process_state.hpp"

#include "errors.hpp"
#include "shared_state.hpp"

namespace ulid_tsid::pg {
namespace {

ProcessState g_state;
bool g_wired = false;

void wire() {
  // Preloaded, the ticks are the database's, attached by share_database_ticks()
  // before the first value. Otherwise this backend's TSID slot may have been
  // an exited backend's: start after everything it could have made (it never
  // ran ahead of the clock).
  if (!shared_ticks_available()) g_state.tsid.start_after_first_millisecond();
  g_wired = true;
}

}  // namespace

ProcessState& process_state() {
  if (unlikely(!g_wired)) wire();
  return g_state;
}

bool share_database_ticks(ProcessState& state, Oid mark) {
  bool fresh = false;
  if (state.ulid_monotonic.shared()) return false;
  SharedTicks* shared = attach_shared_ticks(MyDatabaseId, mark, &fresh);
  if (shared == nullptr) return false;
  state.ulid.ticks().share(&shared->ulid.last);
  state.tsid.ticks().share(&shared->tsid.last);
  state.uuidv7.ticks().share(&shared->uuidv7.last);
  state.ulid_monotonic.share(shared);
  return fresh;
}

GenerateStatus MonotonicUlid::next(ClockMs now, const std::uint8_t random[kUlidRandomBytes], std::uint8_t out[16],
                                   std::int64_t* value_ms) noexcept {
  if (shared_ != nullptr) return shared_->ulid_monotonic.next(now, random, out, value_ms);
  const GenerateStatus status = own_.next(now, random, out);
  *value_ms = own_.last_ms();
  return status;
}

void MonotonicUlid::start_above_ms(std::int64_t ms) noexcept {
  if (shared_ != nullptr) {
    shared_->ulid_monotonic.start_above_ms(ms);
  } else {
    own_.start_above_ms(ms);
  }
}

void MonotonicUlid::reset_above_ms(std::int64_t ms) noexcept {
  if (shared_ != nullptr) {
    shared_->ulid_monotonic.reset_above_ms(ms);
  } else {
    own_.reset_above_ms(ms);
  }
}

void draw_random(void* out, std::size_t length) {
  if (unlikely(!g_state.random.fill(MyProcPid, out, length))) report_no_randomness();
}

}  // namespace ulid_tsid::pg
