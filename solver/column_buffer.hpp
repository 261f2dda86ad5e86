#pragma once
// The memory of the contact store's columns (contacts.hpp): one block of doubles, page-aligned
// (so 64-byte aligned for the batches' vector loads), resized in place where the system allows.
// On Linux the block is an anonymous mapping grown and shrunk with mremap, which moves pages
// instead of copying them: resizing never holds two copies of the columns, which are most of a
// scene's memory (the store's growth by a quarter had briefly needed 2.25 times their size).
// Below 256 kB, and elsewhere, a heap block grown by a new block and a copy. Entries past the old
// size are unspecified after growth (zero in a new block); the store writes them.

#include <cstddef>

namespace dem {

class ColumnBuffer {
 public:
  ColumnBuffer() = default;
  ColumnBuffer(const ColumnBuffer& other);
  ColumnBuffer& operator=(const ColumnBuffer& other);
  ColumnBuffer(ColumnBuffer&& other) noexcept;
  ColumnBuffer& operator=(ColumnBuffer&& other) noexcept;
  ~ColumnBuffer();

  double* data() { return data_; }
  const double* data() const { return data_; }
  std::size_t size() const { return size_; }
  double& operator[](std::size_t i) { return data_[i]; }
  double operator[](std::size_t i) const { return data_[i]; }
  // n entries; the first min(size(), n) keep their values. Throws std::bad_alloc when out of memory
  // (the buffer is then unchanged).
  void resize(std::size_t n);

 private:
  double* data_ = nullptr;
  std::size_t size_ = 0;
  std::size_t bytes_ = 0;  // of the block (a whole number of pages on Linux)
  void release() noexcept;
};

}  // namespace dem
