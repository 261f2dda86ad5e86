#pragma once
// Contact (Love-Weber) stress of a periodic packing (Yade's getStress; verification theory section 4):
//   sigma = (1/V) sum_c F_c (x) l_c,   l_c = x2 + H cellDist - x1,
// F_c the force on particle 1 of real contact c (contacts.hpp), so that compression is negative
// (tension positive). V = |det H|. Sums in contact-index order (same bits for any thread count).

#include "cell.hpp"
#include "contacts.hpp"
#include "particles.hpp"

namespace dem {

// sum_c F_c (x) l_c (sigma V).
Mat3 contactStressSum(const Particles& p, const ContactStore& contacts, const Mat3& H);

inline Mat3 loveWeberStress(const Particles& p, const ContactStore& contacts, const Cell& cell) {
  return contactStressSum(p, contacts, cell.H()) / cell.volume();
}

}  // namespace dem
