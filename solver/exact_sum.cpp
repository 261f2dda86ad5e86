#include "exact_sum.hpp"

#include <algorithm>
#include <bit>
#include <cmath>
#include <limits>

namespace dem {

namespace {

constexpr int kMinExponent = -1074;  // weight of bit 0: the smallest subnormal, 2^-1074

// Carries every word's bits above the limb into the next word: words 0 .. kWords-2 in [0, 2^32),
// the last one signed.
void carry(std::array<std::int64_t, ExactSum::kWords>& w) {
  for (std::size_t i = 0; i + 1 < w.size(); ++i) {
    const std::int64_t c = w[i] >> ExactSum::kLimbBits;  // floor(w / 2^32) (arithmetic shift)
    w[i] -= c * (std::int64_t{1} << ExactSum::kLimbBits);
    w[i + 1] += c;
  }
}

}  // namespace

void ExactSum::flushWindow() {
  if (window_ < 0) return;
  // hi 2^64 + lo, in limbs from window_: the lower three unsigned, the top one signed
  const auto w = static_cast<std::size_t>(window_);
  words_[w] += static_cast<std::int64_t>(lo_ & 0xFFFFFFFFu);
  words_[w + 1] += static_cast<std::int64_t>(lo_ >> kLimbBits);
  words_[w + 2] += static_cast<std::int64_t>(static_cast<std::uint64_t>(hi_) & 0xFFFFFFFFu);
  words_[w + 3] += hi_ >> kLimbBits;  // (arithmetic shift: floor)
  hi_ = 0;
  lo_ = 0;
}

void ExactSum::anchor(int p) {
  flushWindow();
  carry(words_);  // (the words take the window's sum: room for more)
  pending_ = 0;
  // the term's top bit (p + 53) about 32 bits below the window's top (32 (window + 3) + 32): room for
  // 2^31 such terms before the 128 bits overflow
  window_ = std::clamp((p + 53) / kLimbBits - 2, 0, kWords - 4);
}

void ExactSum::normalise() {
  flushWindow();
  carry(words_);
  pending_ = 0;
}

void ExactSum::merge(const ExactSum& other) {
  ExactSum o = other;
  o.normalise();
  normalise();
  for (std::size_t i = 0; i < words_.size(); ++i) words_[i] += o.words_[i];
  pending_ = 2;  // (each word below 2^33 in magnitude: as after two terms)
  specials_ |= o.specials_;
}

double ExactSum::value() const {
  if ((specials_ & kNaNFlag) || ((specials_ & kPlusInfFlag) && (specials_ & kMinusInfFlag)))
    return std::numeric_limits<double>::quiet_NaN();
  if (specials_ & kPlusInfFlag) return std::numeric_limits<double>::infinity();
  if (specials_ & kMinusInfFlag) return -std::numeric_limits<double>::infinity();
  ExactSum all = *this;
  all.flushWindow();
  std::array<std::int64_t, kWords> w = all.words_;
  carry(w);
  const bool negative = w.back() < 0;
  if (negative) {  // the magnitude: every word negated is the negated integer, carried again
    for (std::int64_t& x : w) x = -x;
    carry(w);
  }
  int top = kWords - 1;
  while (top >= 0 && w[static_cast<std::size_t>(top)] == 0) --top;
  if (top < 0) return 0.0;
  const auto limb = [&](int i) { return i < 0 ? std::uint64_t{0} : static_cast<std::uint64_t>(w[static_cast<std::size_t>(i)]); };
  // the integer V = sum limb_i 2^(32 i); the sum is V 2^-1074. Its bit length:
  const int length = kLimbBits * top + (kLimbBits - std::countl_zero(static_cast<std::uint32_t>(limb(top))));
  double magnitude;
  if (length <= 53) {
    // below 2^53: exactly a double (subnormal or normal), V from the two lowest limbs
    magnitude = std::ldexp(static_cast<double>(limb(0) | (limb(1) << kLimbBits)), kMinExponent);
  } else {
    // the top 64 bits of V as a window (its top bit set), the 53 kept, the round bit and below
    const int k = kLimbBits - std::countl_zero(static_cast<std::uint32_t>(limb(top)));  // bits in the top limb
    const std::uint64_t third = limb(top - 2);
    const std::uint64_t window = (((limb(top) << kLimbBits) | limb(top - 1)) << (kLimbBits - k)) | (third >> k);
    bool sticky = (third & ((std::uint64_t{1} << k) - 1)) != 0;  // any bit below the window
    for (int i = 0; i < top - 2; ++i) sticky = sticky || w[static_cast<std::size_t>(i)] != 0;
    std::uint64_t m = window >> 11;
    const std::uint64_t rest = window & 0x7FFu, half = 0x400u;
    if (rest > half || (rest == half && (sticky || (m & 1u)))) ++m;  // to nearest, ties to even
    // (m = 2^53 after rounding up is still exact in a double: ldexp scales it; the window's lowest
    // bit weighs 2^(32 (top - 2) + k) in units of 2^-1074)
    magnitude = std::ldexp(static_cast<double>(m), 11 + kLimbBits * (top - 2) + k + kMinExponent);
  }
  return negative ? -magnitude : magnitude;
}

}  // namespace dem
