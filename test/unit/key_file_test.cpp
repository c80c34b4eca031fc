// The public-ID key file (key_file.hpp): what is accepted, and every way a file
// is refused, on real files in a temporary directory.
#include <gtest/gtest.h>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <chrono>
#include <cstdint>
#include <cstdlib>
#include <fstream>
#include <future>
#include <string>

#include "key_file.hpp"

namespace {

using ulid_tsid::KeyFileError;
using ulid_tsid::parse_hex_key;
using ulid_tsid::read_key_file;

const std::string kHex = "000102030405060708090a0b0c0d0e0f101112131415161718191A1B1C1D1E1F";

bool IsCounting(const std::uint8_t* key) {
  for (int i = 0; i < 32; ++i) {
    if (key[i] != i) return false;
  }
  return true;
}

bool IsZero(const std::uint8_t* key) {
  for (int i = 0; i < 32; ++i) {
    if (key[i] != 0) return false;
  }
  return true;
}

class KeyFile : public ::testing::Test {
 protected:
  void SetUp() override {
    char pattern[] = "/tmp/ulid_tsid_key_test.XXXXXX";
    ASSERT_NE(mkdtemp(pattern), nullptr);
    dir_ = pattern;
  }
  void TearDown() override { std::system(("rm -rf " + dir_).c_str()); }

  std::string Write(const std::string& name, const std::string& content, mode_t mode) {
    const std::string path = dir_ + "/" + name;
    std::ofstream(path, std::ios::binary) << content;
    chmod(path.c_str(), mode);
    return path;
  }

  std::string dir_;
  std::uint8_t key_[32];
};

TEST(ParseHexKey, DigitsWithSurroundingWhiteSpace) {
  std::uint8_t key[32];
  for (const std::string& text : {kHex, kHex + "\n", "  \t" + kHex + "\r\n\n", "\n" + kHex}) {
    ASSERT_TRUE(parse_hex_key(text.data(), text.size(), key, 32)) << text;
    EXPECT_TRUE(IsCounting(key));
  }
}

TEST(ParseHexKey, AnythingElseIsRefusedAndZeroesTheKey) {
  std::uint8_t key[32];
  for (const std::string& text :
       {std::string(), kHex.substr(0, 63), kHex + "0", "0x" + kHex.substr(2), kHex.substr(0, 31) + " " + kHex.substr(32),
        kHex.substr(0, 63) + "g", "\\x" + kHex, std::string(kHex).replace(10, 1, 1, '\0')}) {
    for (auto& b : key) b = 0xAA;
    EXPECT_FALSE(parse_hex_key(text.data(), text.size(), key, 32)) << text;
    EXPECT_TRUE(IsZero(key)) << text;
  }
}

TEST_F(KeyFile, ModeOwnerReadOnlyIsRead) {
  for (mode_t mode : {0600, 0400}) {
    const std::string path = Write("key", kHex + "\n", mode);
    const auto status = read_key_file(path.c_str(), geteuid(), key_, 32);
    ASSERT_TRUE(status.ok()) << std::oct << mode;
    EXPECT_TRUE(IsCounting(key_));
  }
}

TEST_F(KeyFile, GroupOrOtherAccessIsRefused) {
  for (mode_t mode : {0640, 0604, 0610, 0601, 0660, 0644}) {
    const std::string path = Write("key", kHex, mode);
    for (auto& b : key_) b = 0xAA;
    const auto status = read_key_file(path.c_str(), geteuid(), key_, 32);
    EXPECT_EQ(status.error, KeyFileError::kGroupOrOtherAccess) << std::oct << mode;
    EXPECT_TRUE(IsZero(key_));
  }
}

TEST_F(KeyFile, AnotherOwnerIsRefused) {
  const std::string path = Write("key", kHex, 0600);
  EXPECT_EQ(read_key_file(path.c_str(), geteuid() + 1, key_, 32).error, KeyFileError::kWrongOwner);
  EXPECT_TRUE(IsZero(key_));
}

TEST_F(KeyFile, MissingFileDirectoryAndBadContent) {
  auto missing = read_key_file((dir_ + "/none").c_str(), geteuid(), key_, 32);
  EXPECT_EQ(missing.error, KeyFileError::kOpen);
  EXPECT_EQ(missing.sys_errno, ENOENT);
  EXPECT_EQ(read_key_file(dir_.c_str(), geteuid(), key_, 32).error, KeyFileError::kNotRegularFile);
  for (const std::string& content : {std::string(), kHex.substr(1), kHex + kHex, std::string(300, ' ') + kHex,
                                     "key = " + kHex}) {
    const std::string path = Write("bad", content, 0600);
    EXPECT_EQ(read_key_file(path.c_str(), geteuid(), key_, 32).error, KeyFileError::kMalformed) << content;
    EXPECT_TRUE(IsZero(key_));
  }
  if (geteuid() != 0) {  // root reads a file whatever its mode
    const std::string path = Write("unreadable", kHex, 0000);
    const auto status = read_key_file(path.c_str(), geteuid(), key_, 32);
    EXPECT_EQ(status.error, KeyFileError::kOpen);
    EXPECT_EQ(status.sys_errno, EACCES);
  }
}

// A FIFO must be refused at once: a blocking open() of one waits for a writer
// forever, in a backend that no cancel or terminate can reach. The read runs
// in another thread; if it has not returned after 5 s, the test opens the FIFO
// for writing (which releases the reader) and fails.
TEST_F(KeyFile, FifoIsRefusedWithoutBlocking) {
  const std::string path = dir_ + "/fifo";
  ASSERT_EQ(mkfifo(path.c_str(), 0600), 0);
  std::uint8_t key[32];
  auto read = std::async(std::launch::async, [&] { return read_key_file(path.c_str(), geteuid(), key, 32); });
  const bool returned = read.wait_for(std::chrono::seconds(5)) == std::future_status::ready;
  if (!returned) {
    const int writer = open(path.c_str(), O_WRONLY);  // unblocks the reader
    close(writer);
  }
  const auto status = read.get();
  ASSERT_TRUE(returned) << "read_key_file() blocked on a FIFO";
  EXPECT_EQ(status.error, KeyFileError::kNotRegularFile);
  EXPECT_TRUE(IsZero(key));
}

// The key file is the file itself: a symbolic link (even to a good key file) is
// refused, so that whoever can write the link's directory cannot point it at
// another key the server's user owns (another database's, say).
TEST_F(KeyFile, SymbolicLinkIsRefused) {
  const std::string target = Write("key", kHex, 0600);
  const std::string link = dir_ + "/link";
  ASSERT_EQ(symlink(target.c_str(), link.c_str()), 0);
  for (auto& b : key_) b = 0xAA;
  const auto status = read_key_file(link.c_str(), geteuid(), key_, 32);
  EXPECT_EQ(status.error, KeyFileError::kSymbolicLink) << "a symbolic link was followed";
  EXPECT_TRUE(IsZero(key_));
  ASSERT_TRUE(read_key_file(target.c_str(), geteuid(), key_, 32).ok());  // the target itself is fine
}

TEST(KeyFileMessage, NeverEmpty) {
  for (int e = 0; e <= static_cast<int>(KeyFileError::kSymbolicLink); ++e) {
    EXPECT_GT(std::string(ulid_tsid::key_file_error_message(static_cast<KeyFileError>(e))).size(), 5u);
  }
}

}  // namespace
