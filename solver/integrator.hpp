#pragma once
// Leapfrog motion integration (seed "Motion integration", Woo's Leapfrog):
//   translation   v(t+dt/2) = v(t-dt/2) + a dt ; x(t+dt) = x(t) + v(t+dt/2) dt      seed eq. (28)
//   rotation      w(t+dt/2) = w(t-dt/2) + T/I11 dt ; q(t+dt) = Quaternion(w dt) q(t) (spherical nodes)
//   first step    with adjVel0 the stored velocity is on-step: v(dt/2) = v(0) + a dt/2
//   damping       a_w *= 1 - lambda sgn(F_w (v_w(t-dt/2) + a_w dt/2))               seed eq. (34)
//   blocked DOFs  zero acceleration on blocked global axes (velocity stays prescribed).
//   clumps        members are skipped (their clump body is integrated, solver/clump.hpp)
//   aspherical    bodies with unequal principal moments rotate by Euler's equations with the
//                 scene's RotationAlgorithm (solver/rotation.hpp); torque damped as in Yade.
//   homoDeform    in a periodic deforming cell (solver/cell.hpp, `homo` non-null) the linear velocity
//                 follows the seed's "Motion in uniformly deforming space" update with the per-step
//                 matrices of HomoDeform, and spherical bodies' angular velocity gains the change of
//                 the medium spin w_L; damping acts on the fluctuation velocities (v - L_{n-1/2} x_n,
//                 w - w_L, Woo's pprevFluctVel), and the ledger's kinetic energies are those of the
//                 fluctuations at t_n (v_n - L_n x_n, w_n - w_L). Aspherical bodies rotate with W
//                 treated as zero (seed's warning). Blocked axes keep their prescribed velocity.

#include "cell.hpp"
#include "energy.hpp"
#include "particles.hpp"
#include "rotation.hpp"
#include "shared_sums.hpp"
#include "team.hpp"

#include <vector>

namespace dem {

struct IntegratorSettings {
  double damping = 0.0;  // Cundall numerical damping coefficient lambda_d, in [0, 1)
  bool adjVel0 = true;   // first-step adjustment (Woo's Leapfrog.adjVel0)
  // Whether Cundall damping acts on gravity too (Yade's NewtonIntegrator.dampGravity, default true);
  // false: only the other forces (contacts, external) are damped, a free body falls at exactly g.
  bool dampGravity = true;
  RotationAlgorithm rotation = RotationAlgorithm::FinchamAT;  // aspherical bodies only
};

// Each body's energy terms at t_n (scratch.terms, by slot), summed in the order of user ids in
// blocks of a fixed size (kEnergyBlock ids) and the blocks in order, so that the ledger's sums are
// the same bits for any number of threads and any storage order of the bodies.
// The same pass also reports, for the runaway check (runaway.hpp), the first particle whose new
// state is not finite and the particle with the largest on-step kinetic energy.
struct IntegratorScratch {
  static constexpr std::size_t npos = static_cast<std::size_t>(-1);
  struct Terms {
    double kinetic = 0.0, rotational = 0.0, gravity = 0.0, dampingNow = 0.0, dampingPending = 0.0;
    double kineticTotal = 0.0;  // deforming cell: total on-step velocities
    bool nonFinite = false;
  };
  struct Sums {
    double kinetic = 0.0, rotational = 0.0, gravity = 0.0, dampingNow = 0.0, dampingPending = 0.0;
    double kineticTotal = 0.0;
    double maxKinetic = -1.0;
    std::size_t fastest = npos, firstNonFinite = npos;
  };
  std::vector<Terms> terms;
  std::vector<Sums> blocks;
  std::size_t fastest = npos;         // slot of the largest m |v_n|^2 + w_n . I w_n, lowest user id on ties
  std::size_t firstNonFinite = npos;  // slot of the lowest user id with a non-finite position or velocity, or npos
  BalancedRuns runs;                  // the threads' runs of bodies (integrate)
  // Where a thread's run begins inside a block: its bodies' terms, added to the block's sums after
  // the part before it (team.hpp, RunHeads).
  RunHeads<std::vector<Terms>> heads;
};

inline constexpr std::size_t kEnergyBlock = 1024;

// Advances every particle by one step from the forces and torques already accumulated in p.force
// and p.torque (gravity included), and fills the ledger's kinetic, gravity and damping terms at t_n.
// homo: the homogeneous-deformation terms of this step, or nullptr (no cell, or homoDeform off).
// shared: the ledger's terms summed over this rank's bodies and combined over the ranks (shared_sums.hpp).
void integrate(Particles& p, const Vec3& gravity, double dt, const IntegratorSettings& settings, EnergyLedger& ledger,
               IntegratorScratch& scratch, const HomoDeform* homo = nullptr, const SharedSums* shared = nullptr);

}  // namespace dem
