#include "atomic_file.hpp"

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <fcntl.h>
#include <stdexcept>
#include <unistd.h>

namespace dem::io {

namespace {
[[noreturn]] void fail(const std::string& path, const char* what) {
  throw std::runtime_error(path + ": " + what + ": " + std::strerror(errno));
}

void renameOver(const std::string& from, const std::string& to) {
  if (std::rename(from.c_str(), to.c_str()) != 0) fail(to, "rename failed");
}
}  // namespace

void writeFileAtomically(const std::string& path, std::string_view bytes) {
  writeFileAtomically(path, [bytes](BufferedFile& file) { file.write(bytes); });
}

void writeFileAtomically(const std::string& path, const std::function<void(BufferedFile&)>& write) {
  BufferedFile file(path + ".tmp");
  write(file);
  file.sync();
  file.close();
  renameOver(file.path(), path);
}

void syncAndRename(const std::string& from, const std::string& to) {
  const int fd = ::open(from.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) fail(from, "cannot open");
  if (::fsync(fd) != 0) {
    const int error = errno;
    ::close(fd);
    errno = error;
    fail(from, "fsync failed");
  }
  if (::close(fd) != 0) fail(from, "close failed");
  renameOver(from, to);
}

}  // namespace dem::io
