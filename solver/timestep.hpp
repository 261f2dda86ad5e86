#pragma once
// Critical timestep estimators (seed "Critical timestep"; verification theory, sections 2.4-2.5).
//
//   p-wave          dt_p = min_i R_i sqrt(rho_i / E_i)  over spheres (rho, E of the sphere's material)
//   global stiffness per body b (a free sphere, or a clump body collecting its members' contacts),
//                   summed over the contacts in which it takes part (real, or overlapping now):
//                     translation  K_b = sum kn n n^T + ks (I - n n^T)               seed (Chareyre)
//                     rotation     K_b,rot = sum [r]x^T (kn n n^T + ks (I - n n^T)) [r]x
//                                          = sum ks (|r|^2 I - r r^T) + (kn - ks) (n x r)(n x r)^T
//                     with r = c - x_b the arm from the body's centre to the contact point;
//                   translation and rotation are taken as uncoupled (as the seed does), and
//                     dt_cr = min over bodies of sqrt(2 / lambda_max(K_b) / m_b) and
//                             sqrt(2 / lambda_max(J_b^-1/2 K_b,rot J_b^-1/2))  seed eq. (eq-dtcr-global)
//                   J_b is the space-frame inertia tensor (I11 for a spherical body). Blocked axes
//                   (walls, prescribed DOFs) carry no mode: their rows and columns are dropped.
//                   The seed takes the diagonal terms K_ww / m instead of the largest eigenvalue;
//                   both agree when the contact normals are along the axes, but the diagonal depends
//                   on the frame and is too small for an oblique contact (n = (1,1,1)/sqrt 3,
//                   ks = 0: K_ww = kn/3 and the diagonal dt is sqrt(3) times the true one); the
//                   eigenvalue of the 3x3 block is frame-independent and costs one closed-form
//                   3x3 eigensolve per body.
//                   Without any contact the seed's omega_max would be 0: the estimate falls back
//                   to the p-wave value (fromContacts = false).
//
// Accuracy (verification theory 2.4-2.5): the factor 2 of sqrt(2 m/K) assumes every neighbour moves
// against the body. It is exact for two equal free spheres and for the interior of a uniform chain,
// a lower bound for a 1D chain (Gershgorin), and for one sphere on a fixed sphere or wall (whose
// partner does not move) it is 1/sqrt(2) of the true limit 2 sqrt(m/kn).

#include "contact_law.hpp"
#include "contacts.hpp"
#include "materials.hpp"
#include "particles.hpp"

#include <cstddef>
#include <limits>
#include <vector>

namespace dem {

struct TimestepEstimate {
  static constexpr std::size_t npos = static_cast<std::size_t>(-1);
  double dt = std::numeric_limits<double>::infinity();  // inf: nothing to estimate from
  std::size_t particle = npos;  // the body (or sphere, for the p-wave value) that sets dt
  bool rotational = false;      // the limiting mode is a rotation of that body
  bool fromContacts = false;    // false: the p-wave value
};

// Stiffness blocks of one body: translation (N/m) and rotation (N m/rad), space frame.
struct BodyStiffness {
  Mat3 translation = Mat3::Zero();
  Mat3 rotation = Mat3::Zero();
};

// p-wave timestep over every sphere (clump members included; walls and clump bodies have no
// material volume). Throws std::invalid_argument naming a sphere whose material index is not valid
// or whose material has a non-positive density or modulus. No sphere: dt = inf.
TimestepEstimate pWaveTimestep(const Particles& p, const std::vector<Material>& materials);

// Which contacts count: Touching = real, or overlapping at the current positions (the estimate of
// the state); Potential = every pair the collider holds (within the Verlet distance), those apart
// with the normal from the positions and the contact point on particle 1's surface - the stiffness
// the bodies will meet if they close in; used for the critical dt reported at a runaway, where the
// bodies have often just been thrown apart.
enum class ContactSelection { Touching, Potential };

// Per-body stiffness blocks (indexed by particle id; zero for walls, clump members and bodies
// without contacts). A contact counts when it is real (its stored normal and contact point are
// used; an arm that is not finite, e.g. after a runaway, adds no rotational term) or when its
// bodies overlap at the current positions (normal and contact point from the positions; this is
// how the estimate sees the contacts of a scene before its first step). cellH: in a periodic cell,
// its H; particle 2 of a contact then sits at its image x2 + H cellDist (positions and arms).
// The contacts' stiffnesses are their law's tangent stiffnesses at the overlap (Hertz-Mindlin: zero
// for a pair that does not overlap).
std::vector<BodyStiffness> bodyStiffness(const Particles& p, const ContactStore& contacts,
                                         ContactSelection selection = ContactSelection::Touching,
                                         const Mat3* cellH = nullptr, ContactLaw law = ContactLaw::Cundall);

// Global-stiffness estimate (above), or the p-wave value when no body has a contact. With dashpots
// (a restitution below 1) the estimate is multiplied by sqrt(1 + zeta^2) - zeta, zeta the largest
// damping ratio of the counted contacts: the leapfrog with a dashpot on the mid-step velocity
// v_{n-1/2} is stable for omega dt < 2 (sqrt(1 + zeta^2) - zeta) (the characteristic polynomial
// l^2 - (2 - 2 zeta h - h^2) l + 1 - 2 zeta h, h = omega dt, by Jury's test).
TimestepEstimate globalStiffnessTimestep(const Particles& p, const ContactStore& contacts,
                                         const std::vector<Material>& materials,
                                         ContactSelection selection = ContactSelection::Touching,
                                         const Mat3* cellH = nullptr, ContactLaw law = ContactLaw::Cundall);

}  // namespace dem
