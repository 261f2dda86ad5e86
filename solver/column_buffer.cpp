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
// Blocks below this size come from the heap: a mapping each (an mmap, a munmap and page faults) cost
// more than the columns of a few contacts, as in the many small scenes of the verification cases.
constexpr std::size_t kMapFrom = std::size_t{256} << 10;

bool mapped(std::size_t bytes) {
#ifdef __linux__
  return bytes >= kMapFrom;
#else
  (void)bytes;
  return false;
#endif
}

std::size_t blockBytes(std::size_t n) {
  const std::size_t heap = (n * sizeof(double) + 63) / 64 * 64;
#ifdef __linux__
  static const auto page = static_cast<std::size_t>(sysconf(_SC_PAGESIZE));
  if (mapped(heap)) return (n * sizeof(double) + page - 1) / page * page;
#endif
  return heap;
}

double* allocate(std::size_t bytes) {
#ifdef __linux__
  if (mapped(bytes)) {
    void* p = mmap(nullptr, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (p == MAP_FAILED) throw std::bad_alloc();
    return static_cast<double*>(p);
  }
#endif
  return static_cast<double*>(::operator new (bytes, std::align_val_t{64}));
}

void deallocate(double* p, std::size_t bytes) noexcept {
#ifdef __linux__
  if (mapped(bytes)) {
    munmap(p, bytes);
    return;
  }
#endif
  ::operator delete (p, std::align_val_t{64});
}
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
  deallocate(data_, bytes_);
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
    if (data_ && mapped(bytes_) && mapped(bytes)) {  // (pages moved, not copied; the new ones zero)
      void* p = mremap(data_, bytes_, bytes, MREMAP_MAYMOVE);
      if (p == MAP_FAILED) throw std::bad_alloc();
      data_ = static_cast<double*>(p);
      bytes_ = bytes;
      size_ = n;
      return;
    }
#endif
    double* p = allocate(bytes);
    const std::size_t kept = data_ ? std::min(size_, n) : 0;
    if (kept) std::memcpy(p, data_, kept * sizeof(double));
    if (!mapped(bytes)) std::memset(p + kept, 0, bytes - kept * sizeof(double));  // (as a new mapping's pages are)
    release();
    data_ = p;
    bytes_ = bytes;
  }
  size_ = n;
}

}  // namespace dem
