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

// The overlaps of `scene`'s bodies now, found by the scene's own collider run (Scene::updateCollider,
// the run its first step would make: that step then finds the collider up to date, so the results
// are those of a run without this check, with neither a copy of the scene nor a second run).
StartOverlap startOverlap(Scene& scene);

// "N pairs of bodies overlap ...; the largest overlap is D m (bodies I and J, F of the smaller radius)".
std::string formatStartOverlap(const StartOverlap& o);

}  // namespace dem::io
