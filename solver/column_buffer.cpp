#include "column_buffer.hpp"

#include <algorithm>
#include <cstring>
#include <new>
#include <utility>

#ifdef __linux__
#include <sys/mman.h>
#include <unistd.h>
#endif

namespace dem {

namespace {
#ifdef __linux__
std::size_t blockBytes(std::size_t n) {
  static const auto page = static_cast<std::size_t>(sysconf(_SC_PAGESIZE));
  return (n * sizeof(double) + page - 1) / page * page;
}
#else
std::size_t blockBytes(std::size_t n) { return (n * sizeof(double) + 63) / 64 * 64; }
#endif
}  // namespace

ColumnBuffer::ColumnBuffer(const ColumnBuffer& other) {
  resize(other.size_);
  if (size_) std::memcpy(data_, other.data_, size_ * sizeof(double));
}

ColumnBuffer& ColumnBuffer::operator=(const ColumnBuffer& other) {
  if (this != &other) {
    ColumnBuffer copy(other);
    *this = std::move(copy);
  }
  return *this;
}

ColumnBuffer::ColumnBuffer(ColumnBuffer&& other) noexcept
    : data_(std::exchange(other.data_, nullptr)),
      size_(std::exchange(other.size_, 0)),
      bytes_(std::exchange(other.bytes_, 0)) {}

ColumnBuffer& ColumnBuffer::operator=(ColumnBuffer&& other) noexcept {
  if (this != &other) {
    release();
    data_ = std::exchange(other.data_, nullptr);
    size_ = std::exchange(other.size_, 0);
    bytes_ = std::exchange(other.bytes_, 0);
  }
  return *this;
}

ColumnBuffer::~ColumnBuffer() { release(); }

void ColumnBuffer::release() noexcept {
  if (!data_) return;
#ifdef __linux__
  munmap(data_, bytes_);
#else
  ::operator delete (data_, std::align_val_t{64});
#endif
  data_ = nullptr;
  size_ = bytes_ = 0;
}

void ColumnBuffer::resize(std::size_t n) {
  if (n == 0) {
    release();
    return;
  }
  const std::size_t bytes = blockBytes(n);
  if (bytes != bytes_) {
#ifdef __linux__
    void* p = data_ ? mremap(data_, bytes_, bytes, MREMAP_MAYMOVE)
                    : mmap(nullptr, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (p == MAP_FAILED) throw std::bad_alloc();
    data_ = static_cast<double*>(p);
#else
    auto* p = static_cast<double*>(::operator new (bytes, std::align_val_t{64}));
    if (data_) std::memcpy(p, data_, std::min(size_, n) * sizeof(double));
    release();
    data_ = p;
#endif
    bytes_ = bytes;
  }
  size_ = n;
}

}  // namespace dem
