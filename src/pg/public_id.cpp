// Opaque public IDs: a keyed Feistel permutation (src/core/public_id.hpp) of a
// key's bits under a domain, shown as a TypeID whose prefix is the domain. The
// public form reveals neither the creation time nor the order of the keys.
//
// The master key comes from a bytea argument (IMMUTABLE overloads), or from the
// file that ulid_tsid.public_id_key_file names FOR THIS DATABASE: a superuser
// binds a file to a database (ALTER DATABASE ... SET, or ALTER ROLE ... IN
// DATABASE ... SET), or sets it in a session. A value that every database of
// the cluster would share (postgresql.conf, ALTER SYSTEM, the command line,
// ALTER ROLE without IN DATABASE) is refused: it would let anyone who can
// create the extension in any database decode and mint every other database's
// public IDs. The key itself is never in a setting (any setting's value can
// reach other roles, the server log or pg_file_settings) and never in an error.
// The file is read on first use and again after the setting changes or the
// server's configuration is reloaded.
#include "postgres_api.hpp"

#include "../core/key_file.hpp"
#include "../core/public_id.hpp"
#include "../core/typeid.hpp"
#include "settings.hpp"
#include "typeid.hpp"

#include <unistd.h>

#include <cstdlib>

extern "C" {
#include "utils/guc.h"
}

extern "C" {
PG_FUNCTION_INFO_V1(ulid_tsid_public_id_128);
PG_FUNCTION_INFO_V1(ulid_tsid_public_id_parse_128);
PG_FUNCTION_INFO_V1(ulid_tsid_public_id_64);
PG_FUNCTION_INFO_V1(ulid_tsid_public_id_parse_64);
}

using namespace ulid_tsid;
using namespace ulid_tsid::pg;

