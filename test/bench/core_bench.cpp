// Google Benchmark of the core's hot paths: Crockford encode/decode, ULID
// generation with pool randomness, the pool itself, the clock read, and the
// public-ID permutation (10 SipHash-2-4 rounds) and its key derivation.
#include <benchmark/benchmark.h>
#include <unistd.h>

#include <cstdint>
#include <cstdlib>
#include <cstring>

#include "clock.hpp"
#include "crockford.hpp"
#include "public_id.hpp"
#include "random_pool.hpp"
#include "ulid_generator.hpp"

namespace {

using namespace ulid_tsid;

void BM_encode_128(benchmark::State& state) {
  std::uint8_t bytes[16];
  for (int i = 0; i < 16; ++i) bytes[i] = static_cast<std::uint8_t>(i * 37 + 11);
  bytes[0] &= 0x7F;
  char out[kUlidTextLength];
  for (auto _ : state) {
    benchmark::DoNotOptimize(bytes);
    encode_128(bytes, out);
    benchmark::DoNotOptimize(out);
    ++bytes[15];
  }
}
BENCHMARK(BM_encode_128);

void BM_decode_128(benchmark::State& state) {
  char text[] = "01ARYZ6S41TSV4RRFFQ69G5FAV";
  std::uint8_t bytes[16];
  for (auto _ : state) {
    benchmark::DoNotOptimize(text);
    const DecodeStatus st = decode_128(text, kUlidTextLength, bytes);
    benchmark::DoNotOptimize(st);
    benchmark::DoNotOptimize(bytes);
  }
}
BENCHMARK(BM_decode_128);

void BM_encode_64(benchmark::State& state) {
  std::uint64_t v = 0x0123456789ABCDEFULL;
  char out[kTsidTextLength];
  for (auto _ : state) {
    benchmark::DoNotOptimize(v);
    encode_64(v, out);
    benchmark::DoNotOptimize(out);
    ++v;
  }
}
BENCHMARK(BM_encode_64);

void BM_decode_64(benchmark::State& state) {
  char text[] = "0AXFXR5W7VBQ2";
  std::uint64_t v = 0;
  for (auto _ : state) {
    benchmark::DoNotOptimize(text);
    const DecodeStatus st = decode_64(text, kTsidTextLength, &v);
    benchmark::DoNotOptimize(st);
    benchmark::DoNotOptimize(v);
  }
}
BENCHMARK(BM_decode_64);

// What generate_ulid() does per call minus the fmgr: clock, 8 random bytes, next.
void BM_UlidGenerator_next(benchmark::State& state) {
  RandomPool pool;
  UlidGenerator gen;
  const int pid = static_cast<int>(getpid());
  std::uint8_t random[ulid_tsid::kUlidTailBytes], out[16];
  for (auto _ : state) {
    pool.fill(pid, random, sizeof random);
    const GenerateStatus st = gen.next(split_ns(realtime_ns()), random, out);
    benchmark::DoNotOptimize(st);
    benchmark::DoNotOptimize(out);
  }
}
BENCHMARK(BM_UlidGenerator_next);

void BM_UlidMonotonicGenerator_next(benchmark::State& state) {
  RandomPool pool;
  UlidMonotonicGenerator gen;
  const int pid = static_cast<int>(getpid());
  std::uint8_t random[kUlidRandomBytes], out[16];
  for (auto _ : state) {
    pool.fill(pid, random, sizeof random);
    const GenerateStatus st = gen.next(split_ns(realtime_ns()), random, out);
    benchmark::DoNotOptimize(st);
    benchmark::DoNotOptimize(out);
  }
}
BENCHMARK(BM_UlidMonotonicGenerator_next);

void BM_RandomPool_fill10(benchmark::State& state) {
  RandomPool pool;
  const int pid = static_cast<int>(getpid());
  std::uint8_t random[10];
  for (auto _ : state) {
    pool.fill(pid, random, sizeof random);
    benchmark::DoNotOptimize(random);
  }
  state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations()) * 10);
}
BENCHMARK(BM_RandomPool_fill10);

void BM_realtime_ns(benchmark::State& state) {
  for (auto _ : state) benchmark::DoNotOptimize(realtime_ns());
}
BENCHMARK(BM_realtime_ns);

// Public IDs: a 10-round Feistel network, one SipHash-2-4 per round.
PublicIdKey BenchPublicIdKey() {
  std::uint8_t master[kPublicIdMasterKeyBytes];
  for (int i = 0; i < 32; ++i) master[i] = static_cast<std::uint8_t>(i * 13 + 5);
  PublicIdKey key{};
  if (!public_id_derive(master, "user", 4, &key)) std::abort();
  return key;
}

void BM_public_id_encode_64(benchmark::State& state) {
  const PublicIdKey key = BenchPublicIdKey();
  std::uint64_t v = 0x0123456789ABCDEFULL;
  for (auto _ : state) {
    benchmark::DoNotOptimize(v);
    std::uint64_t e = public_id_encode_64(key, v);
    benchmark::DoNotOptimize(e);
    ++v;
  }
}
BENCHMARK(BM_public_id_encode_64);

void BM_public_id_decode_64(benchmark::State& state) {
  const PublicIdKey key = BenchPublicIdKey();
  std::uint64_t v = 0x0123456789ABCDEFULL;
  for (auto _ : state) {
    benchmark::DoNotOptimize(v);
    std::uint64_t d = public_id_decode_64(key, v);
    benchmark::DoNotOptimize(d);
    ++v;
  }
}
BENCHMARK(BM_public_id_decode_64);

void BM_public_id_encode_128(benchmark::State& state) {
  const PublicIdKey key = BenchPublicIdKey();
  std::uint8_t in[16], out[16];
  for (int i = 0; i < 16; ++i) in[i] = static_cast<std::uint8_t>(i * 37 + 11);
  for (auto _ : state) {
    benchmark::DoNotOptimize(in);
    public_id_encode_128(key, in, out);
    benchmark::DoNotOptimize(out);
    ++in[15];
  }
}
BENCHMARK(BM_public_id_encode_128);

void BM_public_id_decode_128(benchmark::State& state) {
  const PublicIdKey key = BenchPublicIdKey();
  std::uint8_t in[16], out[16];
  for (int i = 0; i < 16; ++i) in[i] = static_cast<std::uint8_t>(i * 37 + 11);
  for (auto _ : state) {
    benchmark::DoNotOptimize(in);
    public_id_decode_128(key, in, out);
    benchmark::DoNotOptimize(out);
    ++in[15];
  }
}
BENCHMARK(BM_public_id_decode_128);

// BLAKE2b of the domain + the KDF's BLAKE2b: what a call without a cached key pays on top.
void BM_public_id_derive(benchmark::State& state) {
  std::uint8_t master[kPublicIdMasterKeyBytes];
  for (int i = 0; i < 32; ++i) master[i] = static_cast<std::uint8_t>(i * 13 + 5);
  const char domain[] = "public.users.id";
  PublicIdKey key;
  for (auto _ : state) {
    benchmark::DoNotOptimize(master);
    const bool ok = public_id_derive(master, domain, sizeof domain - 1, &key);
    benchmark::DoNotOptimize(ok);
    benchmark::DoNotOptimize(key);
    ++master[0];
  }
}
BENCHMARK(BM_public_id_derive);

}  // namespace

BENCHMARK_MAIN();
