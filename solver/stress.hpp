#pragma once
// Contact (Love-Weber) stress of a periodic packing (Yade's getStress; verification theory section 4):
//   sigma = (1/V) sum_c F_c (x) l_c,   l_c = x2 + H cellDist - x1,
// F_c the force on particle 1 of real contact c (contacts.hpp), so that compression is negative
// (tension positive). V = |det H|. The contact stage sums it (contact_loop.hpp: per body and over the
// bodies in the order of user ids, the same bits for any thread count and storage order) from the branch vectors it stages.

#include "math.hpp"

#include <array>

namespace dem {

// S += F (x) l: contact c's share of sigma V, S_rc += F_r l_c (S as its nine entries, row by row, so
// that a sum over contacts keeps them in registers).
inline void addContactStress(std::array<double, 9>& S, const Vec3& force, const Vec3& branch) {
  for (int r = 0; r < 3; ++r)
    for (int c = 0; c < 3; ++c) S[static_cast<std::size_t>(3 * r + c)] += force[r] * branch[c];
}

}  // namespace dem
