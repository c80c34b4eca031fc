#include "postgres_api.hpp"

#include "shared_state.hpp"

#include <new>
#include <type_traits>


extern "C" {
#include "storage/ipc.h"
#include "storage/lwlock.h"
#include "storage/shmem.h"
}

namespace ulid_tsid::pg {
namespace {

SharedTicks* g_shared_ticks = nullptr;
shmem_startup_hook_type g_previous_startup_hook = nullptr;
#if PG_VERSION_NUM >= 150000
shmem_request_hook_type g_previous_request_hook = nullptr;
#endif

void request_space() {
  RequestAddinShmemSpace(sizeof(SharedTicks));
}

#if PG_VERSION_NUM >= 150000
void on_shmem_request() {
  if (g_previous_request_hook != nullptr) g_previous_request_hook();
  request_space();
}
#endif

void on_shmem_startup() {
  if (g_previous_startup_hook != nullptr) g_previous_startup_hook();
  bool found = false;
  LWLockAcquire(AddinShmemInitLock, LW_EXCLUSIVE);
  void* memory = ShmemInitStruct("ulid_tsid generator ticks", sizeof(SharedTicks), &found);
  if (!found) new (memory) SharedTicks();
  LWLockRelease(AddinShmemInitLock);
  g_shared_ticks = static_cast<SharedTicks*>(memory);
}

}  // namespace

void request_shared_ticks() {
  static_assert(std::atomic<std::uint64_t>::is_always_lock_free,
                "shared ticks must be address-free atomics");
  static_assert(std::is_trivially_copyable_v<UlidMonotonicGenerator>,
                "the shared monotonic generator must be plain bytes, valid at any address");
#if PG_VERSION_NUM >= 150000
  g_previous_request_hook = shmem_request_hook;
  shmem_request_hook = on_shmem_request;
#else
  request_space();
#endif
  g_previous_startup_hook = shmem_startup_hook;
  shmem_startup_hook = on_shmem_startup;
}

SharedTicks* shared_ticks() { return g_shared_ticks; }

}  // namespace ulid_tsid::pg
