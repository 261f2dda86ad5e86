#pragma once
// Critical timestep estimators (seed "Critical timestep"; verification theory, sections 2.4-2.5).
//
//   p-wave          dt_p = min_i R_i sqrt(rho_i / E_i)  over spheres (rho, E of the sphere's material)
//   global stiffness per body b (a free sphere, or a clump body collecting its members' contacts),
//                   summed over the contacts in which it takes part (real, or overlapping now), the
//                   body's 6x6 block of the stiffness on (displacement, rotation) (BodyStiffness):
//                     translation  K_tt = sum K_c,  K_c = kn n n^T + ks (I - n n^T)      seed (Chareyre)
//                     rotation     K_rr = sum [r]x^T K_c [r]x
//                                       = sum ks (|r|^2 I - r r^T) + (kn - ks) (n x r)(n x r)^T
//                     coupling     K_tr = sum -K_c [r]x
//                     with r = c - x_b the arm from the body's centre to the contact point, and
//                     lambda_b = lambda_max(M_b^-1/2 K_b M_b^-1/2), M_b = diag(m_b I, J_b),
//                     dt_cr = min over bodies of sqrt(2 / lambda_b)        seed eq. (eq-dtcr-global)
//                   J_b is the space-frame inertia tensor. Blocked axes (walls, prescribed DOFs)
//                   carry no mode: their rows and columns are dropped. The seed takes the diagonal
//                   terms and treats translation and rotation as uncoupled; both can overestimate
//                   the limit: the diagonal is too small for an oblique contact (n = (1,1,1)/sqrt 3,
//                   ks = 0: K_ww = kn/3, sqrt(3) times the true dt), and without K_tr a free pair with
//                   ks/kn > 2/7 (every Hertz-Mindlin contact) is estimated 1.183 times too large
//                   (verification theory 2, section 8: its tangential mode moves displacement and
//                   rotation together, omega_t^2 = ks (1/m + r^2/I) per body).
//                   Why it is a bound: a contact's stiffness on both bodies' coordinates is
//                   B^T K_c B with B = [B_1, B_2] (the contact point's motion with each body), and
//                   (B_1 y_1 + B_2 y_2)^T K_c (B_1 y_1 + B_2 y_2) <= 2 sum_i (B_i y_i)^T K_c (B_i y_i):
//                   the whole K is at most 2 diag(K_b), so omega_max^2 <= 2 max_b lambda_b and
//                   2/omega_max >= sqrt(2/lambda_b) (undamped). The factor 2 is reached by two equal
//                   free bodies moving against each other; a body on a fixed wall gets 1/sqrt 2 of
//                   its true limit.
//                   Dashpots (a restitution below 1): a mode of frequency omega and damping c per
//                   unit mass (c = 2 zeta omega) is stable for omega dt < 2 (sqrt(1 + zeta^2) - zeta)
//                   (Jury; Belytschko, Liu & Moran 2000, 6.3), i.e. omega^2 dt^2 + 2 c dt <= 4. With
//                   the dashpot blocks C_b built as K_b (bodyDashpots) and kappa_b = lambda_max(
//                   M_b^-1/2 C_b M_b^-1/2), the same factor 2 and lambda_max(A + B) <= lambda_max(A) +
//                   lambda_max(B) give the sufficient condition (for modes the
//                   dashpots do not couple) 2 lambda_b dt^2 + 4 kappa_b dt <= 4:
//                     dt_b = 2 / (kappa_b + sqrt(kappa_b^2 + 2 lambda_b))
//                   (sqrt(2/lambda_b) without dashpots; for a single contact on a wall it is exact up
//                   to the wall's 1/sqrt 2). A tangential mode has the damping ratio
//                   cs/(2 sqrt(ks m_t)), 1/m_t = 1/m + r^2/I, larger than the normal one by
//                   sqrt(m*/m_t) (1.87 for a sphere on a wall): the normal ratio alone would
//                   overestimate the limit whenever the tangential mode governs.
//                   Without any contact the seed's omega_max would be 0: the estimate falls back
//                   to the p-wave value (fromContacts = false).
//
// Accuracy (verification theory 2.4-2.5, theory 2 section 8): exact for two equal free spheres and
// for the interior of a uniform chain, a lower bound for a 1D chain (Gershgorin), and for one sphere
// on a fixed sphere or wall (whose partner does not move) 1/sqrt(2) of the true limit.

