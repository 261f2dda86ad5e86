#pragma once
// The contact stage of one step (architecture steps 3-4): for every potential contact that was
// real at the last step or may touch now, the contact kernel (contact_kernel.hpp: the shape pair's
// geometry, the history update, the law chosen once for the stage) in batches of lanes, and the
// contact's force and torques stored on the contact; then every particle sums its own contacts in
// increasing contact index (ContactStore adjacency). Both loops run under OpenMP and give the same bits for any thread
// count: no floating-point sum depends on the schedule. With one thread the forces are added while
// the contacts are evaluated, in the same order (no second pass over the contacts).

#include "contact_geometry.hpp"
#include "contact_law.hpp"
#include "contacts.hpp"
#include "facet_contacts.hpp"
#include "particles.hpp"

#include <vector>

namespace dem {

struct ContactStageResult {
  double elastic = 0.0;           // energy stored in all contacts at t_n
  double dissipated = 0.0;        // Coulomb slip dissipation of this step
  double viscous = 0.0;           // the dashpots' dissipation of this step
  double spring = 0.0;            // energy taken from shear springs by stiffness changes (contact_law.hpp)
  Mat3 stressSum = Mat3::Zero();  // with a cell: sum of F (x) l over the real contacts (stress.hpp)
  bool realChanged = false;       // some contact formed or separated (noted in the ContactStore)
};

// A contact's force on particle 1 and its torques (Contact::force, torque1, torque2).
struct ContactLoad {
  Vec3 force, torque1, torque2;
};

struct ContactScratch {
  std::vector<ContactStageResult> blocks;           // fixed-size block sums (deterministic reduction)
  std::vector<ContactLoad> loads;                   // per-contact copies for the gather (several threads)
  std::vector<std::vector<std::uint32_t>> changed;  // per block: contacts that formed or separated
  FacetContactScratch facets;                       // mesh walls (facet_contacts.hpp)
  std::vector<std::uint8_t> visit;                  // ContactStore::gatherVisited's flags
};

// Evaluates all contacts at t_n from on-step positions and mid-step velocities, and adds their
// forces and torques to p.force and p.torque, with the contact law `law`. shift: the periodic
// cell's image shift (contact_geometry.hpp), or nullptr. The contacts that formed or separated are
// noted in `contacts` (ContactStore::noteRealChanged, for its next gatherReal). dashpots: false when no contact has
// dashpots (every material's restitution is 1, Scene::hasDashpots): the stage then runs without
// their terms (the same results up to the sign of zeros; the dashpot columns are left as they are).
// With a cell (shift) the result also holds the Love-Weber stress sum (stress.hpp), summed in
// contact order within fixed blocks and the blocks in order (the same bits for any thread count).
ContactStageResult contactStage(Particles& p, ContactStore& contacts, double dt, ContactScratch& scratch,
                                ContactLaw law = ContactLaw::Cundall, const PeriodicShift* shift = nullptr,
                                bool dashpots = true);

}  // namespace dem
