#pragma once
// The exact sum of doubles, rounded once: the same bits whatever the order of the terms and however
// they are split between threads or ranks (a sum over the bodies of a decomposed domain, each rank
// adding its own: issue "Beyond one machine", docs/mpi.md). A floating-point sum rounds after every
// addition, so its bits depend on the order; this one keeps every term's bits.
//
// Every finite double is an integer multiple of 2^-1074 (the smallest subnormal) below 2^1024, a
// number of at most 2098 bits. The accumulator holds that integer in limbs of 32 bits each, stored
// in signed 64-bit words ("carry-save", as Neal's superaccumulator and ExBLAS's long accumulator):
// a term adds its 53-bit significand, shifted to its place, to three consecutive words without
// carrying, and the carries are propagated only every 2^30 terms and before reading. Limb i weighs
// 2^(32 i - 1074); the words after the 2098 bits leave room for the carries of 2^60 terms of 2^1023.
// The words of two accumulators add word by word (merge), so partial sums from threads or ranks
// combine in any order to the same integer (MPI_SUM over the words: mpi/).
//
// value() rounds the exact sum to the nearest double, ties to even (IEEE 754's default, as one
// correctly rounded addition would); a sum beyond the largest double is +-infinity. Terms that are
// NaN, or infinities of both signs, make the sum NaN; infinities of one sign make it that infinity.

#include <array>
#include <cstdint>

namespace dem {

class ExactSum {
 public:
  static constexpr int kLimbBits = 32;
  static constexpr int kWords = 70;  // (2098 + 53 + 64 carry bits) / 32, rounded up
  // Terms added between carry propagations: each word then stays below 2^62 in magnitude.
  static constexpr std::uint32_t kTermsBeforeCarry = 1u << 30;

  void add(double x);
  ExactSum& operator+=(double x) {
    add(x);
    return *this;
  }
  // Adds another accumulator's exact sum (threads' or ranks' partial sums: any order, same bits).
  void merge(const ExactSum& other);
  // The exact sum rounded to the nearest double (ties to even).
  double value() const;

  // The words, for a reduction by word-wise integer addition (MPI_SUM over kWords int64 plus the
  // special-value flags): normalise() first, so that adding up to 2^30 such accumulators word by
  // word cannot overflow.
  void normalise();
  std::array<std::int64_t, kWords>& words() { return words_; }
  const std::array<std::int64_t, kWords>& words() const { return words_; }
  // NaN (bit 0), +inf (bit 1), -inf (bit 2) seen among the terms; combined by bitwise or.
  std::uint32_t& specials() { return specials_; }
  std::uint32_t specials() const { return specials_; }

 private:
  std::array<std::int64_t, kWords> words_{};
  std::uint32_t pending_ = 0;  // terms added since the last carry propagation
  std::uint32_t specials_ = 0;
};

}  // namespace dem
