#pragma once
// Particle generators of scene files: a regular lattice, and a random non-overlapping packing in a
// box (random sequential addition with a seed; an error when it cannot place every sphere).

#include "size_distribution.hpp"
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
  SizeDistribution radius = SizeDistribution::constant(1.0);
  std::uint64_t seed = 1;
  std::uint64_t maxAttempts = 0;  // candidates in all; 0: 1000 count + 10000
  // Consecutive rejected candidates for one sphere before giving up; 0: 100000 (capped by the
  // attempts left).
  std::uint64_t maxTriesPerSphere = 0;
};

// Random sequential addition of spheres of equal size jams at a solid fraction of 0.384 (Torquato,
// Uche & Stillinger, Phys. Rev. E 74, 061308, 2006); a wide size distribution placed largest first
// goes further, but not to random close packing (0.64).
inline constexpr double kRsaJammingFraction = 0.384;
inline constexpr double kRandomClosePacking = 0.64;
// Equal spheres above kRsaJammingFraction are refused at once from this many on (fewer may fit by
// the luck of a small box).
inline constexpr std::size_t kRsaManySpheres = 1000;

struct Sphere {
  Vec3 centre;
  double radius;
};

// Thrown when a packing cannot place all spheres.
class PackingError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// The count radii are drawn first (drawRadii, from the seed), then placed largest first by random
// sequential addition: each candidate centre is uniform in the box shrunk by the radius, and kept when
// the sphere overlaps neither an earlier sphere nor any of `existing`; a sphere is retried until it
// fits. So the delivered radii are exactly the drawn ones. Same seed, same spheres (in placement
// order, largest first). Throws PackingError naming how many were placed, and the solid fraction
// asked for when it is high: at once when the spheres' volume exceeds kRandomClosePacking of the
// box, or of equal spheres (kRsaManySpheres or more) above kRsaJammingFraction; early when equal
// spheres, at the attempts per sphere of the last 64, would need more than the attempts left;
// otherwise after maxTriesPerSphere rejections of one sphere or maxAttempts in all.
std::vector<Sphere> randomPacking(const PackingSpec& spec, const std::vector<Sphere>& existing);

// What a packing delivered against what was asked (dem-run prints it at load).
struct PackingReport {
  std::string path;     // the generator's JSON path, e.g. "generators[0]"
  std::string request;  // SizeDistribution::description()
  SizeStats requested, delivered;
  double ksDistance = 0.0;     // of the delivered radii from the requested distribution (<= 1/count)
  double boxFraction = 0.0;    // delivered solid volume / box volume
};
PackingReport packingReport(const std::string& path, const PackingSpec& spec, const std::vector<Sphere>& placed);
// Several lines: count, mean radius, d10/d50/d90 by number and by mass, solid volume, each delivered
// and requested, and the KS distance.
std::string formatPackingReport(const PackingReport& r);

}  // namespace dem::io
