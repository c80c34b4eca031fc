// The extension's own types and functions that the planner code works with,
// by OID: resolved once per backend from the extension's members (pg_depend),
// never by name, and resolved again after any change to pg_proc (a syscache
// invalidation callback), which every CREATE, ALTER or DROP EXTENSION of
// ulid_tsid makes.
#pragma once

#include "postgres_api.hpp"

namespace ulid_tsid::pg {

// The three key kinds that have a time function, in this order everywhere.
enum KeyKind { kUlidKey = 0, kTsidKey = 1, kUuidv7Key = 2, kKeyKinds = 3 };

// The four key-range estimators, in this order.
enum Inequality { kLess = 0, kLessEqual = 1, kGreater = 2, kGreaterEqual = 3, kInequalities = 4 };

struct ExtensionObjects {
  Oid extension;
  Oid key_type[kKeyKinds];             // ulid, tsid, uuid
  Oid time_function[kKeyKinds];        // ulid_timestamp(ulid), tsid_timestamp(tsid), uuidv7_timestamp(uuid)
  Oid lower_bound_clamped[kKeyKinds];  // ulid_lower_bound_clamped(timestamptz) & co.
  Oid upper_bound_clamped[kKeyKinds];
  Oid estimator[kInequalities];        // ulid_tsid_scalarltsel() & co.
};

// The objects of the installed extension that `member_function` (the OID a
// function of the extension was called under) belongs to. Never null; an
// object the installed version lacks is InvalidOid.
const ExtensionObjects* extension_objects_of(Oid member_function);

// The objects of the extension seen last by extension_objects_of() in this
// backend (resolved again if they changed since), or null when none was seen.
const ExtensionObjects* known_extension_objects();

}  // namespace ulid_tsid::pg
