// The library's entry points: the module magic and _PG_init.
#include "postgres_api.hpp"
#include "shared_state.hpp"
#include "settings.hpp"

extern "C" {
PG_MODULE_MAGIC;

PGDLLEXPORT void _PG_init(void);
}

extern "C" void _PG_init(void) {
  ulid_tsid::pg::define_tsid_settings();
  ulid_tsid::pg::define_public_id_settings();
  if (process_shared_preload_libraries_in_progress) ulid_tsid::pg::request_shared_ticks();
}
