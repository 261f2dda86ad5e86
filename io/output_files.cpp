#include "output_files.hpp"

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <stdexcept>
#include <sys/stat.h>
#include <unistd.h>

namespace dem::io {

namespace {

constexpr std::size_t kBufferBytes = 1 << 16;

// Reads up to `n` bytes of the open file `fd` from its start; fewer when it is shorter.
std::string readUpTo(int fd, std::uint64_t n, const std::string& path, const std::string& checkpoint) {
  std::string out;
  char chunk[1 << 16];
  while (out.size() < n) {
    const std::size_t want = static_cast<std::size_t>(std::min<std::uint64_t>(sizeof chunk, n - out.size()));
    const ssize_t k = ::read(fd, chunk, want);
    if (k < 0) {
      if (errno == EINTR) continue;
      throw OutputResumeError(path + ": cannot read the output to resume it (" + checkpoint +
                              "): " + std::strerror(errno));
    }
    if (k == 0) break;
    out.append(chunk, static_cast<std::size_t>(k));
  }
  return out;
}

}  // namespace

std::string verifiedPrefix(const std::string& path, const OutputRecord& rec, const std::string& checkpoint) {
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0)
    throw OutputResumeError(path + ": cannot open the output to resume it: " + std::strerror(errno) + " (" +
                            checkpoint + " records " + std::to_string(rec.offset) + " bytes of it); refusing to resume");
  std::string bytes;
  try {
    bytes = readUpTo(fd, rec.offset, path, checkpoint);
  } catch (...) {
    ::close(fd);
    throw;
  }
  ::close(fd);
  if (bytes.size() < rec.offset)
    throw OutputResumeError(path + ": the file is shorter (" + std::to_string(bytes.size()) + " bytes) than the " +
                            std::to_string(rec.offset) + " bytes " + checkpoint +
                            " records for it; refusing to resume (the output was truncated or replaced)");
  if (fnv1a64(bytes) != rec.checksum)
    throw OutputResumeError(path + ": its first " + std::to_string(rec.offset) +
                            " bytes do not match the checksum " + checkpoint +
                            " records for it; refusing to resume (the output was changed or belongs to another run)");
  return bytes;
}

AppendFile::AppendFile(std::string path, Mode mode, const OutputRecord* record, const std::string& checkpoint)
    : path_(std::move(path)) {
  if (mode == Mode::Restore) {
    if (!record) throw std::logic_error(path_ + ": restore without a record");
    verifiedPrefix(path_, *record, checkpoint);
    fd_ = ::open(path_.c_str(), O_WRONLY | O_CLOEXEC);
    if (fd_ < 0) fail("cannot open for writing");
    if (::ftruncate(fd_, static_cast<off_t>(record->offset)) != 0) fail("cannot cut back to the checkpoint's length");
    if (::lseek(fd_, static_cast<off_t>(record->offset), SEEK_SET) < 0) fail("cannot seek");
    size_ = record->offset;
    checksum_ = record->checksum;
    return;
  }
  fd_ = ::open(path_.c_str(), O_RDWR | O_CREAT | O_CLOEXEC | (mode == Mode::Replace ? O_TRUNC : 0), 0644);
  if (fd_ < 0) fail("cannot open for writing");
  if (mode == Mode::Append) {
    struct stat st {};
    if (::fstat(fd_, &st) != 0) fail("cannot stat");
    if (S_ISREG(st.st_mode)) {
      const std::string old = readUpTo(fd_, static_cast<std::uint64_t>(st.st_size), path_, "the restart");
      size_ = old.size();
      checksum_ = fnv1a64(old);
    }
    if (::lseek(fd_, 0, SEEK_END) < 0 && S_ISREG(st.st_mode)) fail("cannot seek");
  }
}

AppendFile::~AppendFile() {
  if (fd_ < 0) return;
  try {
    flush();
  } catch (...) {
  }
  ::close(fd_);
}

void AppendFile::fail(const char* what) const {
  throw std::runtime_error(path_ + ": " + what + ": " + std::strerror(errno));
}

void AppendFile::write(std::string_view bytes) {
  if (fd_ < 0) throw std::logic_error(path_ + ": write after close");
  buf_.append(bytes);
  size_ += bytes.size();
  checksum_ = fnv1a64(bytes, checksum_);
  if (buf_.size() >= kBufferBytes) flush();
}

void AppendFile::flush() {
  std::size_t done = 0;
  while (done < buf_.size()) {
    const ssize_t k = ::write(fd_, buf_.data() + done, buf_.size() - done);
    if (k < 0) {
      if (errno == EINTR) continue;
      buf_.erase(0, done);
      fail("write failed");
    }
    done += static_cast<std::size_t>(k);
  }
  buf_.clear();
}

void AppendFile::sync() {
  flush();
  // (a character device such as /dev/null or a pipe cannot be synced, and need not be)
  if (::fsync(fd_) != 0 && errno != EINVAL && errno != EROFS) fail("fsync failed");
}

void AppendFile::close() {
  if (fd_ < 0) return;
  flush();
  const int fd = fd_;
  fd_ = -1;
  if (::close(fd) != 0) fail("close failed");
}

OutputRecord AppendFile::record(const std::string& name) const {
  OutputRecord r;
  r.kind = OutputRecord::Kind::Appended;
  r.file = name;
  r.offset = size_;
  r.checksum = checksum_;
  return r;
}

}  // namespace dem::io
