#include "public_id.hpp"

#include <sodium.h>

#include <cstring>

#include "big_endian.hpp"

namespace ulid_tsid {
namespace {

static_assert(sizeof(kPublicIdKdfContext) - 1 == crypto_kdf_CONTEXTBYTES, "KDF context is 8 bytes");
static_assert(kPublicIdMasterKeyBytes == crypto_kdf_KEYBYTES, "master key is a crypto_kdf key");
static_assert(kPublicIdSubkeyBytes == crypto_shorthash_siphash24_KEYBYTES, "subkey is a SipHash key");
static_assert(crypto_shorthash_siphash24_BYTES == 8, "SipHash-2-4 output is 8 bytes");

// F_i(x): SipHash-2-4 of [i] || x (H bytes), first H bytes XORed into `into`.
template <std::size_t H>
inline void RoundXor(const PublicIdKey& key, int round, const std::uint8_t* x, std::uint8_t* into) noexcept {
  std::uint8_t msg[1 + H];
  msg[0] = static_cast<std::uint8_t>(round);
  std::memcpy(msg + 1, x, H);
  std::uint8_t mac[crypto_shorthash_siphash24_BYTES];
  crypto_shorthash_siphash24(mac, msg, sizeof msg, key.subkey);
  for (std::size_t k = 0; k < H; ++k) into[k] ^= mac[k];
}

// In place on 2*H big-endian bytes: L = block[0..H), R = block[H..2H).
// Each round (L, R) -> (R, L ^ F_i(R)) is done as L ^= F_i(R) then a swap of
// roles, so the halves alternate between the two buffers.
template <std::size_t H>
void Encrypt(const PublicIdKey& key, std::uint8_t* block) noexcept {
  std::uint8_t l[H], r[H];
  std::memcpy(l, block, H);
  std::memcpy(r, block + H, H);
  for (int i = 0; i < kPublicIdRounds; ++i) {
    RoundXor<H>(key, i, r, l);  // l = L ^ F_i(R)
    std::uint8_t t[H];
    std::memcpy(t, l, H);
    std::memcpy(l, r, H);       // new L = R
    std::memcpy(r, t, H);       // new R = L ^ F_i(R)
  }
  std::memcpy(block, l, H);
  std::memcpy(block + H, r, H);
}

template <std::size_t H>
void Decrypt(const PublicIdKey& key, std::uint8_t* block) noexcept {
  std::uint8_t l[H], r[H];
  std::memcpy(l, block, H);
  std::memcpy(r, block + H, H);
  for (int i = kPublicIdRounds - 1; i >= 0; --i) {
    // (L, R) -> (R ^ F_i(L), L)
    RoundXor<H>(key, i, l, r);  // r = R ^ F_i(L)
    std::uint8_t t[H];
    std::memcpy(t, r, H);
    std::memcpy(r, l, H);
    std::memcpy(l, t, H);
  }
  std::memcpy(block, l, H);
  std::memcpy(block + H, r, H);
}

}  // namespace

bool public_id_derive(const std::uint8_t master[32], const char* domain, std::size_t domain_length,
                      PublicIdKey* out) noexcept {
  if (sodium_init() < 0) return false;
  static const char kEmpty[1] = {0};
  if (domain == nullptr) {
    if (domain_length != 0) return false;
    domain = kEmpty;
  }
  std::uint8_t digest[8];
  if (crypto_generichash(digest, sizeof digest, reinterpret_cast<const unsigned char*>(domain),
                         domain_length, nullptr, 0) != 0) {
    return false;
  }
  std::uint64_t subkey_id = 0;
  for (int i = 7; i >= 0; --i) subkey_id = (subkey_id << 8) | digest[i];  // little-endian
  PublicIdKey key;
  if (crypto_kdf_derive_from_key(key.subkey, sizeof key.subkey, subkey_id, kPublicIdKdfContext,
                                 master) != 0) {
    sodium_memzero(key.subkey, sizeof key.subkey);
    return false;
  }
  std::memcpy(out->subkey, key.subkey, sizeof key.subkey);
  sodium_memzero(key.subkey, sizeof key.subkey);
  return true;
}

std::uint64_t public_id_encode_64(const PublicIdKey& key, std::uint64_t value) noexcept {
  std::uint8_t b[8];
  store_be(value, b);
  Encrypt<4>(key, b);
  return load_be(b);
}

std::uint64_t public_id_decode_64(const PublicIdKey& key, std::uint64_t value) noexcept {
  std::uint8_t b[8];
  store_be(value, b);
  Decrypt<4>(key, b);
  return load_be(b);
}

void public_id_encode_128(const PublicIdKey& key, const std::uint8_t in[16], std::uint8_t out[16]) noexcept {
  std::uint8_t b[16];
  std::memcpy(b, in, 16);
  Encrypt<8>(key, b);
  std::memcpy(out, b, 16);
}

void public_id_decode_128(const PublicIdKey& key, const std::uint8_t in[16], std::uint8_t out[16]) noexcept {
  std::uint8_t b[16];
  std::memcpy(b, in, 16);
  Decrypt<8>(key, b);
  std::memcpy(out, b, 16);
}

}  // namespace ulid_tsid
