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

#ifndef ULID_TSID_VERSION
#error "ULID_TSID_VERSION (the Makefile's EXTVERSION) must be defined"
#endif

namespace {
// ulid_tsid.library_version: the version of the library this process runs, which
// the install and update scripts check before anything else (src/sql/01_library.sql).
// A server that preloads the library runs the one its postmaster loaded, whatever
// newer files were installed since; a session keeps the one it loaded first.
// PGC_INTERNAL: nobody can set it, and a placeholder of that name (an early SET)
// never passes for it: the scripts read it from pg_settings with context internal.
char* library_version = nullptr;

void define_library_version_setting() {
  DefineCustomStringVariable("ulid_tsid.library_version", "The version of the ulid_tsid library this process runs.",
                             "Fixed when the library loads; a server that preloads it runs the one it loaded "
                             "at its start until it restarts.",
                             &library_version, ULID_TSID_VERSION, PGC_INTERNAL,
                             GUC_NOT_IN_SAMPLE | GUC_DISALLOW_IN_FILE, nullptr, nullptr, nullptr);
}
}  // namespace

extern "C" void _PG_init(void) {
  // Every setting is defined before the prefix is reserved: reserving it
  // removes any ulid_tsid.* placeholder not defined by then, and with it a
  // value that postgresql.conf or an early SET had given that setting.
  define_library_version_setting();
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
