// The one place Postgres headers are included from C++, postgres.h first, with
// the few shims that let this code build against PostgreSQL 13 to 18.
//
// Rule for every file that includes this: a function that can reach ereport()
// or palloc() holds no object with a destructor in its frame, because an ERROR
// longjmps over it. The core is noexcept and heap-free, so that is easy to keep.
#pragma once

extern "C" {
#include "postgres.h"

#include "fmgr.h"
#include "miscadmin.h"
#include "utils/builtins.h"
#include "utils/timestamp.h"
#include "utils/uuid.h"
#if PG_VERSION_NUM >= 160000
#include "nodes/miscnodes.h"
#include "varatt.h"  // the varlena macros moved out of postgres.h in 16
#endif
}

#if PG_VERSION_NUM < 160000
// Soft input errors (pg_input_is_valid) arrived in 16; before that every input
// error is a hard ERROR, which is what these reduce to.
#define errsave(context, ...) ereport(ERROR, __VA_ARGS__)
#endif

// A new 16-byte ulid or uuid value (the same bytes), returned with PG_RETURN_UUID_P.
inline pg_uuid_t* palloc_uuid() { return static_cast<pg_uuid_t*>(palloc(sizeof(pg_uuid_t))); }