#include "contact_law.hpp"
#include "contacts.hpp"
#include "materials.hpp"
#include "particles.hpp"

#include <cstddef>
#include <limits>
#include <vector>

namespace dem {

struct SharedSums;

struct TimestepEstimate {
  static constexpr std::size_t npos = static_cast<std::size_t>(-1);
  double dt = std::numeric_limits<double>::infinity();  // inf: nothing to estimate from
  std::size_t particle = npos;                          // the body (or sphere, for the p-wave value) that sets dt
  bool rotational = false;                              // the limiting mode is a rotation of that body
  bool fromContacts = false;                            // false: the p-wave value
};

// One body's 6x6 block of the contacts' stiffness (N/m, N/rad, N m/rad) or dashpot matrix (the same
// with N s/m ...), space frame, on (displacement, rotation): [[translation, coupling],
// [coupling^T, rotation]]. A contact of matrix K_c (K_c = kn n n^T + ks (I - n n^T)) whose point
// is at arm r from the body's centre moves with the body's displacement x and rotation theta as
// x + theta x r = x - [r]x theta: it adds K_c, -K_c [r]x and [r]x^T K_c [r]x.
struct BodyStiffness {
  Mat3 translation = Mat3::Zero();
  Mat3 rotation = Mat3::Zero();
  Mat3 coupling = Mat3::Zero();
};

// p-wave timestep over every sphere (clump members included; walls and clump bodies have no
// material volume). Throws std::invalid_argument naming a sphere whose material index is not valid
// or whose material has a non-positive density or modulus. No sphere: dt = inf. With `shared` (a
// rank's scene of a distributed one, shared_sums.hpp): over this rank's own spheres, then the
// minimum over the ranks (particle: npos where another rank's sphere sets it).
TimestepEstimate pWaveTimestep(const Particles& p, const std::vector<Material>& materials,
                               const SharedSums* shared = nullptr);

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
// for a pair that does not overlap), with the parameters of the mixing rule for their bodies'
// `materials` where a contact holds none (ContactStore's lean tier).
std::vector<BodyStiffness> bodyStiffness(const Particles& p, const ContactStore& contacts,
                                         const std::vector<Material>& materials,
                                         ContactSelection selection = ContactSelection::Touching,
                                         const Mat3* cellH = nullptr, ContactLaw law = ContactLaw::Cundall);
// The same blocks of the contacts' dashpots (cn n n^T + cs (I - n n^T), the law's coefficients at the
// overlap; zero without dashpots).
std::vector<BodyStiffness> bodyDashpots(const Particles& p, const ContactStore& contacts,
                                        const std::vector<Material>& materials,
                                        ContactSelection selection = ContactSelection::Touching,
                                        const Mat3* cellH = nullptr, ContactLaw law = ContactLaw::Cundall);

// Global-stiffness estimate (above, with the dashpots' condition when the contacts have dashpots), or
// the p-wave value when no body has a contact. With `shared` (a rank's scene of a distributed one):
// each rank's estimate over its own bodies, whose blocks are complete there (the rank holds every
// contact of its bodies, each summed in the order of the pairs' user ids as alone), then the
// minimum over the ranks: the same bits for any number of ranks. Collective then: every rank calls it.
TimestepEstimate globalStiffnessTimestep(const Particles& p, const ContactStore& contacts,
                                         const std::vector<Material>& materials,
                                         ContactSelection selection = ContactSelection::Touching,
                                         const Mat3* cellH = nullptr, ContactLaw law = ContactLaw::Cundall,
                                         const SharedSums* shared = nullptr);

}  // namespace dem
