// Fuzzes the public-ID permutation (public_id.hpp) with fuzzer-chosen master
// key, domain and value: decode(encode(x)) == x and encode(decode(x)) == x for
// 64- and 128-bit values, derivation is deterministic, and in-place 128-bit
// calls agree with out-of-place ones.
// Input: 32 bytes of master key, 1 byte of domain length (mod 65), the domain,
// then the value's bytes (missing bytes are zero).
#include <cstddef>
#include <cstdint>
#include <cstring>

#include "fuzz_check.hpp"
#include "public_id.hpp"

using namespace ulid_tsid;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  std::uint8_t master[kPublicIdMasterKeyBytes] = {};
  std::size_t pos = size < sizeof master ? size : sizeof master;
  std::memcpy(master, data, pos);
  std::size_t dlen = pos < size ? data[pos++] % 65 : 0;
  if (dlen > size - pos) dlen = size - pos;
  const char* domain = reinterpret_cast<const char*>(data + pos);
  pos += dlen;
  std::uint8_t value[16] = {};
  std::memcpy(value, data + pos, size - pos < 16 ? size - pos : 16);

  PublicIdKey key, again;
  FUZZ_CHECK(public_id_derive(master, dlen ? domain : nullptr, dlen, &key));
  FUZZ_CHECK(public_id_derive(master, domain, dlen, &again));
  FUZZ_CHECK(std::memcmp(key.subkey, again.subkey, sizeof key.subkey) == 0);

  std::uint64_t v = 0;
  for (int i = 0; i < 8; ++i) v = (v << 8) | value[i];
  const std::uint64_t e = public_id_encode_64(key, v);
  FUZZ_CHECK(public_id_decode_64(key, e) == v);
  FUZZ_CHECK(public_id_encode_64(key, public_id_decode_64(key, v)) == v);
  FUZZ_CHECK(public_id_encode_64(key, v) == e);  // deterministic

  std::uint8_t enc[16], back[16], io[16];
  public_id_encode_128(key, value, enc);
  public_id_decode_128(key, enc, back);
  FUZZ_CHECK(std::memcmp(back, value, 16) == 0);
  public_id_decode_128(key, value, back);
  public_id_encode_128(key, back, back);
  FUZZ_CHECK(std::memcmp(back, value, 16) == 0);
  std::memcpy(io, value, 16);
  public_id_encode_128(key, io, io);
  FUZZ_CHECK(std::memcmp(io, enc, 16) == 0);
  return 0;
}
