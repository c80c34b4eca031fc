#include "key_file.hpp"

#include <fcntl.h>
#include <sodium.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>

namespace ulid_tsid {
namespace {

// Room for the digits of a 32-byte key with generous white space; a longer file
// is malformed, and is not read further.
constexpr std::size_t kMaxKeyFileBytes = 256;

int hex_value(char c) noexcept {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

bool is_space(char c) noexcept { return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\v' || c == '\f'; }

}  // namespace

void wipe(void* memory, std::size_t length) noexcept { sodium_memzero(memory, length); }

bool parse_hex_key(const char* text, std::size_t length, std::uint8_t* key, std::size_t key_bytes) noexcept {
  std::size_t begin = 0;
  while (begin < length && is_space(text[begin])) ++begin;
  std::size_t end = length;
  while (end > begin && is_space(text[end - 1])) --end;
  if (end - begin != 2 * key_bytes) {
    wipe(key, key_bytes);
    return false;
  }
  for (std::size_t i = 0; i < key_bytes; ++i) {
    const int high = hex_value(text[begin + 2 * i]);
    const int low = hex_value(text[begin + 2 * i + 1]);
    if (high < 0 || low < 0) {
      wipe(key, key_bytes);
      return false;
    }
    key[i] = static_cast<std::uint8_t>(high << 4 | low);
  }
  return true;
}

KeyFileStatus read_key_file(const char* path, unsigned owner_uid, std::uint8_t* key, std::size_t key_bytes) noexcept {
  wipe(key, key_bytes);
  // O_NONBLOCK: opening a FIFO must not wait for a writer (an open() blocked
  // there ignores every signal a backend gets, cancel and terminate included);
  // it has no effect on the regular file we accept. O_NOFOLLOW: a symbolic
  // link as the last component fails with ELOOP.
  const int fd = open(path, O_RDONLY | O_NONBLOCK | O_NOFOLLOW | O_CLOEXEC | O_NOCTTY);
  if (fd < 0) return {errno == ELOOP ? KeyFileError::kSymbolicLink : KeyFileError::kOpen, errno == ELOOP ? 0 : errno};
  // Checks on the open file, not the path, so that nothing can swap the file
  // between the check and the read.
  struct stat st;
  KeyFileStatus status = {KeyFileError::kNone, 0};
  if (fstat(fd, &st) != 0) {
    status = {KeyFileError::kRead, errno};
  } else if (!S_ISREG(st.st_mode)) {
    status = {KeyFileError::kNotRegularFile, 0};
  } else if (st.st_uid != owner_uid) {
    status = {KeyFileError::kWrongOwner, 0};
  } else if ((st.st_mode & (S_IRWXG | S_IRWXO)) != 0) {
    status = {KeyFileError::kGroupOrOtherAccess, 0};
  }
  if (!status.ok()) {
    close(fd);
    return status;
  }
  char buffer[kMaxKeyFileBytes + 1];
  std::size_t length = 0;
  while (length < sizeof buffer) {
    const ssize_t got = read(fd, buffer + length, sizeof buffer - length);
    if (got < 0 && errno == EINTR) continue;
    if (got < 0) {
      status = {KeyFileError::kRead, errno};
      break;
    }
    if (got == 0) break;
    length += static_cast<std::size_t>(got);
  }
  close(fd);
  if (status.ok() && (length > kMaxKeyFileBytes || !parse_hex_key(buffer, length, key, key_bytes))) {
    status = {KeyFileError::kMalformed, 0};
  }
  wipe(buffer, sizeof buffer);
  if (!status.ok()) wipe(key, key_bytes);
  return status;
}

// One message per KeyFileError, in the enum's order.
constexpr const char* kKeyFileErrorMessages[] = {
    "no error",                                                                   // kNone
    "could not be opened",                                                        // kOpen
    "is not a regular file",                                                      // kNotRegularFile
    "is not owned by the database server's user",                                 // kWrongOwner
    "grants access to group or others (it must be u=rw (0600) or less)",         // kGroupOrOtherAccess
    "could not be read",                                                          // kRead
    "does not hold exactly 64 hexadecimal digits (surrounding white space aside)",  // kMalformed
    "is a symbolic link (name the file itself)",                                  // kSymbolicLink
};
static_assert(sizeof kKeyFileErrorMessages / sizeof kKeyFileErrorMessages[0] ==
                  static_cast<std::size_t>(KeyFileError::kSymbolicLink) + 1,
              "a message for every KeyFileError");

const char* key_file_error_message(KeyFileError error) noexcept {
  const auto index = static_cast<std::size_t>(error);
  return index < sizeof kKeyFileErrorMessages / sizeof kKeyFileErrorMessages[0] ? kKeyFileErrorMessages[index]
                                                                                 : "is unusable";
}

}  // namespace ulid_tsid
