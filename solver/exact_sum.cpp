#include "exact_sum.hpp"

#include <bit>
#include <cmath>
#include <limits>

namespace dem {

namespace {

constexpr std::uint64_t kLimbMask = 0xFFFFFFFFu;
constexpr std::uint32_t kNaN = 1u, kPlusInf = 2u, kMinusInf = 4u;
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

void ExactSum::add(double x) {
  const auto bits = std::bit_cast<std::uint64_t>(x);
  const bool negative = (bits >> 63) != 0;
  const auto biased = static_cast<int>((bits >> 52) & 0x7FF);
  const std::uint64_t fraction = bits & ((std::uint64_t{1} << 52) - 1);
  if (biased == 0x7FF) {
    specials_ |= fraction != 0 ? kNaN : negative ? kMinusInf : kPlusInf;
    return;
  }
  // x = m 2^(p - 1074): a subnormal has m = fraction and p = 0, a normal number the hidden bit and
  // p = biased exponent - 1
  const std::uint64_t m = biased == 0 ? fraction : fraction | (std::uint64_t{1} << 52);
  if (m == 0) return;
  const int p = biased == 0 ? 0 : biased - 1;
  const auto limb = static_cast<std::size_t>(p / kLimbBits);
  const int shift = p % kLimbBits;
  const std::uint64_t low = m << shift;                        // the bits of m 2^shift below 2^64
  const std::uint64_t high = shift == 0 ? 0 : m >> (64 - shift);  // and above (m 2^shift < 2^85)
  const auto c0 = static_cast<std::int64_t>(low & kLimbMask);
  const auto c1 = static_cast<std::int64_t>(low >> kLimbBits);
  const auto c2 = static_cast<std::int64_t>(high);
  if (negative) {
    words_[limb] -= c0;
    words_[limb + 1] -= c1;
    words_[limb + 2] -= c2;
  } else {
    words_[limb] += c0;
    words_[limb + 1] += c1;
    words_[limb + 2] += c2;
  }
  if (++pending_ == kTermsBeforeCarry) normalise();
}

void ExactSum::normalise() {
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
  if ((specials_ & kNaN) || ((specials_ & kPlusInf) && (specials_ & kMinusInf)))
    return std::numeric_limits<double>::quiet_NaN();
  if (specials_ & kPlusInf) return std::numeric_limits<double>::infinity();
  if (specials_ & kMinusInf) return -std::numeric_limits<double>::infinity();
  std::array<std::int64_t, kWords> w = words_;
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
