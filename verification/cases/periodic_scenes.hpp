#pragma once
// Periodic scenes shared by the periodic-collider cases (verification/cases/periodic_*.cpp,
// cell_flip_invariance.cpp) and the unit tests (verification/unit/periodic_collider.cpp).

#include "solver/builders.hpp"

namespace dem::verify {

// A gas in a unit cell: 6^3 = 216 spheres, r = 0.07 m +- 20 % (the smallest box is far narrower
// than half the cell), jitter 15 % of the spacing, random velocity components in [-1, 1] m/s.
inline Scene gasInCell() {
  PeriodicLatticeSpec spec;
  spec.m = 6;
  spec.radius = 0.07;
  spec.spread = 0.2;
  spec.jitter = 0.15;
  spec.speed = 1.0;
  return periodicLatticeScene(spec);
}

// A dense packing in the cell H: 4^3 = 64 spheres, r = 0.13 m +- 5 % on a lattice of spacing 0.25 m
// (overlaps of up to ~0.025 m from the first step), jitter 5 %, velocities in [-0.5, 0.5] m/s.
inline PeriodicLatticeSpec densePacking(const Mat3& H, std::uint64_t seed = 3) {
  PeriodicLatticeSpec spec;
  spec.H = H;
  spec.m = 4;
  spec.radius = 0.13;
  spec.spread = 0.05;
  spec.jitter = 0.05;
  spec.speed = 0.5;
  spec.seed = seed;
  return spec;
}

}  // namespace dem::verify
