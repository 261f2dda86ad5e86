#pragma once
// Contact (Love-Weber) stress of a periodic packing (Yade's getStress; verification theory section 4):
//   sigma = (1/V) sum_c F_c (x) l_c,   l_c = x2 + H cellDist - x1,
// F_c the force on particle 1 of real contact c (contacts.hpp), so that compression is negative
// (tension positive). V = |det H|. The contact stage sums it (contact_loop.hpp: in contact order
// within fixed blocks, the same bits for any thread count) from the branch vectors it stages.

#include "math.hpp"

namespace dem {

// S += F (x) l: contact c's share of sigma V.
inline void addContactStress(Mat3& S, const Vec3& force, const Vec3& branch) { S += force * branch.transpose(); }

}  // namespace dem
