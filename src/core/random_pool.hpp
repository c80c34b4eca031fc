// Cryptographically strong random bytes without a system call per value: a
// per-process ChaCha20 keystream (libsodium) seeded from the kernel, rekeyed from
// its own output at every refill so that earlier output cannot be recovered.
#pragma once

#include <cstddef>
#include <cstdint>

namespace ulid_tsid {

class RandomPool {
 public:
  // Fills `out`; reseeds first when `pid` is not the process that seeded the pool,
  // which catches a fork (Postgres backends inherit the postmaster's memory)
  // without asking the kernel. False only when the kernel's randomness is unavailable.
  bool fill(int pid, void* out, std::size_t length) noexcept;

 private:
  bool reseed(int pid) noexcept;
  void refill() noexcept;

  static constexpr std::size_t kKeyBytes = 32;
  static constexpr std::size_t kBlockBytes = 1024;

  bool seeded_ = false;
  int pid_ = 0;
  std::uint64_t nonce_ = 0;
  std::size_t used_ = kBlockBytes;
  unsigned char key_[kKeyBytes] = {};
  unsigned char block_[kBlockBytes] = {};
};

}  // namespace ulid_tsid
