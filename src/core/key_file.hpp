// A secret key kept in a file, read much as PostgreSQL reads ssl_key_file: the
// file must be a regular file (not a symbolic link to one) owned by the reading
// user and closed to group and others, and it holds the key as hexadecimal
// digits with optional surrounding white space. The file is opened without
// blocking (a FIFO or a device is refused at once, never waited on) and every
// check is made on the open descriptor, so nothing can swap the file between
// the check and the read. Nothing here ever copies the file's content anywhere
// but the caller's key buffer; every other copy is wiped before returning.
#pragma once

#include <cstddef>
#include <cstdint>

namespace ulid_tsid {

enum class KeyFileError : std::uint8_t {
  kNone = 0,
  kOpen,                // open() failed: see sys_errno
  kNotRegularFile,      // a directory, a device, a FIFO...
  kWrongOwner,          // not owned by the expected user
  kGroupOrOtherAccess,  // mode grants group or others any access
  kRead,                // read() failed: see sys_errno
  kMalformed,           // not exactly the expected number of hex digits
  kSymbolicLink,        // the path's last component is a symbolic link
};

struct KeyFileStatus {
  KeyFileError error;
  int sys_errno;  // for kOpen and kRead
  bool ok() const noexcept { return error == KeyFileError::kNone; }
};

// Reads `key_bytes` bytes of key, written as 2 * key_bytes hexadecimal digits
// (any case) between optional white space, from `path`, which must be owned by
// `owner_uid`. On failure `key` is zeroed.
KeyFileStatus read_key_file(const char* path, unsigned owner_uid, std::uint8_t* key, std::size_t key_bytes) noexcept;

// The hex digits (and white space around them) of `text` as `key_bytes` bytes;
// false (and `key` zeroed) unless that is all `text` holds.
bool parse_hex_key(const char* text, std::size_t length, std::uint8_t* key, std::size_t key_bytes) noexcept;

// What a status means, for an error message (never the file's content).
const char* key_file_error_message(KeyFileError error) noexcept;

// Overwrites memory so that the compiler cannot drop the writes.
void wipe(void* memory, std::size_t length) noexcept;

}  // namespace ulid_tsid