namespace {

char* g_key_file = nullptr;

// The last (master key, domain) pair and its subkey: deriving costs two BLAKE2b
// runs, and a query usually encodes many keys of one domain.
struct SubkeyCache {
  bool valid = false;
  std::uint8_t master[kPublicIdMasterKeyBytes] = {};
  std::size_t domain_length = 0;
  char domain[kTypeidMaxPrefixLength] = {};
  PublicIdKey key = {};
};
SubkeyCache g_cache;

// Where the setting's current value came from, kept by the check hook in the
// value's `extra` (GUC machinery keeps one per stacked value and hands the
// right one to the assign hook, on SET, RESET, rollback and library load).
struct KeyFileSource {
  GucSource source;
};
GucSource g_key_file_source = PGC_S_DEFAULT;

// The key file's key, read when first needed after the setting was assigned or
// the configuration reloaded (PgReloadTime: every backend sets it when it
// processes a reload, whichever settings the reload touched).
bool g_file_key_loaded = false;
TimestampTz g_file_key_reload_time = 0;
std::uint8_t g_file_key[kPublicIdMasterKeyBytes] = {};

void forget_file_key() {
  wipe(g_file_key, sizeof g_file_key);
  wipe(&g_cache, sizeof g_cache);
  g_file_key_loaded = false;
}

// A value bound to this database (or this session) rather than one every
// database of the cluster shares. Only a superuser, or a role a superuser
// granted SET on the parameter, can give a value from any of these sources.
bool bound_to_database(GucSource source) {
  switch (source) {
    case PGC_S_DATABASE:       // ALTER DATABASE name SET
    case PGC_S_DATABASE_USER:  // ALTER ROLE role IN DATABASE name SET
    case PGC_S_CLIENT:         // a privileged connection's startup options
    case PGC_S_SESSION:        // a privileged SET, set_config() or function SET clause
      return true;
    default:                   // configuration file, ALTER SYSTEM, command line,
      return false;            // ALTER ROLE without IN DATABASE, ALTER ROLE ALL
  }
}

// Which cluster-wide place a refused value came from, for the error.
const char* cluster_source_name(GucSource source) {
  switch (source) {
    case PGC_S_FILE:
      return "the configuration file (postgresql.conf or ALTER SYSTEM)";
    case PGC_S_ARGV:
    case PGC_S_ENV_VAR:
      return "the server's command line";
    case PGC_S_USER:
      return "ALTER ROLE ... SET without IN DATABASE";
    case PGC_S_GLOBAL:
      return "ALTER ROLE ALL ... SET";
    default:
      return "a setting for the whole cluster";
  }
}

bool check_key_file(char** newval, void** extra, GucSource source) {
#if PG_VERSION_NUM >= 160000
  auto* kept = static_cast<KeyFileSource*>(guc_malloc(LOG, sizeof(KeyFileSource)));
#else
  auto* kept = static_cast<KeyFileSource*>(malloc(sizeof(KeyFileSource)));  // GUC frees it with free()
#endif
  if (kept == nullptr) return false;
  kept->source = source;
  *extra = kept;
  return true;
}

// A new value of the setting (or a reload that assigns it again): forget the
// key and every copy derived from it, so the next use reads the file afresh.
void assign_key_file(const char* newval, void* extra) {
  forget_file_key();
  g_key_file_source = extra != nullptr ? static_cast<const KeyFileSource*>(extra)->source : PGC_S_DEFAULT;
}

const char* const kKeyFileHint =
    "A superuser writes 32 random bytes as 64 hexadecimal digits into a file only the database server's user can "
    "read (mode 0600), one file per database, and binds it to the database: ALTER DATABASE name SET "
    "ulid_tsid.public_id_key_file = 'file' (absolute, or relative to the data directory); new sessions use it. "
    "Or pass the key as a 32-byte bytea argument.";

const std::uint8_t* file_key() {
  if (likely(g_file_key_loaded && g_file_key_reload_time == PgReloadTime)) return g_file_key;
  forget_file_key();
  if (g_key_file == nullptr || g_key_file[0] == '\0') {
    ereport(ERROR, (errcode(ERRCODE_INVALID_PARAMETER_VALUE),
                    errmsg("no public-ID key for this database: ulid_tsid.public_id_key_file is not set"),
                    errhint("%s", kKeyFileHint)));
  }
  if (!bound_to_database(g_key_file_source)) {
    ereport(ERROR, (errcode(ERRCODE_INVALID_PARAMETER_VALUE),
                    errmsg("no public-ID key for this database: ulid_tsid.public_id_key_file comes from %s",
                           cluster_source_name(g_key_file_source)),
                    errdetail("A key file shared by every database of the cluster would let a role that can create "
                              "the extension in any database decode and mint the public IDs of all the others, so "
                              "only a file bound to a database is used."),
                    errhint("%s", kKeyFileHint)));
  }
  // Relative paths are relative to the data directory, as for ssl_key_file.
  const char* path = is_absolute_path(g_key_file) ? g_key_file : psprintf("%s/%s", DataDir, g_key_file);
  const KeyFileStatus status = read_key_file(path, static_cast<unsigned>(geteuid()), g_file_key, sizeof g_file_key);
  if (!status.ok()) {
    // A role that is not a superuser cannot SHOW data_directory: it gets the
    // setting's name, the server log gets the path.
    const char* why = key_file_error_message(status.error);
    const char* sep = status.sys_errno != 0 ? ": " : "";
    const char* sys = status.sys_errno != 0 ? strerror(status.sys_errno) : "";
    const bool show_path = superuser();
    ereport(ERROR, (errcode(ERRCODE_CONFIG_FILE_ERROR),
                    show_path ? errmsg("public-ID key file \"%s\" (ulid_tsid.public_id_key_file) %s%s%s", path, why, sep, sys)
                              : errmsg("public-ID key file (ulid_tsid.public_id_key_file) %s%s%s", why, sep, sys),
                    show_path ? 0 : errdetail_log("The file is \"%s\".", path),
                    errhint("ulid_tsid.public_id_key_file names a regular file (not a symbolic link) owned by the "
                            "database server's user, mode 0600, holding the 32-byte key as 64 hexadecimal digits.")));
  }
  g_file_key_loaded = true;
  g_file_key_reload_time = PgReloadTime;
  return g_file_key;
}

// The master key from argument `n` if given, else from the key file.
const std::uint8_t* master_key(FunctionCallInfo fcinfo, int n) {
  if (PG_NARGS() > n) {
    bytea* key = PG_GETARG_BYTEA_PP(n);
    if (VARSIZE_ANY_EXHDR(key) != kPublicIdMasterKeyBytes) {
      ereport(ERROR, (errcode(ERRCODE_INVALID_PARAMETER_VALUE),
                      errmsg("a public-ID key is 32 bytes, not %zu", static_cast<std::size_t>(VARSIZE_ANY_EXHDR(key)))));
    }
    return reinterpret_cast<const std::uint8_t*>(VARDATA_ANY(key));
  }
  return file_key();
}

// `domain` has passed prefix_arg(), so it is at most kTypeidMaxPrefixLength bytes.
const PublicIdKey& subkey(FunctionCallInfo fcinfo, TextArg domain, int key_arg) {
  const std::uint8_t* master = master_key(fcinfo, key_arg);
  if (domain.length > sizeof g_cache.domain) {
    ereport(ERROR, (errcode(ERRCODE_INVALID_PARAMETER_VALUE), errmsg("public-ID domain too long")));
  }
  if (!g_cache.valid || g_cache.domain_length != domain.length ||
      memcmp(g_cache.domain, domain.data, domain.length) != 0 ||
      memcmp(g_cache.master, master, kPublicIdMasterKeyBytes) != 0) {
    g_cache.valid = false;
    if (!public_id_derive(master, domain.data, domain.length, &g_cache.key)) {
      ereport(ERROR, (errcode(ERRCODE_INTERNAL_ERROR), errmsg("could not derive a public-ID subkey")));
    }
    memcpy(g_cache.master, master, kPublicIdMasterKeyBytes);
    memcpy(g_cache.domain, domain.data, domain.length);
    g_cache.domain_length = domain.length;
    g_cache.valid = true;
  }
  return g_cache.key;
}

}  // namespace

