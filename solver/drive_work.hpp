#pragma once
// The work of the drives of blocked axes (walls and bodies moving at a prescribed velocity), the
// blocked axes' share of the energy ledger's boundary work (energy.hpp; the moving meshes' share:
// meshLoadPower, wall_loads.hpp).
//
// A drive holds on each blocked axis of its body the force H = F - m g (and the torque T) that the
// contacts (and external forces) exert there. Over the step from t_n-1 to t_n it does the work
//   W_n = -(H_n-1 + H_n)/2 . v dt - (T_n-1 + T_n)/2 . w dt             (blocked axes only)
// with v, w the velocities the body holds at the start of step n: by the leapfrog's convention
// v_n-1/2, and what the contact law integrates the tangential displacement with over that step
// (contact_kernel.hpp, u_T += v_r dt), so that the ledger books what the springs are given also
// when a program changes a drive's velocity between steps. It is booked in two halves within step
// n: at its start (p.force and p.torque still hold F_n-1, T_n-1) and after its contact stage (F_n,
// T_n). The bodies are those with a blocked axis at a non-zero velocity at the start of step n
// (Particles::isDriven) that have been integrated before, clump members excepted.

#include "particles.hpp"
#include "shared_sums.hpp"

#include <cstdint>
#include <vector>

namespace dem {

class ContactStore;

// With shared sums (a rank of a distributed scene, shared_sums.hpp) the work is summed exactly over
// the rank's own bodies and combined over the ranks: a driven sphere's from its force (complete on
// the rank that owns it), a driven wall's from its contacts' reactions (a wall is on every rank, its
// contacts on the ranks of their spheres): -(-f_c . v + t2_c . w) dt/2 for each real contact c of
// a sphere the rank owns (the wall's H without its field, which a wall's H does not hold).
class DriveWork {
 public:
  // At the start of step n: the half of the work over the step that ended at the last step's
  // forces. Returns the work to add to the ledger.
  double begin(const Particles& p, const Vec3& gravity, double dt, const SharedSums* shared = nullptr,
               const ContactStore* contacts = nullptr);
  // After the contact stage of step n (p.force and p.torque hold F_n, T_n): the half at F_n.
  double end(const Particles& p, const Vec3& gravity, double dt, const SharedSums* shared = nullptr,
             const ContactStore* contacts = nullptr) const;

 private:
  std::vector<std::uint32_t> driven_;  // the bodies of this step (begin)
  double work(const Particles& p, const Vec3& gravity, double dt, const SharedSums* shared,
              const ContactStore* contacts) const;
};

}  // namespace dem
