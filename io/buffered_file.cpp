#include "buffered_file.hpp"

#include <fcntl.h>
#include <unistd.h>
#include <cerrno>
#include <stdexcept>
#include <utility>

namespace dem::io {

namespace {
[[noreturn]] void fail(const std::string& path, const char* what) {
  throw std::runtime_error(path + ": " + what + ": " + std::strerror(errno));
}
}  // namespace

BufferedFile::BufferedFile(std::string path, bool hashed)
    : path_(std::move(path)), buffer_(std::make_unique_for_overwrite<char[]>(kBufferBytes)), hashed_(hashed) {
  fd_ = ::open(path_.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  if (fd_ < 0) fail(path_, "cannot create");
}

BufferedFile::~BufferedFile() {
  if (fd_ >= 0) ::close(fd_);
}

void BufferedFile::sync() {
  flush();
  if (::fsync(fd_) != 0) fail(path_, "fsync failed");
}

void BufferedFile::close() {
  flush();
  const int fd = std::exchange(fd_, -1);
  if (::close(fd) != 0) fail(path_, "close failed");
}

std::uint64_t BufferedFile::hash() const {
  if (!hashed_) throw std::logic_error(path_ + ": written without its hash (BufferedFile)");
  return fnv1a64(std::string_view(buffer_.get(), used_), hashFlushed_);
}

void BufferedFile::flush() {
  writeToFd(buffer_.get(), used_);
  if (hashed_) hashFlushed_ = fnv1a64(std::string_view(buffer_.get(), used_), hashFlushed_);
  used_ = 0;
}

// A block larger than the buffer's free space: the buffer goes out first, then a block as large as
// the buffer goes out directly (no copy), a smaller one into the buffer.
void BufferedFile::writeLarge(const char* data, std::size_t n) {
  flush();
  if (n < kBufferBytes) {
    write(data, n);
    return;
  }
  writeToFd(data, n);
  if (hashed_) hashFlushed_ = fnv1a64(std::string_view(data, n), hashFlushed_);
}

void BufferedFile::writeToFd(const char* data, std::size_t n) {
  std::size_t done = 0;
  while (done < n) {
    const ssize_t k = ::write(fd_, data + done, n - done);
    if (k < 0) {
      if (errno == EINTR) continue;
      fail(path_, "write failed");
    }
    done += static_cast<std::size_t>(k);
  }
}

}  // namespace dem::io