namespace ulid_tsid::pg {

void define_public_id_settings() {
  // PGC_SUSET: only a superuser (or a role a superuser granted SET on it) can
  // bind a file to a database or a session; GUC_SUPERUSER_ONLY keeps the path
  // from SHOW for everyone else (pg_read_all_settings members aside).
  DefineCustomStringVariable("ulid_tsid.public_id_key_file",
                             "File that holds this database's public-ID master key (64 hexadecimal digits).",
                             "Set per database by a superuser: ALTER DATABASE name SET ulid_tsid.public_id_key_file "
                             "= 'file'. Absolute, or relative to the data directory; owned by the server's user, "
                             "mode 0600, not a symbolic link. A value for the whole cluster is not used.",
                             &g_key_file, "", PGC_SUSET, GUC_SUPERUSER_ONLY, check_key_file, assign_key_file,
                             nullptr);
}

}  // namespace ulid_tsid::pg

// ulid or uuid -> the domain's TypeID of the permuted 128 bits.
Datum ulid_tsid_public_id_128(PG_FUNCTION_ARGS) {
  const TextArg domain = prefix_arg(fcinfo, 1);
  std::uint8_t permuted[16];
  public_id_encode_128(subkey(fcinfo, domain, 2), PG_GETARG_UUID_P(0)->data, permuted);
  return typeid_text_128(domain, permuted);
}

// The domain's public form -> the ulid or uuid.
Datum ulid_tsid_public_id_parse_128(PG_FUNCTION_ARGS) {
  const TextArg domain = prefix_arg(fcinfo, 1);
  std::uint8_t permuted[16];
  typeid_bytes_128(text_arg(fcinfo, 0), domain, permuted);
  pg_uuid_t* out = palloc_uuid();
  public_id_decode_128(subkey(fcinfo, domain, 2), permuted, out->data);
  PG_RETURN_UUID_P(out);
}

// tsid or bigint -> domain_ + 13 characters of the permuted 64 bits.
Datum ulid_tsid_public_id_64(PG_FUNCTION_ARGS) {
  const TextArg domain = prefix_arg(fcinfo, 1);
  return typeid_text_64(domain, public_id_encode_64(subkey(fcinfo, domain, 2), static_cast<std::uint64_t>(PG_GETARG_INT64(0))));
}

// The domain's public form -> the tsid or bigint.
Datum ulid_tsid_public_id_parse_64(PG_FUNCTION_ARGS) {
  const TextArg domain = prefix_arg(fcinfo, 1);
  const std::uint64_t permuted = typeid_value_64(text_arg(fcinfo, 0), domain);
  PG_RETURN_INT64(static_cast<int64>(public_id_decode_64(subkey(fcinfo, domain, 2), permuted)));
}
