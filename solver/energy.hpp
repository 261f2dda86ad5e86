#pragma once
// The energy ledger: every term that enters "total energy = constant".
//
// Time level. All terms refer to the on-step time t_n at which the most recent step evaluated its
// forces (ledger.time == scene.time - dt after a step). Kinetic energies use the on-step velocity
// estimate v_n = v(t_n - dt/2) + a_n dt/2 with the (damped) acceleration actually applied, which is
// second order; mixing the mid-step velocity with the on-step position would be first order
// (verification theory, sections 0.1 and 2.2). On a particle's first step with the first-step
// adjustment, v_n is the user's v(0) exactly.
//
// Work terms are cumulative from t_0 to t_n and use the trapezoidal rule over each step,
// W += (D_{n-1} + D_n)/2 . (x_n - x_{n-1}); with the leapfrog this makes
// kinetic + potential + dissipated constant up to the bounded term dt^2/(8m) |F_n|^2 (zero for
// constant forces, hence exact for free fall).
//
// Prescribed motions are outside the system the ledger describes: a blocked (prescribed-velocity)
// axis contributes neither kinetic energy nor gravitational potential, and a mesh wall
// (mesh_motion.hpp) has neither. What they do to the system is the work of the contacts' reactions
// on them, booked as boundaryWork (the work done on the system by the prescribed motions), so that
// the balance closes for driven scenes too.

#include <cstdint>

namespace dem {

struct EnergyLedger {
  double kinetic = 0.0;     // sum m |v_n|^2 / 2 over the axes that are not blocked
  double rotational = 0.0;  // sum omega_n . I omega_n / 2 (a spherical body: over its free axes)
  double gravity = 0.0;     // sum -m g . x_n over the axes that are not blocked (zero at the origin)
  double elastic = 0.0;     // energy stored in contact springs
  double dampingDissipated = 0.0;   // work removed by Cundall numerical damping, >= 0 in practice
  double frictionDissipated = 0.0;  // work dissipated by Coulomb sliding, >= 0
  double viscousDissipated = 0.0;   // work dissipated by the contact dashpots (trapezoid over each step), >= 0
  // Energy taken from shear springs by changes of their stiffness (Hertz-Mindlin's incremental spring
  // is not conservative, contact_law.hpp LawResult::spring); either sign; zero for Cundall.
  double springDissipated = 0.0;
  // Periodic deforming cell (Scene::cell): work done on the packing by the cell's deformation,
  // W = sum over steps of dt D_{n+1/2} : (S_n + S_{n+1})/2 with S = V sigma (Love-Weber, stress.hpp)
  // and D the symmetric part of L: the medium spin W = (L - L^T)/2 co-rotates the particles
  // (homoDeform) and does no work on the contacts (their relative velocity from the affine field
  // and the medium spin is D l). It enters the balance as an input:
  // kinetic + rotational + elastic + dissipated - cellWork = constant, where in a deforming cell
  // kinetic and rotational are the fluctuation energies (integrator.hpp).
  double cellWork = 0.0;
  // Work done on the system by prescribed motions (blocked axes driven at a velocity, moving mesh
  // walls): minus the work of the contacts' reactions on the driven bodies, by the trapezoid over
  // each step as the other work terms:
  //   blocked axes: -(H_n-1 + H_n)/2 . v dt - (T_n-1 + T_n)/2 . w dt with H = F - m g the force
  //     the drive holds and v, w the body's velocities over the step (DriveWork, drive_work.hpp);
  //   moving meshes: -(P_n-1 + P_n) dt/2 with P = F_m . v_m + T_m . w_m, the power of the mesh's
  //     load at its prescribed velocities (meshLoadPower, wall_loads.hpp).
  // (Scene::externalForces on a blocked axis are held by the drive too, so they enter H; a scene
  // with external forces is not closed anyway.) It enters the balance as an input:
  // kinetic + ... - cellWork - boundaryWork = constant.
  double boundaryWork = 0.0;
  // Deforming cell only: kinetic energy of the total on-step velocities (fluctuation + L_n x_n), for
  // comparison with the fluctuation energy `kinetic` (Yade's pbc tests); 0 without a cell.
  double kineticTotal = 0.0;
  double time = 0.0;                // t_n
  std::uint64_t step = 0;           // n

  // Half-trapezoid of the damping work of step n over [t_n, t_n+1/2 .. t_n+1], added at the next step.
  double dampingPending = 0.0;
  // Moving meshes: half-trapezoid of the boundary work at t_n, added at the next step.
  double boundaryPending = 0.0;

  double total() const {
    return kinetic + rotational + gravity + elastic + dampingDissipated + frictionDissipated + viscousDissipated +
           springDissipated - cellWork - boundaryWork;
  }
};

}  // namespace dem
