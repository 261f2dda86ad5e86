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
// carrying, and the carries are propagated only every 2^30 terms and before reading. Terms of
// similar magnitude (most of a ledger's) go to a 128-bit window of the same integer held apart
// (about 1 ns a term against 3-5 through the words). Limb i weighs
// 2^(32 i - 1074); the words after the 2098 bits leave room for the carries of 2^60 terms of 2^1023.
// The words of two accumulators add word by word (merge), so partial sums from threads or ranks
// combine in any order to the same integer (MPI_SUM over the words: mpi/).
//
// value() rounds the exact sum to the nearest double, ties to even (IEEE 754's default, as one
// correctly rounded addition would); a sum beyond the largest double is +-infinity. Terms that are
// NaN, or infinities of both signs, make the sum NaN; infinities of one sign make it that infinity.

#include <array>
#include <bit>
#include <cstdint>

namespace dem {

class ExactSum {
 public:
  static constexpr int kLimbBits = 32;
  static constexpr int kWords = 70;  // (2098 + 53 + 64 carry bits) / 32, rounded up
  // Terms added between carry propagations: each word then stays below 2^62 in magnitude.
  static constexpr std::uint32_t kTermsBeforeCarry = 1u << 30;
  // specials(): NaN, +inf, -inf seen among the terms
  static constexpr std::uint32_t kNaNFlag = 1u, kPlusInfFlag = 2u, kMinusInfFlag = 4u;

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
  // The window: most terms of a sum have similar magnitudes, and those add into a 128-bit integer
  // (hi_, lo_) whose unit is limb window_'s (2^(32 window_ - 1074)), without touching the words;
  // a term with bits below the window goes to the words, one above it moves the window there
  // (anchor). The window joins the words at normalise().
  std::int64_t hi_ = 0;
  std::uint64_t lo_ = 0;
  int window_ = -1;  // -1: no window yet
  std::uint32_t pending_ = 0;  // terms added since the last carry propagation
  std::uint32_t specials_ = 0;

  void flushWindow();
  void anchor(int p);  // the window's unit a little below a term at bit p (the window flushed)
};

// (inline: the ledger adds a few terms per body and step)
inline void ExactSum::add(double x) {
  const auto bits = std::bit_cast<std::uint64_t>(x);
  const bool negative = (bits >> 63) != 0;
  const auto biased = static_cast<int>((bits >> 52) & 0x7FF);
  const std::uint64_t fraction = bits & ((std::uint64_t{1} << 52) - 1);
  if (biased == 0x7FF) {
    specials_ |= fraction != 0 ? kNaNFlag : negative ? kMinusInfFlag : kPlusInfFlag;
    return;
  }
  // x = m 2^(p - 1074): a subnormal has m = fraction and p = 0, a normal number the hidden bit and
  // p = biased exponent - 1
  const std::uint64_t m = biased == 0 ? fraction : fraction | (std::uint64_t{1} << 52);
  if (m == 0) return;
  const int p = biased == 0 ? 0 : biased - 1;
  if (window_ < 0 || p + 53 > kLimbBits * window_ + 96) anchor(p);  // (a term above the window)
  const int shift = p - kLimbBits * window_;
  if (shift >= 0) {
    // into the 128-bit window, as a two's complement integer (hi, lo): m 2^shift < 2^96
    const std::uint64_t low = m << shift, high = shift == 0 ? 0 : m >> (64 - shift);
    // (without branches on the sign: a negative term as the two's complement of (high, low))
    const std::uint64_t mask = negative ? ~std::uint64_t{0} : 0;
    const std::uint64_t l = (low ^ mask) - mask;
    const std::uint64_t h = (high ^ mask) + (mask & (low == 0 ? 1u : 0u));
    lo_ += l;
    hi_ = static_cast<std::int64_t>(static_cast<std::uint64_t>(hi_) + h + (lo_ < l ? 1u : 0u));
  } else {
    // below the window: into the words (three limbs from p / 32)
    const auto limb = static_cast<std::size_t>(p / kLimbBits);
    const int at = p % kLimbBits;
    const std::uint64_t low = m << at, high = at == 0 ? 0 : m >> (64 - at);
    const std::int64_t sign = negative ? -1 : 1;
    words_[limb] += sign * static_cast<std::int64_t>(low & 0xFFFFFFFFu);
    words_[limb + 1] += sign * static_cast<std::int64_t>(low >> kLimbBits);
    words_[limb + 2] += sign * static_cast<std::int64_t>(high);
  }
  if (++pending_ == kTermsBeforeCarry) normalise();
}

}  // namespace dem
