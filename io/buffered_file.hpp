#pragma once
// A file written through a buffer of kBufferBytes, with the FNV-1a 64 hash (io/fnv1a.hpp) of every
// byte written, continued chunk by chunk as the buffer goes out: a checkpoint streams to disk with
// its checksum (io/checkpoint.hpp, streamCheckpoint) and never lies in memory whole.
//
// Every system call is checked: errors throw std::runtime_error naming the path and the system's
// reason ("PATH: write failed: No space left on device").

#include "fnv1a.hpp"

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <memory>
#include <string>
#include <string_view>

namespace dem::io {

class BufferedFile {
 public:
  static constexpr std::size_t kBufferBytes = std::size_t{1} << 20;

  // Creates `path`, or truncates it. hashed false: no hash is kept (hash() throws std::logic_error);
  // a file whose checksum is computed later, if ever (the last good state: LastGoodState).
  explicit BufferedFile(std::string path, bool hashed = true);
  // Closes the file when close() was not called (after an error: nothing reported).
  ~BufferedFile();
  BufferedFile(const BufferedFile&) = delete;
  BufferedFile& operator=(const BufferedFile&) = delete;

  void write(const char* data, std::size_t n) {
    if (n <= kBufferBytes - used_) {  // (the usual case: a few bytes into the buffer)
      std::memcpy(buffer_.get() + used_, data, n);
      used_ += n;
    } else {
      writeLarge(data, n);
    }
  }
  void write(std::string_view bytes) { write(bytes.data(), bytes.size()); }
  // The FNV-1a 64 hash of every byte written so far.
  std::uint64_t hash() const;
  // Hands the buffer to the system and waits until the file is on the disk (fsync).
  void sync();
  // Hands the buffer to the system and closes the file (without fsync).
  void close();
  const std::string& path() const { return path_; }

 private:
  void flush();
  void writeLarge(const char* data, std::size_t n);
  void writeToFd(const char* data, std::size_t n);  // every byte, or throws

  std::string path_;
  int fd_ = -1;
  std::unique_ptr<char[]> buffer_;
  std::size_t used_ = 0;
  std::uint64_t hashFlushed_ = kFnvBasis;  // of the bytes handed to the system
  bool hashed_ = true;
};

}  // namespace dem::io
