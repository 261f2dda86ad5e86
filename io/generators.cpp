#include "generators.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <numbers>
#include <random>
#include <sstream>
#include <string>
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

// Hierarchical hash grid over sphere centres (levels of cell side h0 2^l): a sphere lives in the
// level whose cell side is the first >= its diameter, in the cell of its centre. A query visits, per
// non-empty level, the cells within (its radius + the level's largest radius) of its centre, or the
// level's spheres one by one when they are fewer than those cells. Placed largest first, a candidate
// meets only levels of spheres at least as large as itself: a few cells each, whatever the spread of
// sizes.
class SphereGrid {
 public:
  SphereGrid(const Vec3& origin, double h0) : origin_(origin), h0_(h0) {}

  void insert(const Sphere& s) {
    const std::size_t l = levelOf(s.radius);
    if (levels_.size() <= l) levels_.resize(l + 1);
    Level& L = levels_[l];
    if (L.h == 0.0) L.h = h0_ * std::ldexp(1.0, static_cast<int>(l));
    L.rMax = std::max(L.rMax, s.radius);
    L.cells[key(cell(s.centre, L.h))].push_back(L.spheres.size());
    L.spheres.push_back(s);
  }

  bool overlaps(const Sphere& s) const {
    for (const Level& L : levels_) {
      if (L.spheres.empty()) continue;
      const double reach = s.radius + L.rMax;
      const Cell a = cell(s.centre - Vec3::Constant(reach), L.h), b = cell(s.centre + Vec3::Constant(reach), L.h);
      double cells = 1.0;
      for (std::size_t k = 0; k < 3; ++k) cells *= static_cast<double>(b[k] - a[k] + 1);
      if (cells >= static_cast<double>(L.spheres.size())) {
        for (const Sphere& o : L.spheres)
          if (touch(o, s)) return true;
        continue;
      }
      for (std::int64_t z = a[2]; z <= b[2]; ++z)
        for (std::int64_t y = a[1]; y <= b[1]; ++y)
          for (std::int64_t x = a[0]; x <= b[0]; ++x) {
            const auto it = L.cells.find(key({x, y, z}));
            if (it == L.cells.end()) continue;
            for (const std::size_t k : it->second)
              if (touch(L.spheres[k], s)) return true;
          }
    }
    return false;
  }

 private:
  using Cell = std::array<std::int64_t, 3>;
  struct Level {
    double h = 0.0, rMax = 0.0;
    std::vector<Sphere> spheres;
    std::unordered_map<std::uint64_t, std::vector<std::size_t>> cells;
  };
  Vec3 origin_;
  double h0_;
  std::vector<Level> levels_;

  static bool touch(const Sphere& o, const Sphere& s) {
    const double d = o.radius + s.radius;
    return (o.centre - s.centre).squaredNorm() < d * d;
  }
  std::size_t levelOf(double r) const {
    std::size_t l = 0;
    for (double h = h0_; 2.0 * r > h && l < 64; h *= 2.0) ++l;
    return l;
  }
  Cell cell(const Vec3& x, double h) const {
    Cell c;
    for (int a = 0; a < 3; ++a) {
      const double f = std::floor((x[a] - origin_[a]) / h);
      c[static_cast<std::size_t>(a)] = static_cast<std::int64_t>(std::clamp(f, -1e12, 1e12));
    }
    return c;
  }
  static std::uint64_t key(const Cell& c) {
    std::uint64_t k = 1469598103934665603ull;
    for (const std::int64_t v : c) k = (k ^ static_cast<std::uint64_t>(v)) * 1099511628211ull;
    return k;
  }
};

// Equal spheres: the candidates a sphere needs only grow as the box fills (the region where a
// centre may go only shrinks), so the mean over the last kWindow spheres times the spheres left
// bounds the attempts still needed from below (in expectation); a fill that would exceed the limit
// is refused at once instead of after the limit's attempts.
class RsaProjection {
 public:
  static constexpr std::size_t kWindow = 64;
  void placed(std::uint64_t used) {
    marks_[count_ % kWindow] = used;
    ++count_;
    last_ = used;
  }
  // Mean attempts per sphere over the last kWindow spheres (0 before kWindow were placed).
  double rate() const {
    if (count_ <= kWindow) return 0.0;
    return static_cast<double>(last_ - marks_[count_ % kWindow]) / static_cast<double>(kWindow);
  }
  bool hopeless(std::size_t left, std::uint64_t used, std::uint64_t total) const {
    return rate() * static_cast<double>(left) > static_cast<double>(total - used);
  }

