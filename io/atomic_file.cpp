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
}  // namespace

void writeFileAtomically(const std::string& path, std::string_view bytes) {
  const std::string tmp = path + ".tmp";
  const int fd = ::open(tmp.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  if (fd < 0) fail(tmp, "cannot create");
  std::size_t done = 0;
  while (done < bytes.size()) {
    const ssize_t k = ::write(fd, bytes.data() + done, bytes.size() - done);
    if (k < 0) {
      if (errno == EINTR) continue;
      ::close(fd);
      fail(tmp, "write failed");
    }
    done += static_cast<std::size_t>(k);
  }
  if (::fsync(fd) != 0) {
    ::close(fd);
    fail(tmp, "fsync failed");
  }
  if (::close(fd) != 0) fail(tmp, "close failed");
  if (std::rename(tmp.c_str(), path.c_str()) != 0) fail(path, "rename failed");
}

}  // namespace dem::io
