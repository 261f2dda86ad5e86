#pragma once
// The contact stage of one step (architecture steps 3-4): for every potential contact, the shape
// pair's geometry (one switch on the contact type), the Cundall law, and the contact's force and
// torques stored on the contact; then every particle sums its own contacts in increasing contact
// index (ContactStore adjacency). Both loops run under OpenMP and give the same bits for any thread
// count: no floating-point sum depends on the schedule.

#include "contacts.hpp"
#include "particles.hpp"

#include <vector>

namespace dem {

struct ContactStageResult {
  double elastic = 0.0;     // energy stored in all contacts at t_n
  double dissipated = 0.0;  // Coulomb slip dissipation of this step
};

struct ContactScratch {
  std::vector<ContactStageResult> blocks;  // fixed-size block sums (deterministic reduction)
};

// Evaluates all contacts at t_n from on-step positions and mid-step velocities, and adds their
// forces and torques to p.force and p.torque.
ContactStageResult contactStage(Particles& p, ContactStore& contacts, double dt, ContactScratch& scratch);

}  // namespace dem
