#include "generators.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <random>
#include <unordered_map>

namespace dem::io {

std::vector<Vec3> latticeCentres(const LatticeSpec& s) {
  std::vector<Vec3> out;
  out.reserve(s.count[0] * s.count[1] * s.count[2]);
  for (std::uint64_t k = 0; k < s.count[2]; ++k)
    for (std::uint64_t j = 0; j < s.count[1]; ++j)
      for (std::uint64_t i = 0; i < s.count[0]; ++i)
        out.push_back(s.origin + Vec3(static_cast<double>(i) * s.spacing[0], static_cast<double>(j) * s.spacing[1],
                                      static_cast<double>(k) * s.spacing[2]));
  return out;
}

namespace {

// Hash grid of cell side h over sphere centres: a sphere of radius <= rMax overlaps only spheres in
// its own and the 26 neighbouring cells when h >= 2 rMax.
class SphereGrid {
 public:
  explicit SphereGrid(double h) : h_(h) {}
  void insert(const Sphere& s) {
    cells_[key(cell(s.centre))].push_back(spheres_.size());
    spheres_.push_back(s);
  }
  bool overlaps(const Sphere& s) const {
    const auto c = cell(s.centre);
    for (std::int64_t dz = -1; dz <= 1; ++dz)
      for (std::int64_t dy = -1; dy <= 1; ++dy)
        for (std::int64_t dx = -1; dx <= 1; ++dx) {
          const auto it = cells_.find(key({c[0] + dx, c[1] + dy, c[2] + dz}));
          if (it == cells_.end()) continue;
          for (const std::size_t k : it->second) {
            const Sphere& o = spheres_[k];
            const double d = o.radius + s.radius;
            if ((o.centre - s.centre).squaredNorm() < d * d) return true;
          }
        }
    return false;
  }

 private:
  using Cell = std::array<std::int64_t, 3>;
  double h_;
  std::vector<Sphere> spheres_;
  std::unordered_map<std::uint64_t, std::vector<std::size_t>> cells_;
  Cell cell(const Vec3& x) const {
    Cell c;
    for (int a = 0; a < 3; ++a) {
      const double f = std::floor(x[a] / h_);
      c[static_cast<std::size_t>(a)] = static_cast<std::int64_t>(std::clamp(f, -1e6, 1e6));
    }
    return c;
  }
  static std::uint64_t key(const Cell& c) {
    std::uint64_t k = 1469598103934665603ull;
    for (const std::int64_t v : c) k = (k ^ static_cast<std::uint64_t>(v)) * 1099511628211ull;
    return k;
  }
};

}  // namespace

std::vector<Sphere> randomPacking(const PackingSpec& s, const std::vector<Sphere>& existing) {
  double rMaxAll = s.rMax;
  for (const Sphere& e : existing) rMaxAll = std::max(rMaxAll, e.radius);
  // Cells no smaller than 2 rMax; no more cells along an edge than about the sphere count.
  double h = 2.0 * rMaxAll;
  h = std::max(h, (s.hi - s.lo).maxCoeff() / 1e5);
  SphereGrid grid(h);
  for (const Sphere& e : existing) grid.insert(e);
  std::mt19937_64 rng(s.seed);
  std::uniform_real_distribution<double> unit(0.0, 1.0);
  const std::uint64_t attempts = s.maxAttempts ? s.maxAttempts : 1000 * s.count + 10000;
  std::vector<Sphere> out;
  out.reserve(s.count);
  for (std::uint64_t a = 0; a < attempts && out.size() < s.count; ++a) {
    const double r = s.rMin + (s.rMax - s.rMin) * unit(rng);
    Vec3 c;
    for (int k = 0; k < 3; ++k) c[k] = s.lo[k] + r + (s.hi[k] - s.lo[k] - 2.0 * r) * unit(rng);
    const Sphere cand{c, r};
    if (grid.overlaps(cand)) continue;
    grid.insert(cand);
    out.push_back(cand);
  }
  if (out.size() < s.count)
    throw PackingError("placed only " + std::to_string(out.size()) + " of " + std::to_string(s.count) +
                       " non-overlapping spheres in " + std::to_string(attempts) +
                       " attempts; enlarge the box, or lower count or radius");
  return out;
}

}  // namespace dem::io
