#pragma once
// Runaway detection: an unstable step size (dt above the critical timestep) makes the state explode;
// Scene::step stops with a RunawayError naming the step, a particle and the estimated critical dt,
// instead of returning NaN or an absurd state silently.
//
// Two criteria, both evaluated from what the integrator's pass already computes (integrator.hpp):
//  1. non-finite: any particle whose new position or velocity is NaN or inf, or any term of the
//     energy ledger (energy.hpp) that is NaN or inf, e.g. m |v|^2 / 2 overflowing for accepted but
//     absurd speeds (always on: no CSV row ever shows inf or NaN in the ledger's columns);
//  2. energy growth, in a closed system only (no Scene::externalForces, no deforming cell without
//     homoDeform: then the ledger sees all the work; prescribed motions, of blocked axes and of
//     meshes, are booked as boundaryWork).
//     The ledger total E = kinetic + rotational + gravity + elastic + dissipated - cellWork
//     - boundaryWork (energy.hpp) is constant for the continuum equations. A stable leapfrog does not gain energy
//     beyond small bounded errors: on a contact oscillation its on-step energy lies *below* the
//     true one by at most (w dt/2)^2 of the oscillation energy (verification theory 2.2), and an
//     impact changes the energy by |e^2 - 1| ~ 4 (dt/t_c)^3 of the impact energy (theory 6.1). An
//     unstable mode multiplies its energy by |lambda|^2 per step (3.5 at 1.05 dt_cr, theory 2.3).
//     The check fires when
//         E_n - E_ref > 1/2 (max over the run of (kinetic + rotational + elastic) + |g| sum_i m_i R_i)
//                       + 1e-9 (|E_ref| + |gravity_n| + kineticTotal_n)           (round-off floor)
//     i.e. when the run has gained half of the largest mechanical energy it has seen plus half the
//     energy that would lift every free sphere by its own radius: all of it would be spurious, and
//     it is far beyond the bounded errors of a stable run. (A run that starts from rest and blows up
//     gains about all of its mechanical energy, so the check fires once that exceeds |g| sum m R.)
//     E_ref is taken at the first step of a closed stretch (and again after any open stretch or
//     a change in the number of particles).
//
//     Deforming periodic cell with homoDeform (Scene::cell). The particles move with the affine
//     field L x plus a fluctuation; the ledger's kinetic and rotational terms are the fluctuation
//     energies and cellWork is the work of the cell on the contacts, W = sum dt D : (S_n + S_n+1)/2
//     (energy.hpp), so that for the continuum equations
//         d/dt (K_f + R + U_el) = D : V sigma - (dissipation rates),
//     i.e. E = K_f + R + U_el + dissipated - W is constant: the system with the cell's work booked
//     is closed, and the same criterion applies. Its stable errors stay bounded as in a fixed cell:
//     the leapfrog's are those above, and the trapezoid's error in W over a step is
//     dt^3/12 P'' (P = D : V sigma the cell's power), whose sum telescopes to
//     dt^2/12 (P'(t_n) - P'(t_0)) ~ (w dt)^2/12 of the contact energy: bounded, not growing with the
//     cell's total work. One term is new: the fluctuation velocity v - L x is a difference, so its
//     round-off is eps |L x| and that of K_f about eps (K_f + kineticTotal), where kineticTotal is
//     the energy of the total velocities; a packing started on the affine field has K_f ~ 0 and
//     would otherwise "gain" 1e-34 J of round-off against a bound of the same size. Hence the term
//     1e-9 kineticTotal in the floor (0 without a cell). Measured (tests dem_run.exit_code.sheared_*):
//     the sheared periodic example at its dt reaches gain / bound <= 0.17 after its first 20 steps
//     over its 8000 steps (the energy the cell puts in reaches 0.34 J against a drift of -1e-3 J);
//     at 3x its critical dt it fires at step 912 (it used to finish with a fluctuation kinetic
//     energy 40 times the stable run's). Without homoDeform the cell's work on the particles is not
//     booked, and only criterion 1 applies; a step whose gradient differs from the previous step's
//     (a switch-on from rest) gives the particles (L_n+1/2 - L_n-1/2) x, unbooked: that step is
//     open, and E_ref is taken again after it.

#include "energy.hpp"

#include <cstddef>
#include <cstdint>
#include <stdexcept>
#include <string>

namespace dem {

class RunawayError : public std::runtime_error {
 public:
  RunawayError(const std::string& what, std::uint64_t atStep, std::size_t atParticle, double stepSize, double critical)
      : std::runtime_error(what), step(atStep), particle(atParticle), dt(stepSize), dtCritical(critical) {}
  std::uint64_t step;   // the step (t_n = step dt) whose integration produced the runaway state
  std::size_t particle;  // the first non-finite particle, or the one with the largest kinetic energy (its user id)
  double dt;            // the timestep in use
  double dtCritical;    // estimated critical timestep (global stiffness; p-wave without contacts)
};

// The first term of the ledger (named as in the CSV header) that is NaN or inf; name nullptr if all
// are finite.
struct LedgerTerm {
  const char* name = nullptr;
  double value = 0.0;
};
LedgerTerm nonFiniteLedgerTerm(const EnergyLedger& e);

class RunawayMonitor {
 public:
  enum class Verdict { Ok, NonFinite, NonFiniteEnergy, EnergyGrowth };

  bool energyCheck = true;  // criterion 2 (criterion 1 is always on)

  // Called after each integration with the ledger at t_n. liftScale = |g| sum_i m_i R_i.
  Verdict check(const EnergyLedger& e, double liftScale, bool closed, bool nonFinite, std::size_t nParticles);
  void reset() { haveRef_ = false; }

  double gain() const { return gain_; }    // E_n - E_ref at the last check
  double bound() const { return bound_; }  // the bound it was compared with

 private:
  bool haveRef_ = false;
  std::size_t nParticles_ = 0;
  double eRef_ = 0.0, maxMech_ = 0.0, gain_ = 0.0, bound_ = 0.0;
};

}  // namespace dem
