#pragma once
// Mean coordination number of the bodies that can touch (spheres and bodies with a contact shape,
// clumps counting their members' contacts; not walls, not clump members): c_i is the number of
// real contacts of body i (a contact with a wall counts for the body only), N the number of bodies.
//   mean        Z = sum_i c_i / N
//   mechanical  Z_m = (sum_i c_i - N_1) / (N - N_0 - N_1), without the rattlers, the bodies with
//               fewer than 2 contacts (N_0 with none, N_1 with one): Thornton 2000, eq. (8), Yade's
//               avgNumInteractions(skipFree=True).
// Real contacts of the last step's contact stage (t_n = time - dt). NaN where the denominator is 0.

#include "contacts.hpp"
#include "particles.hpp"

namespace dem {

struct Coordination {
  double mean = 0.0;
  double mechanical = 0.0;
};

Coordination coordination(const Particles& p, const ContactStore& contacts);

}  // namespace dem
