#include "postgres_api.hpp"

#include "process_state.hpp"

#include "errors.hpp"
#include "shared_state.hpp"

namespace ulid_tsid::pg {
namespace {

ProcessState g_state;
bool g_wired = false;

void wire() {
  if (SharedTicks* shared = shared_ticks()) {
    g_state.ulid.ticks().share(&shared->ulid.last);
    g_state.tsid.ticks().share(&shared->tsid.last);
    g_state.uuidv7.ticks().share(&shared->uuidv7.last);
  } else {
    // This backend's TSID slot may have been an exited backend's: start after
    // everything it could have made (it never ran ahead of the clock).
    g_state.tsid.start_after_first_millisecond();
  }
  g_wired = true;
}

}  // namespace

ProcessState& process_state() {
  if (unlikely(!g_wired)) wire();
  return g_state;
}

void draw_random(void* out, std::size_t length) {
  if (unlikely(!g_state.random.fill(MyProcPid, out, length))) report_no_randomness();
}

}  // namespace ulid_tsid::pg
