#pragma once
// Particle generators of scene files: a regular lattice, and a random non-overlapping packing in a
// box (random sequential addition with a seed; an error when it cannot place every sphere).

#include "solver/particles.hpp"

#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

namespace dem::io {

struct LatticeSpec {
  Vec3 origin = Vec3::Zero();   // centre of the first sphere
  Vec3 spacing = Vec3::Ones();  // centre distance along x, y, z
  std::uint64_t count[3] = {1, 1, 1};
  double radius = 0.0;
};

// Centres of a count[0] x count[1] x count[2] lattice, x fastest.
std::vector<Vec3> latticeCentres(const LatticeSpec& spec);

struct PackingSpec {
  Vec3 lo = Vec3::Zero(), hi = Vec3::Ones();  // the box; spheres lie entirely inside it
  std::uint64_t count = 0;
  double rMin = 0.0, rMax = 0.0;  // radii uniform in [rMin, rMax] (equal: one radius)
  std::uint64_t seed = 1;
  std::uint64_t maxAttempts = 0;  // 0: 1000 count + 10000
};

struct Sphere {
  Vec3 centre;
  double radius;
};

// Thrown when a packing cannot place all spheres.
class PackingError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// Random sequential addition: each candidate (uniform centre in the box shrunk by its radius, radius
// uniform in [rMin, rMax]) is kept when it overlaps neither an earlier sphere nor any of `existing`.
// Same seed, same spheres. Throws PackingError naming how many were placed.
std::vector<Sphere> randomPacking(const PackingSpec& spec, const std::vector<Sphere>& existing);

}  // namespace dem::io
