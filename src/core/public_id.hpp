// Opaque public IDs: a keyed permutation of 64- and 128-bit values, so that a
// table can expose encode(id) instead of its sequential key and map it back
// with decode. It hides order and density; it is NOT encryption with
// integrity (any value decodes to some value) and is only as secret as the key.
//
// The construction, exactly (documented so that any language can reimplement it;
// test/unit/public_id_reference.py is a second implementation in pure Python):
//
//   master key   32 bytes
//   subkey_id    the 8-byte unkeyed BLAKE2b of the domain's UTF-8 bytes
//                (libsodium crypto_generichash(out, 8, domain, len, NULL, 0)),
//                read as a LITTLE-endian uint64
//   subkey       16 bytes = crypto_kdf_derive_from_key(subkey, 16, subkey_id,
//                "ulidtsid", master), i.e. BLAKE2b(empty message, digest 16,
//                key = master, salt = LE64(subkey_id) || 8 zero bytes,
//                personal = "ulidtsid" || 8 zero bytes)
//   permutation  balanced Feistel network over the value's BIG-endian bytes,
//                split in halves L || R of h = 4 bytes (64-bit values) or
//                h = 8 bytes (128-bit values); 10 rounds, i = 0..9:
//                    (L, R) -> (R, L xor F_i(R))
//                F_i(X) = the first h bytes of SipHash-2-4 (libsodium
//                crypto_shorthash_siphash24, 8-byte output in its byte order)
//                of the (1 + h)-byte message [i] || X under the subkey.
//                The output is L || R after round 9 (no final swap).
//   inverse      i = 9..0: (L, R) -> (R xor F_i(L), L)
//
// Pure C++17 over libsodium: no Postgres headers, no heap, nothing throws.
#pragma once

#include <cstddef>
#include <cstdint>

namespace ulid_tsid {

inline constexpr std::size_t kPublicIdMasterKeyBytes = 32;
inline constexpr std::size_t kPublicIdSubkeyBytes = 16;
inline constexpr int kPublicIdRounds = 10;
inline constexpr char kPublicIdKdfContext[] = "ulidtsid";  // 8 bytes, crypto_kdf_CONTEXTBYTES

struct PublicIdKey {
  std::uint8_t subkey[16];
};

// Derives the domain's key. Calls sodium_init() (idempotent). `domain` may be
// null when domain_length is 0. Returns false only if libsodium fails; `out` is
// then untouched.
bool public_id_derive(const std::uint8_t master[32], const char* domain, std::size_t domain_length,
                      PublicIdKey* out) noexcept;

std::uint64_t public_id_encode_64(const PublicIdKey& key, std::uint64_t value) noexcept;
std::uint64_t public_id_decode_64(const PublicIdKey& key, std::uint64_t value) noexcept;

// 16 big-endian bytes (UUID order) in, 16 out; `in` and `out` may be the same array.
void public_id_encode_128(const PublicIdKey& key, const std::uint8_t in[16], std::uint8_t out[16]) noexcept;
void public_id_decode_128(const PublicIdKey& key, const std::uint8_t in[16], std::uint8_t out[16]) noexcept;

}  // namespace ulid_tsid
