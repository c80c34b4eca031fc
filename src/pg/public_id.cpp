// Opaque public IDs: a keyed Feistel permutation (src/core/public_id.hpp) of a
// key's bits under a domain, shown as a TypeID whose prefix is the domain. The
// public form reveals neither the creation time nor the order of the keys.
//
// The master key comes from the file named by ulid_tsid.public_id_key_file
// (never from a setting: any setting's value can reach other roles, the server
// log or pg_file_settings), read on first use and again after each reload; or
// from a bytea argument (IMMUTABLE overloads). It is never echoed in an error.
#include "postgres_api.hpp"

#include "../core/key_file.hpp"
#include "../core/public_id.hpp"
#include "../core/typeid.hpp"
#include "settings.hpp"
#include "typeid_args.hpp"

#include <unistd.h>

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

// The key file's key, read when first needed after the setting was assigned.
bool g_file_key_loaded = false;
std::uint8_t g_file_key[kPublicIdMasterKeyBytes] = {};

// A new value of the setting, or a reload (which assigns it again): forget the
// key and every copy derived from it, so the next use reads the file afresh.
void assign_key_file(const char* newval, void* extra) {
  wipe(g_file_key, sizeof g_file_key);
  wipe(&g_cache, sizeof g_cache);
  g_file_key_loaded = false;
}

const std::uint8_t* file_key() {
  if (likely(g_file_key_loaded)) return g_file_key;
  if (g_key_file == nullptr || g_key_file[0] == '\0') {
    ereport(ERROR, (errcode(ERRCODE_INVALID_PARAMETER_VALUE),
                    errmsg("no public-ID key: ulid_tsid.public_id_key_file is not set"),
                    errhint("Write 32 random bytes as 64 hexadecimal digits into a file that only the database "
                            "server's user can read (mode 0600), name it in ulid_tsid.public_id_key_file in "
                            "postgresql.conf and reload; or pass the key as a 32-byte bytea argument.")));
  }
  // Relative paths are relative to the data directory, as for ssl_key_file.
  const char* path = is_absolute_path(g_key_file) ? g_key_file : psprintf("%s/%s", DataDir, g_key_file);
  const KeyFileStatus status = read_key_file(path, static_cast<unsigned>(geteuid()), g_file_key, sizeof g_file_key);
  if (!status.ok()) {
    ereport(ERROR, (errcode(ERRCODE_CONFIG_FILE_ERROR),
                    errmsg("public-ID key file \"%s\" %s%s%s", path, key_file_error_message(status.error),
                           status.sys_errno != 0 ? ": " : "", status.sys_errno != 0 ? strerror(status.sys_errno) : ""),
                    errhint("ulid_tsid.public_id_key_file names a regular file owned by the database server's "
                            "user, mode 0600, holding the 32-byte key as 64 hexadecimal digits.")));
  }
  g_file_key_loaded = true;
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
  DefineCustomStringVariable("ulid_tsid.public_id_key_file",
                             "File that holds the public-ID master key (64 hexadecimal digits).",
                             "Absolute, or relative to the data directory; owned by the server's user, mode "
                             "0600. Read on first use and again after a reload.",
                             &g_key_file, "", PGC_SIGHUP, GUC_SUPERUSER_ONLY, nullptr, assign_key_file, nullptr);
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
