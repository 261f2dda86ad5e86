#pragma once
// Clumps: rigid aggregates of spheres (seed: Yade "Clumps (rigid aggregates)").
//
// A clump is an extra particle (the clump body, Particles::isClump = 1) that carries the mass, the
// centroid and the principal inertia of its members; it has no shape and never collides. Members are
// ordinary spheres flagged with the clump body's id (Particles::clump); they take part in collision
// detection but never contact each other (Particles::mayContact), and they are not integrated:
//   1. aggregate: F_c += sum F_i, T_c += sum (r_i x F_i + T_i), r_i = x_i - x_c  (seed: clumps);
//   2. the clump body is integrated like any particle (aspherical rotation when its principal moments
//      differ, solver/rotation.hpp);
//   3. place members: x_i = x_c + R(q_c) r_i^b, q_i = q_c q_i^b (body-frame positions/orientations
//      stored at creation), v_i = v_c + w_c x (x_i - x_c), w_i = w_c (Yade's Clump::moveMembers).
// Members feel no gravity of their own (Scene::applyFields): the clump body carries m_c g.
//
// Mass properties at creation:
//   non-overlapping members: m_c = sum m_i, x_c = sum m_i x_i / m_c, and the parallel-axis theorem
//     in tensor form, I_c = sum R_i diag(I_i) R_i^T + m_i (|d_i|^2 E - d_i d_i^T), d_i = x_i - x_c;
//   overlapping members: a regular grid of cubic cells of side h over the clump's axis-aligned box;
//     a cell whose centre lies inside a member belongs to the clump with that member's density
//     (the first member containing it); m_c, x_c and I_c are summed over the cells, each with its
//     own inertia m_j h^2/6 E (seed: "I_c = sum (m_j d_j^2 + I_j)").
// Principal axes: Eigen::SelfAdjointEigenSolver of I_c; the clump's orientation q_c is the rotation
// whose columns are the eigenvectors (right-handed), so members keep their global positions.

#include "particles.hpp"

#include <cstdint>
#include <vector>

namespace dem {

enum class ClumpInertiaMethod : std::uint8_t {
  Auto,          // parallel axis when no two members overlap, the grid otherwise
  ParallelAxis,  // members must not overlap
  Grid,
};

struct ClumpOptions {
  ClumpInertiaMethod method = ClumpInertiaMethod::Auto;
  double gridSpacing = 0.0;  // cell side h for the grid; 0: (smallest member radius) / 20
  Vec3 gridOffset = Vec3::Zero();  // shift of the cell centres, in units of h (each in [-0.5, 0.5])
};

struct MassProperties {
  double mass = 0.0;
  Vec3 centroid = Vec3::Zero();
  Mat3 inertia = Mat3::Zero();  // about the centroid, space axes
};

// Mass properties of the members, by the parallel-axis theorem (non-overlapping members).
MassProperties clumpMassParallelAxis(const Particles& p, const std::vector<std::size_t>& members);
// Mass properties of the union of the member spheres on a regular grid of spacing h.
// The cell centres are symmetric about the centre of the members' box, shifted by offset * h.
MassProperties clumpMassGrid(const Particles& p, const std::vector<std::size_t>& members, double h,
                             const Vec3& offset = Vec3::Zero());
// Whether any two members overlap (|x_i - x_j| < r_i + r_j).
bool membersOverlap(const Particles& p, const std::vector<std::size_t>& members);

struct Clump {
  std::size_t body = 0;              // particle id of the clump body
  std::vector<std::size_t> members;  // particle ids
  std::vector<Vec3> relPos;          // member centre in the clump's principal frame
  std::vector<Quat> relOri;          // member orientation relative to the clump's
};

// Places one clump's members from its body's state (step 3 above).
void placeClumpMembers(Particles& p, const Clump& c);

struct Clumps {
  std::vector<Clump> list;

  // Makes a clump of existing particles: validates (throws std::invalid_argument: empty list,
  // unknown or repeated id, a particle already in a clump or a clump body, non-positive or
  // non-finite grid spacing or resulting inertia), appends the clump body to p with the members'
  // mass, centroid, principal inertia and orientation, and the velocity and angular velocity of the
  // members' total momentum and angular momentum; returns the clump body's id.
  std::size_t add(Particles& p, const std::vector<std::size_t>& members, const ClumpOptions& options = {});

  // Sets the initial (on-step) velocity and angular velocity (global axes) of the clump whose body
  // is `body`, before its first step: its angular momentum I_c w (I_c = R diag(I) R^T), and the
  // members' rigid motion v_i = v + w x (x_i - x_c), w_i = w. Throws std::invalid_argument for a
  // particle that is not a clump body, a clump already integrated, or a non-finite value.
  void setMotion(Particles& p, std::size_t body, const Vec3& vel, const Vec3& angVel) const;

  // Step 1: adds the members' forces and torques to their clump bodies.
  void aggregate(Particles& p) const;
  // Step 3: places the members rigidly from their clump bodies' state.
  void placeMembers(Particles& p) const;
};

}  // namespace dem
