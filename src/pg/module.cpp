// The library's entry points: the module magic and _PG_init.
#include "postgres_api.hpp"
#include "settings.hpp"
#include "shared_state.hpp"
#include "time_predicates.hpp"

extern "C" {
#include "utils/guc.h"

PG_MODULE_MAGIC;

PGDLLEXPORT void _PG_init(void);
}

extern "C" void _PG_init(void) {
  // Every setting is defined before the prefix is reserved: reserving it
  // removes any ulid_tsid.* placeholder not defined by then, and with it a
  // value that postgresql.conf or an early SET had given that setting.
  ulid_tsid::pg::define_tsid_settings();
  ulid_tsid::pg::define_public_id_settings();
  ulid_tsid::pg::define_mark_settings();
#if PG_VERSION_NUM >= 150000
  MarkGUCPrefixReserved("ulid_tsid");
#else
  EmitWarningsOnPlaceholders("ulid_tsid");
#endif
  if (process_shared_preload_libraries_in_progress) ulid_tsid::pg::request_shared_ticks();
  ulid_tsid::pg::install_time_predicate_hook();
}