 private:
  std::uint64_t marks_[kWindow] = {};
  std::uint64_t last_ = 0;
  std::size_t count_ = 0;
};

std::string fmt4(double x) {
  std::ostringstream s;
  s.precision(4);
  s << x;
  return s.str();
}

}  // namespace

std::vector<Sphere> randomPacking(const PackingSpec& s, const std::vector<Sphere>& existing) {
  std::mt19937_64 rng(s.seed);
  const std::vector<double> radii = drawRadii(s.radius, s.count, rng);  // increasing
  const std::size_t n = radii.size();
  const Vec3 ext = s.hi - s.lo;
  const double boxVolume = ext.prod();
  double solid = 0.0;
  for (const double r : radii) solid += 4.0 / 3.0 * std::numbers::pi * r * r * r;
  // Earlier spheres that may reach into the box; those centred in it count towards its fill.
  std::vector<Sphere> near;
  double earlierSolid = 0.0;
  std::size_t earlierInside = 0;
  for (const Sphere& e : existing) {
    const Vec3 r = Vec3::Constant(e.radius);
    if (((e.centre + r).array() > s.lo.array()).all() && ((e.centre - r).array() < s.hi.array()).all()) near.push_back(e);
    if ((e.centre.array() >= s.lo.array()).all() && (e.centre.array() <= s.hi.array()).all()) {
      earlierSolid += 4.0 / 3.0 * std::numbers::pi * e.radius * e.radius * e.radius;
      ++earlierInside;
    }
  }
  const double fraction = (solid + earlierSolid) / boxVolume;
  std::string fill = "the spheres' solid volume " + fmt4(solid) + " m^3 is " + fmt4(fraction) + " of the box's volume " +
                     fmt4(boxVolume) + " m^3";
  if (earlierInside) fill += " (with the " + std::to_string(earlierInside) + " earlier spheres centred in it)";
  const std::string advice = "; enlarge the box, or lower count or radius";
  const auto jamNote = [&] {
    return fraction > kRsaJammingFraction ? ", above the fraction " + fmt4(kRsaJammingFraction) +
                                                " where random sequential addition of equal spheres jams"
                                          : std::string();
  };
  const auto placedOnly = [&](std::size_t placed) {
    return "placed only " + std::to_string(placed) + " of " + std::to_string(n) + " non-overlapping spheres";
  };
  if (n && !(radii.front() > 0.0 && std::isfinite(radii.back())))
    throw PackingError(placedOnly(0) + ": the size distribution gives radii from " + fmt4(radii.front()) + " to " +
                       fmt4(radii.back()) + " m; expected finite radii > 0 (check its parameters' scale)");
  if (n && !(2.0 * radii.back() < ext.minCoeff()))
    throw PackingError(placedOnly(0) + ": the largest radius drawn, " + fmt4(radii.back()) +
                       " m, is more than half the box's smallest side " + fmt4(ext.minCoeff()) + " m" + advice);
  if (fraction > kRandomClosePacking)
    throw PackingError(placedOnly(0) + ": " + fill + ", more than random close packing (" + fmt4(kRandomClosePacking) +
                       "); random sequential addition jams near " + fmt4(kRsaJammingFraction) +
                       " for equal spheres" + advice);

  // Equal spheres: random sequential addition saturates at kRsaJammingFraction (finite boxes with
  // walls lower); with many spheres a fill above it cannot be placed, whatever the attempts.
  if (n >= kRsaManySpheres && radii.front() == radii.back() && fraction > kRsaJammingFraction)
    throw PackingError(placedOnly(0) + ": " + fill + ", above the fraction " + fmt4(kRsaJammingFraction) +
                       " where random sequential addition of " + std::to_string(n) +
                       " equal spheres jams (refused before any attempt)" + advice);

  double h0 = n ? 2.0 * radii.front() : 1.0;
  h0 = std::max(h0, ext.maxCoeff() / 1e5);
  SphereGrid grid(s.lo, h0);
  for (const Sphere& e : near) grid.insert(e);
  const std::uint64_t total = s.maxAttempts ? s.maxAttempts : 1000 * s.count + 10000;
  const std::uint64_t perSphere = s.maxTriesPerSphere ? s.maxTriesPerSphere : 100000;
  const auto unit = [&] { return static_cast<double>(rng() >> 11) * 0x1p-53; };  // [0, 1)
  std::vector<Sphere> out;
  out.reserve(n);
  std::uint64_t used = 0;
  RsaProjection projection;
  for (std::size_t i = n; i-- > 0;) {
    const double r = radii[i];
    if (radii.front() == radii.back() && projection.hopeless(n - out.size(), used, total))
      throw PackingError(placedOnly(out.size()) + ": the last " + std::to_string(RsaProjection::kWindow) +
                         " spheres took " + fmt4(projection.rate()) + " attempts each; the " +
                         std::to_string(n - out.size()) + " left would need more than the " +
                         std::to_string(total - used) + " attempts left of the limit " + std::to_string(total) +
                         " (refused early: for equal spheres the attempts per sphere only grow as the box fills); " +
                         fill + jamNote() + advice);
    std::uint64_t tries = 0;
    for (;;) {
      if (used == total || tries == perSphere) {
        std::string why = placedOnly(out.size()) + ": the next one (radius " + fmt4(r) + " m) was rejected " +
                          std::to_string(tries) + " times in a row, " + std::to_string(used) +
                          " attempts in all (limit " + (tries == perSphere ? std::to_string(perSphere) + " per sphere"
                                                                           : std::to_string(total) + " in all") +
                          "); " + fill;
        throw PackingError(why + jamNote() + advice);
      }
      ++used;
      ++tries;
      Vec3 c;
      for (int k = 0; k < 3; ++k) c[k] = s.lo[k] + r + (ext[k] - 2.0 * r) * unit();
      const Sphere cand{c, r};
      if (grid.overlaps(cand)) continue;
      grid.insert(cand);
      out.push_back(cand);
      projection.placed(used);
      break;
    }
  }
  return out;
}

