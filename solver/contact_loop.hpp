#pragma once
// The contact stage of one step (architecture steps 3-4): for every potential contact, the shape
// pair's geometry (one switch on the contact type), the Cundall law, and the contact's force and
// torques stored on the contact; then every particle sums its own contacts in increasing contact
// index (ContactStore adjacency). Both loops run under OpenMP and give the same bits for any thread
// count: no floating-point sum depends on the schedule. With one thread the forces are added while
// the contacts are evaluated, in the same order (no second pass over the contacts).

#include "contacts.hpp"
#include "particles.hpp"

#include <vector>

namespace dem {

struct ContactStageResult {
  double elastic = 0.0;     // energy stored in all contacts at t_n
  double dissipated = 0.0;  // Coulomb slip dissipation of this step
};

// A contact's force on particle 1 and its torques (Contact::force, torque1, torque2).
struct ContactLoad {
  Vec3 force, torque1, torque2;
};

struct ContactScratch {
  std::vector<ContactStageResult> blocks;  // fixed-size block sums (deterministic reduction)
  std::vector<ContactLoad> loads;          // per-contact copies for the gather (several threads)
};

// Periodic cell: particle 2 of a contact with cellDist k enters as its image, position x2 + H k
// (seed "Collision detection in periodic cell") and mid-step velocity v2 + V k with
// V = L_{n-1/2} (H_n + H_{n-1})/2 = (H_n - H_{n-1})/dt, the velocity of the image point H k between
// t_n-1 and t_n (Woo's intrShiftVel; verification theory 4.3: image velocity v_j + L H k).
struct PeriodicShift {
  Mat3 H, vel;
};

// Evaluates all contacts at t_n from on-step positions and mid-step velocities, and adds their
// forces and torques to p.force and p.torque. shift: the periodic cell's image shift, or nullptr.
ContactStageResult contactStage(Particles& p, ContactStore& contacts, double dt, ContactScratch& scratch,
                                const PeriodicShift* shift = nullptr);

}  // namespace dem
