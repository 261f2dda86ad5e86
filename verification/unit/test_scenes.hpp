#pragma once
// Scenes several unit suites step: a stirred pour with dashpots, a sheared periodic packing.

#include "solver/builders.hpp"

namespace dem::test {

// 400 spheres poured with random initial velocities and restitution 0.7 (the contacts hold
// dashpots), after `steps` steps.
inline Scene pourWithDashpots(std::uint64_t steps) {
  DepositionSpec spec;
  spec.n = 400;
  spec.speed = 0.3;
  Scene d = depositionScene(spec);
  for (Material& m : d.materials) m.restitution = 0.7;
  d.run(steps);
  return d;
}

// m^3 spheres of radius r on a jittered lattice of the unit cell, stirred (speed 0.3, damping 0.2),
// started on a simple shear of 0.8 over `shearSteps` steps whose cell flips.
inline Scene shearedLattice(std::size_t m, double radius, double shearSteps) {
  PeriodicLatticeSpec spec;
  spec.m = m;
  spec.radius = radius;
  spec.jitter = 0.1;
  spec.speed = 0.3;
  spec.damping = 0.2;
  Scene s = periodicLatticeScene(spec);
  Mat3 L = Mat3::Zero();
  L(0, 1) = 0.8 / (shearSteps * s.dt());
  s.cell->setVelGrad(L);
  s.cell->flipFlippable = true;
  s.startOnAffineField();
  return s;
}

}  // namespace dem::test
