#pragma once
// Bodies that overlap at the start of a run (dem-run warns: a random packing never overlaps, but
// hand-placed bodies, lattices and walls may, and an overlap d starts as a contact force k d that
// throws the bodies apart).

#include "solver/scene.hpp"

#include <cstddef>
#include <string>

namespace dem::io {

struct StartOverlap {
  std::size_t pairs = 0;         // overlapping pairs (sphere-sphere, sphere-wall, across the periodic boundary)
  double largest = 0.0;          // the largest overlap -u_N, m
  std::size_t id1 = 0, id2 = 0;  // the pair with the largest overlap
  double smallerRadius = 0.0;    // the smaller sphere radius of that pair (a wall's is infinite)
};

// The overlaps of `scene`'s bodies now, found by its collider run on a copy (the scene is unchanged,
// so the run's results are too).
StartOverlap startOverlap(const Scene& scene);

// "N pairs of bodies overlap ...; the largest overlap is D m (bodies I and J, F of the smaller radius)".
std::string formatStartOverlap(const StartOverlap& o);

}  // namespace dem::io
