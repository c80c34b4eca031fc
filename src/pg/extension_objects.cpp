// The extension's members by OID (extension_objects.hpp). A member is
// recognised by what it runs, the C symbol in pg_proc.prosrc of a C function
// of this library, not by its SQL name: a role that cannot see the
// extension's schema, a renamed function or a search_path changes nothing.
#include "postgres_api.hpp"

extern "C" {
#include "access/genam.h"
#include "access/htup_details.h"
#include "access/table.h"
#include "catalog/dependency.h"
#include "catalog/indexing.h"
#include "catalog/pg_depend.h"
#include "catalog/pg_extension.h"
#include "catalog/pg_language.h"
#include "catalog/pg_proc.h"
#include "catalog/pg_type.h"
#include "utils/fmgroids.h"
#include "utils/inval.h"
#include "utils/syscache.h"
}

#include "extension_objects.hpp"

namespace ulid_tsid::pg {

namespace {

ExtensionObjects g_objects;
bool g_valid = false;
bool g_callback_registered = false;

// The C symbols of the members of interest, in the order of their arrays.
constexpr const char* kTimeFunctions[kKeyKinds] = {"ulid_timestamp", "tsid_timestamp", "uuidv7_timestamp"};
constexpr const char* kLowerBounds[kKeyKinds] = {"ulid_lower_bound_clamped", "tsid_lower_bound_clamped",
                                                 "uuidv7_lower_bound_clamped"};
constexpr const char* kUpperBounds[kKeyKinds] = {"ulid_upper_bound_clamped", "tsid_upper_bound_clamped",
                                                 "uuidv7_upper_bound_clamped"};
constexpr const char* kEstimators[kInequalities] = {"ulid_tsid_scalarltsel", "ulid_tsid_scalarlesel",
                                                    "ulid_tsid_scalargtsel", "ulid_tsid_scalargesel"};

// The index of `symbol` among `names`, or -1.
int index_of(const char* symbol, const char* const* names, int count) {
  for (int i = 0; i < count; ++i) {
    if (strcmp(symbol, names[i]) == 0) return i;
  }
  return -1;
}

#if PG_VERSION_NUM >= 190000
void forget_objects(Datum, SysCacheIdentifier, uint32) { g_valid = false; }
#else
void forget_objects(Datum, int, uint32) { g_valid = false; }
#endif

// Notes the function `proc_oid` if it is a C function running one of kSymbols.
void note_function(ExtensionObjects* objects, Oid proc_oid) {
  HeapTuple tuple = SearchSysCache1(PROCOID, ObjectIdGetDatum(proc_oid));
  if (!HeapTupleIsValid(tuple)) return;
  const Form_pg_proc proc = reinterpret_cast<Form_pg_proc>(GETSTRUCT(tuple));
  if (proc->prolang == ClanguageId) {
    bool is_null = true;
    const Datum source = SysCacheGetAttr(PROCOID, tuple, Anum_pg_proc_prosrc, &is_null);
    if (!is_null) {
      char* symbol = TextDatumGetCString(source);
      int i;
      if ((i = index_of(symbol, kTimeFunctions, kKeyKinds)) >= 0) {
        objects->time_function[i] = proc_oid;
        // The key types are the time functions' arguments.
        if (proc->pronargs == 1) objects->key_type[i] = proc->proargtypes.values[0];
      } else if ((i = index_of(symbol, kLowerBounds, kKeyKinds)) >= 0) {
        objects->lower_bound_clamped[i] = proc_oid;
      } else if ((i = index_of(symbol, kUpperBounds, kKeyKinds)) >= 0) {
        objects->upper_bound_clamped[i] = proc_oid;
      } else if ((i = index_of(symbol, kEstimators, kInequalities)) >= 0) {
        objects->estimator[i] = proc_oid;
      }
      pfree(symbol);
    }
  }
  ReleaseSysCache(tuple);
}

// Reads the members of `extension` into g_objects.
void resolve(Oid extension) {
  if (!g_callback_registered) {
    CacheRegisterSyscacheCallback(PROCOID, forget_objects, static_cast<Datum>(0));
    g_callback_registered = true;
  }
  ExtensionObjects objects;
  objects.extension = extension;
  for (int i = 0; i < kKeyKinds; ++i) {
    objects.key_type[i] = objects.time_function[i] = InvalidOid;
    objects.lower_bound_clamped[i] = objects.upper_bound_clamped[i] = InvalidOid;
  }
  for (int i = 0; i < kInequalities; ++i) objects.estimator[i] = InvalidOid;
  // An invalidation that arrives while the catalog is read marks the result
  // stale at once: it is valid only if none did.
  g_valid = true;
  if (OidIsValid(extension)) {
    Relation depend = table_open(DependRelationId, AccessShareLock);
    ScanKeyData keys[2];
    ScanKeyInit(&keys[0], Anum_pg_depend_refclassid, BTEqualStrategyNumber, F_OIDEQ,
                ObjectIdGetDatum(ExtensionRelationId));
    ScanKeyInit(&keys[1], Anum_pg_depend_refobjid, BTEqualStrategyNumber, F_OIDEQ, ObjectIdGetDatum(extension));
    SysScanDesc scan = systable_beginscan(depend, DependReferenceIndexId, true, nullptr, 2, keys);
    HeapTuple tuple;
    while (HeapTupleIsValid(tuple = systable_getnext(scan))) {
      const Form_pg_depend entry = reinterpret_cast<Form_pg_depend>(GETSTRUCT(tuple));
      if (entry->classid == ProcedureRelationId && entry->deptype == DEPENDENCY_EXTENSION) {
        note_function(&objects, entry->objid);
      }
    }
    systable_endscan(scan);
    table_close(depend, AccessShareLock);
  }
  // An extension without any of these (dropped since, or not this library's)
  // is none: the next call with a member function resolves again.
  bool any = false;
  for (int i = 0; i < kKeyKinds; ++i) any = any || OidIsValid(objects.time_function[i]);
  for (int i = 0; i < kInequalities; ++i) any = any || OidIsValid(objects.estimator[i]);
  if (!any) objects.extension = InvalidOid;
  const bool still_valid = g_valid;
  g_objects = objects;
  g_valid = still_valid;
}

}  // namespace

const ExtensionObjects* extension_objects_of(Oid member_function) {
  if (g_valid && OidIsValid(g_objects.extension)) return &g_objects;
  resolve(getExtensionOfObject(ProcedureRelationId, member_function));
  return &g_objects;
}

const ExtensionObjects* known_extension_objects() {
  if (!g_callback_registered) return nullptr;  // nothing seen yet
  if (!g_valid) resolve(g_objects.extension);
  return OidIsValid(g_objects.extension) ? &g_objects : nullptr;
}

}  // namespace ulid_tsid::pg
