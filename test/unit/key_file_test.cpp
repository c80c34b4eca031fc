// The public-ID key file (key_file.hpp): what is accepted, and every way a file
// is refused, on real files in a temporary directory.
#include <gtest/gtest.h>

#include <sys/stat.h>
#include <unistd.h>

#include <cstdint>
#include <cstdlib>
#include <fstream>
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

TEST(KeyFileMessage, NeverEmpty) {
  for (int e = 0; e <= static_cast<int>(KeyFileError::kMalformed); ++e) {
    EXPECT_GT(std::string(ulid_tsid::key_file_error_message(static_cast<KeyFileError>(e))).size(), 5u);
  }
}

}  // namespace
