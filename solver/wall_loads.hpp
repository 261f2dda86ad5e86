#pragma once
// The load on each wall: the sum over its real contacts of the force the sphere exerts on it (the
// reaction -F of the contact force F on the sphere) and of its moment about the wall's point,
// (c - x_wall) x (-F), c the contact point. Forces of the last step's contact stage (t_n = time -
// dt). Sums run serially in contact order (the collider's, the same for any number of threads).

#include "contacts.hpp"
#include "particles.hpp"

#include <vector>

namespace dem {

struct WallLoad {
  std::size_t id = 0;  // the wall's particle id
  Vec3 force = Vec3::Zero();
  Vec3 torque = Vec3::Zero();
};

// One entry per wall, in increasing particle id.
std::vector<WallLoad> wallLoads(const Particles& p, const ContactStore& contacts);

}  // namespace dem
