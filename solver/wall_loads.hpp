#pragma once
// The load on each wall: the sum over its real contacts of the force the sphere exerts on it (the
// reaction -F of the contact force F on the sphere) and of its moment about the wall's point,
// (c - x_wall) x (-F), c the contact point. Forces of the last step's contact stage (t_n = time -
// dt). Sums run serially in contact order (the collider's, the same for any number of threads).
// In a periodic cell (H: the cell's; nullptr without) a contact with cellDist k touches the image
// of the wall or facet shifted by H k: its contact point is taken back by -H k onto the body itself
// for the moment's arm.

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
std::vector<WallLoad> wallLoads(const Particles& p, const ContactStore& contacts, const Mat3* H = nullptr);

// The load on each mesh wall: the reaction -F of its facets' real contacts and its moment about the
// mesh's rotation centre at time t (MeshMotion: c + v (t - t0)), (c_k - centre) x (-F).
struct MeshLoad {
  std::size_t mesh = 0;  // index into Particles::meshes
  Vec3 force = Vec3::Zero();
  Vec3 torque = Vec3::Zero();
};
// One entry per mesh, in mesh order.
std::vector<MeshLoad> meshLoads(const Particles& p, const ContactStore& contacts, double t, const Mat3* H = nullptr);

// The power of those loads on the moving meshes at time t: each contact's reaction times the rigid
// motion's velocity at its point c_k, v_m + w_m x (c_k - centre) (in a cell, of the mesh's image
// through the contact: centre + H k, velocity + V k; shift as the contact stage's); 0 when no mesh
// moves. With `shared` (a rank's scene of a distributed one, shared_sums.hpp): the exact sum over the
// contacts of this rank's own spheres, combined over the ranks (collective).
struct PeriodicShift;
struct SharedSums;
double meshLoadPower(const Particles& p, const ContactStore& contacts, double t, const PeriodicShift* shift = nullptr,
                     const SharedSums* shared = nullptr);

}  // namespace dem
