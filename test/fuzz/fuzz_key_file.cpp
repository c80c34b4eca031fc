// Fuzzes parse_hex_key, the public-ID key file's content parser, against an
// independent reading of the rule: accepted exactly when the input, white
// space trimmed at both ends, is 64 hexadecimal digits; then the key is those
// digits' bytes, and otherwise the key is left all zeros. Then the same bytes
// as a real file (mode 0600) through read_key_file, which opens it without
// blocking and checks it on the descriptor: the same answer for a file of at
// most 256 bytes, kMalformed for a longer one.
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cctype>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>

#include "fuzz_check.hpp"
#include "key_file.hpp"

namespace {

bool IsSpace(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\v' || c == '\f'; }

int Nibble(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

// One file per process, rewritten for each input, removed at exit; in TMPDIR
// (default /tmp). On ext4 a file truncated and rewritten is flushed at close, so
// /tmp on disk holds a run to a few thousand inputs a second; test/fuzz/run.sh
// points TMPDIR at /dev/shm.
char g_dir[4096] = {};
char g_path[4096 + 8] = {};

void RemoveKeyFile() {
  unlink(g_path);
  rmdir(g_dir);
}

const char* KeyPath() {
  if (g_path[0] == '\0') {
    const char* tmp = std::getenv("TMPDIR");
    if (tmp == nullptr || tmp[0] == '\0') tmp = "/tmp";
    const int n = std::snprintf(g_dir, sizeof g_dir, "%s/ulid_tsid_fuzz_key.XXXXXX", tmp);
    if (n < 0 || static_cast<std::size_t>(n) >= sizeof g_dir) std::abort();
    if (mkdtemp(g_dir) == nullptr) std::abort();
    std::snprintf(g_path, sizeof g_path, "%s/key", g_dir);
    std::atexit(RemoveKeyFile);
  }
  return g_path;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const char* text = reinterpret_cast<const char*>(data);
  std::uint8_t key[32];
  std::memset(key, 0xAA, sizeof key);
  const bool ok = ulid_tsid::parse_hex_key(text, size, key, sizeof key);

  std::size_t begin = 0, end = size;
  while (begin < end && IsSpace(text[begin])) ++begin;
  while (end > begin && IsSpace(text[end - 1])) --end;
  bool expected = end - begin == 64;
  std::uint8_t want[32] = {};
  for (std::size_t i = 0; expected && i < 32; ++i) {
    const int high = Nibble(text[begin + 2 * i]), low = Nibble(text[begin + 2 * i + 1]);
    if (high < 0 || low < 0) expected = false;
    else want[i] = static_cast<std::uint8_t>(high << 4 | low);
  }
  FUZZ_CHECK(ok == expected);
  if (!ok) std::memset(want, 0, sizeof want);
  FUZZ_CHECK(std::memcmp(key, want, sizeof key) == 0);

  const int fd = open(KeyPath(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
  FUZZ_CHECK(fd >= 0);
  FUZZ_CHECK(size == 0 || write(fd, data, size) == static_cast<ssize_t>(size));
  close(fd);
  std::uint8_t from_file[32];
  std::memset(from_file, 0xAA, sizeof from_file);
  const auto status = ulid_tsid::read_key_file(KeyPath(), static_cast<unsigned>(geteuid()), from_file, sizeof from_file);
  if (size > 256) {
    FUZZ_CHECK(status.error == ulid_tsid::KeyFileError::kMalformed);
  } else {
    FUZZ_CHECK(status.ok() == ok);
    FUZZ_CHECK(ok || status.error == ulid_tsid::KeyFileError::kMalformed);
  }
  const std::uint8_t zeros[32] = {};
  FUZZ_CHECK(std::memcmp(from_file, status.ok() ? want : zeros, sizeof from_file) == 0);  // zeroed on failure
  return 0;
}