PackingReport packingReport(const std::string& path, const PackingSpec& spec, const std::vector<Sphere>& placed) {
  PackingReport r;
  r.path = path;
  r.request = spec.radius.description();
  std::vector<double> radii;
  radii.reserve(placed.size());
  for (const Sphere& s : placed) radii.push_back(s.radius);
  r.requested = requestedStats(spec.radius, spec.count);
  r.delivered = sizeStats(radii);
  r.ksDistance = radii.empty() ? 0.0 : ksDistance(radii, spec.radius);
  r.boxFraction = r.delivered.solidVolume / (spec.hi - spec.lo).prod();
  return r;
}

std::string formatPackingReport(const PackingReport& r) {
  const SizeStats &d = r.delivered, &q = r.requested;
  std::ostringstream o;
  o.precision(4);
  o << std::showpoint;
  o << r.path << ": " << d.count << " spheres, " << r.request << "\n";
  o << "  delivered (requested):\n";
  o << "    mean radius " << d.meanRadius << " m (" << q.meanRadius << ")\n";
  o << "    by number: d10 " << d.d10n << ", d50 " << d.d50n << ", d90 " << d.d90n << " m (" << q.d10n << ", " << q.d50n
    << ", " << q.d90n << ")\n";
  o << "    by mass:   d10 " << d.d10m << ", d50 " << d.d50m << ", d90 " << d.d90m << " m (" << q.d10m << ", " << q.d50m
    << ", " << q.d90m << ")\n";
  o << "    solid volume " << d.solidVolume << " m^3 (" << q.solidVolume << "), " << r.boxFraction << " of the box\n";
  o << "    Kolmogorov-Smirnov distance " << r.ksDistance << " (stratified draw: <= 1/count = "
    << (d.count ? 1.0 / static_cast<double>(d.count) : 0.0) << "; i.i.d. at alpha = 1e-3: "
    << (d.count ? ksCritical(d.count, 1e-3) : 0.0) << ")\n";
  return o.str();
}

}  // namespace dem::io
