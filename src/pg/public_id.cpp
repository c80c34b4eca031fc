// Opaque public IDs: a keyed Feistel permutation (src/core/public_id.hpp) of a
// key's bits under a domain, shown as a TypeID whose prefix is the domain. The
// public form reveals neither the creation time nor the order of the keys.
//
// The master key comes from ulid_tsid.public_id_key (superuser-only, hidden from
// SHOW ALL; the functions that read it are STABLE) or from a bytea argument
// (IMMUTABLE overloads). It is never echoed in an error.
#include "../core/public_id.hpp"
#include "../core/typeid.hpp"
#include "postgres_api.hpp"
#include "settings.hpp"
#include "text_args.hpp"

extern "C" {
#include "utils/guc.h"
}

using namespace ulid_tsid;
using namespace ulid_tsid::pg;

namespace {

char* g_key_setting = nullptr;

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

// The setting's key, parsed once when the setting is assigned (not per call).
// A malformed value is not rejected at SET time, because the rejection would
// echo it; the functions report it when they need the key.
enum class SettingKey : std::uint8_t { kUnset, kMalformed, kReady };
SettingKey g_setting_state = SettingKey::kUnset;
std::uint8_t g_setting_key[kPublicIdMasterKeyBytes] = {};

int hex_value(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

void assign_key_setting(const char* newval, void* extra) {
  const char* hex = newval != nullptr ? newval : "";
  if (hex[0] == '\\' && hex[1] == 'x') hex += 2;
  if (hex[0] == '\0') {
    g_setting_state = SettingKey::kUnset;
    return;
  }
  g_setting_state = SettingKey::kMalformed;
  std::uint8_t key[kPublicIdMasterKeyBytes];
  for (std::size_t i = 0; i < kPublicIdMasterKeyBytes; ++i) {
    const int high = hex_value(hex[2 * i]);
    const int low = high < 0 ? -1 : hex_value(hex[2 * i + 1]);
    if (high < 0 || low < 0) return;
    key[i] = static_cast<std::uint8_t>(high << 4 | low);
  }
  if (hex[2 * kPublicIdMasterKeyBytes] != '\0') return;
  memcpy(g_setting_key, key, sizeof key);
  g_setting_state = SettingKey::kReady;
}

void report_missing_key(const char* why) {
  ereport(ERROR, (errcode(ERRCODE_INVALID_PARAMETER_VALUE), errmsg("no usable public-ID key: %s", why),
                  errhint("As a superuser, set ulid_tsid.public_id_key to 64 hexadecimal digits (32 random "
                          "bytes), e.g. in postgresql.conf, or pass the key as a 32-byte bytea argument.")));
}

// The master key from argument `n` if given, else from the setting.
const std::uint8_t* master_key(FunctionCallInfo fcinfo, int n) {
  if (PG_NARGS() > n) {
    bytea* key = PG_GETARG_BYTEA_PP(n);
    if (VARSIZE_ANY_EXHDR(key) != kPublicIdMasterKeyBytes) {
      ereport(ERROR, (errcode(ERRCODE_INVALID_PARAMETER_VALUE),
                      errmsg("a public-ID key is 32 bytes, not %zu", static_cast<std::size_t>(VARSIZE_ANY_EXHDR(key)))));
    }
    return reinterpret_cast<const std::uint8_t*>(VARDATA_ANY(key));
  }
  if (g_setting_state == SettingKey::kUnset) report_missing_key("ulid_tsid.public_id_key is not set");
  if (g_setting_state == SettingKey::kMalformed) {
    report_missing_key("ulid_tsid.public_id_key is not 64 hexadecimal digits");
  }
  return g_setting_key;
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
  DefineCustomStringVariable(
      "ulid_tsid.public_id_key", "Master key of the public-ID permutation: 64 hexadecimal digits.",
      "Only superusers can read or set it; it is hidden from SHOW ALL.", &g_key_setting, "", PGC_SUSET,
      GUC_SUPERUSER_ONLY | GUC_NO_SHOW_ALL | GUC_NOT_IN_SAMPLE, nullptr, assign_key_setting, nullptr);
}

}  // namespace ulid_tsid::pg

// ulid or uuid -> the domain's TypeID of the permuted 128 bits.
ULID_TSID_FUNCTION(ulid_tsid_public_id_128) {
  const auto* bytes = reinterpret_cast<const std::uint8_t*>(PG_GETARG_POINTER(0));
  const TextArg domain = prefix_arg(fcinfo, 1);
  std::uint8_t permuted[16];
  public_id_encode_128(subkey(fcinfo, domain, 2), bytes, permuted);
  char out[kTypeidMaxLength128];
  const std::size_t length = typeid_format_128(domain.data, domain.length, permuted, out);
  PG_RETURN_TEXT_P(cstring_to_text_with_len(out, static_cast<int>(length)));
}

// The domain's public form -> the ulid or uuid.
ULID_TSID_FUNCTION(ulid_tsid_public_id_parse_128) {
  const TextArg input = text_arg(fcinfo, 0);
  const TextArg domain = prefix_arg(fcinfo, 1);
  std::uint8_t permuted[16];
  const TypeidStatus status = typeid_parse_128(input.data, input.length, domain.data, domain.length, permuted);
  if (!status.ok()) report_bad_typeid(input, domain, static_cast<int>(status.error), status.position);
  auto* out = static_cast<std::uint8_t*>(palloc(16));
  public_id_decode_128(subkey(fcinfo, domain, 2), permuted, out);
  PG_RETURN_POINTER(out);
}

// tsid or bigint -> domain_ + 13 characters of the permuted 64 bits.
ULID_TSID_FUNCTION(ulid_tsid_public_id_64) {
  const auto value = static_cast<std::uint64_t>(PG_GETARG_INT64(0));
  const TextArg domain = prefix_arg(fcinfo, 1);
  const std::uint64_t permuted = public_id_encode_64(subkey(fcinfo, domain, 2), value);
  char out[kTypeidMaxLength64];
  const std::size_t length = typeid_format_64(domain.data, domain.length, permuted, out);
  PG_RETURN_TEXT_P(cstring_to_text_with_len(out, static_cast<int>(length)));
}

// The domain's public form -> the tsid or bigint.
ULID_TSID_FUNCTION(ulid_tsid_public_id_parse_64) {
  const TextArg input = text_arg(fcinfo, 0);
  const TextArg domain = prefix_arg(fcinfo, 1);
  std::uint64_t permuted = 0;
  const TypeidStatus status = typeid_parse_64(input.data, input.length, domain.data, domain.length, &permuted);
  if (!status.ok()) report_bad_typeid(input, domain, static_cast<int>(status.error), status.position);
  PG_RETURN_INT64(static_cast<int64>(public_id_decode_64(subkey(fcinfo, domain, 2), permuted)));
}
