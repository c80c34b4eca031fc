#include "random_pool.hpp"

#include <sodium.h>

#include <cstring>

namespace ulid_tsid {

bool RandomPool::reseed(int pid) noexcept {
  if (sodium_init() < 0) return false;
  randombytes_buf(key_, sizeof key_);
  nonce_ = 0;
  used_ = kBlockBytes;
  pid_ = pid;
  seeded_ = true;
  return true;
}

void RandomPool::refill() noexcept {
  unsigned char nonce[crypto_stream_chacha20_NONCEBYTES];
  static_assert(sizeof nonce == sizeof nonce_, "64-bit ChaCha20 nonce");
  std::memcpy(nonce, &nonce_, sizeof nonce);
  ++nonce_;
  crypto_stream_chacha20(block_, kBlockBytes, nonce, key_);
  // Fast key erasure: the first bytes of each block become the next key and are
  // never handed out.
  std::memcpy(key_, block_, kKeyBytes);
  sodium_memzero(block_, kKeyBytes);
  used_ = kKeyBytes;
}

bool RandomPool::fill(int pid, void* out, std::size_t length) noexcept {
  if ((pid != pid_ || !seeded_) && !reseed(pid)) return false;
  auto* dest = static_cast<unsigned char*>(out);
  while (length > 0) {
    if (used_ == kBlockBytes) refill();
    std::size_t take = kBlockBytes - used_;
    if (take > length) take = length;
    std::memcpy(dest, block_ + used_, take);
    sodium_memzero(block_ + used_, take);
    used_ += take;
    dest += take;
    length -= take;
  }
  return true;
}

}  // namespace ulid_tsid
