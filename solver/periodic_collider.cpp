#include "periodic_collider.hpp"

#include "cell_grid.hpp"
#include "collider.hpp"
#include "contact_geometry.hpp"
#include "facet_geometry.hpp"
#include "lanes.hpp"
#include "mesh_motion.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <limits>
#include <map>
#include <sstream>
#include <stdexcept>

namespace dem {

namespace {

inline bool isUpper(std::uint32_t tag) { return (tag & 1u) != 0; }
inline std::uint32_t idOf(std::uint32_t tag) { return tag >> 1; }

// Whether bodies a and b may form a contact: a shape pair with a contact type (not two boundaries),
// and not a clump body or two members of the same clump (as Collider's).
bool pairAllowed(const Particles& p, std::size_t a, std::size_t b) {
  return a != b && shapePair(p.shape[a], p.shape[b]).type.has_value() && p.mayContact(a, b);
}
// The pairs the sweep tests: walls are unbounded and never in it (the wall pass tests them).
bool sweepPair(const Particles& p, std::size_t a, std::size_t b) {
  return !p.isWall(a) && !p.isWall(b) && pairAllowed(p, a, b);
}
// Bodies a, b in a contact's order (makeContact: a sphere before a boundary; two spheres by user id).
std::pair<std::uint32_t, std::uint32_t> contactOrder(const Particles& p, std::uint32_t a, std::uint32_t b) {
  if (shapePair(p.shape[a], p.shape[b]).swap || (!p.isBoundary(b) && p.userBefore(b, a))) std::swap(a, b);
  return {a, b};
}

}  // namespace

int wallCellAxis(const Vec3& normal, const Mat3& H) {
  int axis = -1, parallel = 0;
  for (int j = 0; j < 3; ++j) {
    if (std::abs(normal.dot(H.col(j))) <= kWallParallel * H.col(j).norm()) ++parallel;  // n . h_j = 0 to round-off
    else axis = j;
  }
  return parallel == 2 ? axis : -1;
}

bool periodicWallOverlap(const Vec3& s1, const Vec3& h1, const Vec3& s2, const Vec3& h2, int m, Eigen::Vector3i& k) {
  k.setZero();
  if (m < 0) return false;
  const double km = roundHalfAway(s1[m] - s2[m]);  // the wall's image nearest to body 1
  if (!(std::abs(s1[m] - (s2[m] + km)) <= h1[m] + h2[m])) return false;
  k[m] = static_cast<int>(km);
  return true;
}

bool periodicBoxesOverlap(const Vec3& sa, const Vec3& ha, const Vec3& sb, const Vec3& hb, Eigen::Vector3i& k) {
  for (int w = 0; w < 3; ++w) {
    const double kw = roundHalfAway(sa[w] - sb[w]);  // the only image of b that can overlap a
    if (!(std::abs(sa[w] - (sb[w] + kw)) <= ha[w] + hb[w])) return false;
    k[w] = static_cast<int>(kw);
  }
  return true;
}

namespace {

// Whether the boxes (s, h) of two bodies, in either order and as floats, may overlap through some
// image: a necessary condition of periodicBoxesOverlap for both orders (the floats' round-off of the
// fractional coordinates and of their difference is covered many times by the slack, which grows
// with the coordinates; the nearest image's distance |d - round(d)| does not depend on how a half
// is rounded), which rejects most of a grid's candidates before their shapes are looked at.
bool boxesMayOverlap(const Eigen::Vector3f& sa, const Eigen::Vector3f& ha, const Eigen::Vector3f& sb,
                     const Eigen::Vector3f& hb) {
  for (int w = 0; w < 3; ++w) {
    const float d = sa[w] - sb[w];
    const float slack = 1e-5f + 1e-6f * (std::abs(sa[w]) + std::abs(sb[w]));  // (>> 3 float ulps of the largest)
    if (!(std::abs(d - std::nearbyint(d)) <= ha[w] + hb[w] + slack)) return false;
  }
  return true;
}

Vec3 rowNorms(const Mat3& invH) { return Vec3(invH.row(0).norm(), invH.row(1).norm(), invH.row(2).norm()); }

// Transformed centre s and half-widths h of body i's box (periodic_collider.hpp):
//   sphere  s = H^{-1} x, h_w = (r + dL) |row_w(H^{-1})|;
//   facet   the box of its vertices' H^{-1} v_k, grown by dL |row_w(H^{-1})| (the triangle +- dL);
//   wall    s = H^{-1} x, h_m = dL |row_m(H^{-1})| on its cell axis m (wallCellAxis), 0 on the
//           others (it spans them: the wall pass, never the sweep);
//   clump   no box (h = 0).
void transformedBox(const Particles& p, std::size_t i, const Mat3& H, const Mat3& invH, const Vec3& rowNorm, double dL,
                    Vec3& s, Vec3& h) {
  switch (p.shape[i]) {
    case Shape::Sphere:
      s = invH * p.pos[i];
      h = p.isClump[i] ? Vec3::Zero() : Vec3((p.radius[i] + dL) * rowNorm);
      return;
    case Shape::Facet: {
      const Facet& f = p.facets[p.shapeIndex[i]];
      const Vec3 a = invH * f.v[0], b = invH * f.v[1], c = invH * f.v[2];
      const Vec3 lo = a.cwiseMin(b).cwiseMin(c), hi = a.cwiseMax(b).cwiseMax(c);
      s = 0.5 * (lo + hi);
      h = 0.5 * (hi - lo) + dL * rowNorm;
      return;
    }
    case Shape::Wall: {
      s = invH * p.pos[i];
      h.setZero();
      const int m = wallCellAxis(p.walls[p.shapeIndex[i]].normal, H);
      if (m >= 0) h[m] = dL * rowNorm[m];
      return;
    }
  }
}

// The largest |x| of the points of body i that enter its box (the round-off of H^{-1} x).
double boxPointNorm(const Particles& p, std::size_t i) {
  if (!p.isFacet(i)) return p.pos[i].norm();
  const Facet& f = p.facets[p.shapeIndex[i]];
  return std::max({f.v[0].norm(), f.v[1].norm(), f.v[2].norm()});
}

// What is wrong with body i's box h in the cell H (empty when nothing): a box as wide as half the
// cell or more along a transformed axis, a wall not parallel to two of the cell's side vectors.
std::string boxProblem(const Particles& p, std::size_t i, const Mat3& H, const Vec3& h) {
  std::ostringstream s;
  if (p.isWall(i)) {
    const Vec3& n = p.walls[p.shapeIndex[i]].normal;
    if (wallCellAxis(n, H) < 0) {
      s << "wall (particle " << p.userId[i] << ", normal (" << n.transpose()
        << ")): its plane is not parallel to two of the "
        << "periodic cell's side vectors (n . h_j = " << n.dot(H.col(0)) << ", " << n.dot(H.col(1)) << ", "
        << n.dot(H.col(2)) << " for the columns h_j of H); expected n . h_j = 0 for exactly two columns (e.g. a floor "
        << "normal to z in a cell whose other two columns lie in the xy plane: its images are then the plane "
        << "shifted by the third column)";
      return s.str();
    }
  }
  for (int w = 0; w < 3; ++w) {
    if (2.0 * h[w] < 0.5) continue;
    if (p.isFacet(i)) {
      const Facet& f = p.facets[p.shapeIndex[i]];
      const Mesh& m = p.meshes[f.mesh];
      s << "facet (particle " << p.userId[i] << ", triangle " << i - m.first << " of mesh " << f.mesh
        << (m.name.empty() ? "" : " '" + m.name + "'") << "): its bounding box (vertices + Verlet distance) spans "
        << 2.0 * h[w] << " of the periodic cell along transformed axis " << w
        << "; expected less than half the cell (subdivide the mesh: a finer STL, or more \"segments\" of its "
        << "generator; or enlarge the cell)";
    } else if (p.isWall(i)) {
      s << "wall (particle " << p.userId[i] << "): its Verlet distance spans " << 2.0 * h[w]
        << " of the periodic cell along "
        << "transformed axis " << w << "; expected less than half the cell (a smaller verletDist or a larger cell)";
    } else {
      s << "particle " << p.userId[i] << " (radius " << p.radius[i]
        << "): its bounding box (radius + Verlet distance) spans " << 2.0 * h[w]
        << " of the periodic cell along transformed axis " << w
        << "; expected less than half the cell (enlarge the cell, flip it, or use smaller particles)";
    }
    return s.str();
  }
  return {};
}

// Whether the boxes (s, h) of bodies i1, i2 (in a contact's order) overlap through some image of
// i2, and which (k): periodicWallOverlap for a wall (its cell axis in H), periodicBoxesOverlap
// otherwise.
bool bodiesOverlap(const Particles& p, const Mat3& H, const std::vector<Vec3>& s, const std::vector<Vec3>& h,
                   std::uint32_t i1, std::uint32_t i2, Eigen::Vector3i& k) {
  if (p.isWall(i2))
    return periodicWallOverlap(s[i1], h[i1], s[i2], h[i2], wallCellAxis(p.walls[p.shapeIndex[i2]].normal, H), k);
  return periodicBoxesOverlap(s[i1], h[i1], s[i2], h[i2], k);
}

}  // namespace

std::string periodicBodyProblem(const Particles& p, std::size_t i, const Cell& cell, double dL) {
  if (p.isClump[i]) return {};
  Vec3 s, h;
  transformedBox(p, i, cell.H(), cell.invH(), rowNorms(cell.invH()), dL, s, h);
  return boxProblem(p, i, cell.H(), h);
}

std::vector<PeriodicPair> bruteForcePeriodicPairs(const Particles& p, const Cell& cell, double dL) {
  const std::size_t n = p.size();
  const Vec3 rn = rowNorms(cell.invH());
  std::vector<Vec3> s(n), h(n);
  for (std::size_t i = 0; i < n; ++i) transformedBox(p, i, cell.H(), cell.invH(), rn, dL, s[i], h[i]);
  std::vector<PeriodicPair> pairs;
  Eigen::Vector3i k;
  for (std::size_t i = 0; i < n; ++i)
    for (std::size_t j = i + 1; j < n; ++j) {
      if (!pairAllowed(p, i, j)) continue;
      const auto [i1, i2] = contactOrder(p, static_cast<std::uint32_t>(i), static_cast<std::uint32_t>(j));
      if (bodiesOverlap(p, cell.H(), s, h, i1, i2, k)) pairs.emplace_back(i1, i2, std::array<int, 3>{k[0], k[1], k[2]});
    }
  std::sort(pairs.begin(), pairs.end());
  return pairs;
}

GapAtRun PeriodicCollider::gapAtRun(const Particles& p, const ContactPair& c) const {
  if (!hRunValid_ || s_.size() != p.size()) return {};
  if (c.type == ContactType::SphereFacet) {
    // the facet's image at the run (its vertices now: a mesh that does not move; criterion (E) does
    // not measure a moving mesh's vertices, so its contacts are never dormant)
    const Facet& f = p.facets[p.shapeIndex[c.id2]];
    if (moves(p.meshes[f.mesh].motion)) return {};
    const Vec3 x1 = hRun_ * s_[c.id1];
    return dem::gapAtRun(p, c, x1, closestPointOnFacetImage(f, x1, hRun_ * c.cellDist.cast<double>()), 2.0 * dL_);
  }
  return dem::gapAtRun(p, c, hRun_ * s_[c.id1], hRun_ * (s_[c.id2] + c.cellDist.cast<double>()), 2.0 * dL_);
}

bool PeriodicCollider::dormant(const Particles& p, const ContactPair& c) const {
  return apartBeyond(gapAtRun(p, c), 2.0 * dL_);
}

double PeriodicCollider::runGap(const Particles& p, const ContactPair& c) const { return gapAtRun(p, c).lowerBound(); }

void PeriodicCollider::computeBoxes(const Particles& p, const Cell& cell) {
  const std::size_t n = p.size();
  s_.resize(n);
  half_.resize(n);
  const Mat3& invH = cell.invH();
  const Vec3 rn = rowNorms(invH);
  hRun_ = cell.H();
  hRunValid_ = true;
  for (std::size_t i = 0; i < n; ++i) {
    transformedBox(p, i, cell.H(), invH, rn, dL_, s_[i], half_[i]);
    if (!allFinite(s_[i]))
      throw std::invalid_argument("particle " + std::to_string(i) + ": position is not finite (periodic collider)");
    if (p.isClump[i]) continue;
    if (const std::string problem = boxProblem(p, i, cell.H(), half_[i]); !problem.empty())
      throw std::invalid_argument(problem);
  }
}

bool PeriodicCollider::overlapAt(const Particles& p, std::uint32_t i1, std::uint32_t i2, Eigen::Vector3i& k) const {
  return bodiesOverlap(p, hRun_, s_, half_, i1, i2, k);
}

void PeriodicCollider::handleInversion(std::uint32_t a, std::uint32_t b, const Particles& p,
                                       const std::vector<Material>& materials, ContactStore& contacts) const {
  if (!pairAllowed(p, a, b)) return;
  const auto [i1, i2] = contactOrder(p, a, b);
  Eigen::Vector3i k;
  if (overlapAt(p, i1, i2, k)) {
    addOverlapping(i1, i2, k, p, materials, contacts);
  } else if (const std::int64_t idx = contacts.find(i1, i2); idx >= 0) {
    contacts.remove(static_cast<std::size_t>(idx));
  }
}

void PeriodicCollider::addOverlapping(std::uint32_t i1, std::uint32_t i2, const Eigen::Vector3i& k, const Particles& p,
                                      const std::vector<Material>& materials, ContactStore& contacts) const {
  if (const std::int64_t idx = contacts.find(i1, i2); idx < 0) {
    Contact c = makeContact(p, materials, i1, i2, law);
    c.cellDist = k;
    contacts.add(c);
  } else if (!contacts.real(static_cast<std::size_t>(idx))) {
    // another image (only possible after a jump of a whole box)
    contacts.setCellDist(static_cast<std::size_t>(idx), k);
  }
}

// Every body that may touch a wall tested against it with the wall's nearest image, wall by wall
// in id order, bodies in id order: walls are unbounded along two cell axes and never in the sweep
// (as the aperiodic collider tests its large bodies against every box).
void PeriodicCollider::wallPass(const Particles& p, const std::vector<Material>& materials,
                                ContactStore& contacts) const {
  if (p.walls.empty()) return;
  const auto n = static_cast<std::uint32_t>(p.size());
  for (std::uint32_t w = 0; w < n; ++w) {
    if (!p.isWall(w)) continue;
    for (std::uint32_t i = 0; i < n; ++i)
      if (!p.isBoundary(i)) handleInversion(i, w, p, materials, contacts);
  }
}

bool PeriodicCollider::withinMargin(const Particles& p, std::size_t i0, double kappa, double& rMin, double& move2,
                                    float* bodyMove2) const {
  for (std::size_t j = i0; j < i0 + kLanes; ++j)
    if (p.shape[j] != Shape::Sphere || p.isClump[j]) return false;
  const V3<Lanes> x = loadV3Lanes(p.pos[i0].data()), s = loadV3Lanes(s_[i0].data());
  const Lanes r(p.radius.data() + i0, stdx::element_aligned);
  // x - H_run s, and its squared norm, in the order of the scalar test's Eigen expressions
  const auto run = [&](Eigen::Index w) { return (hRun_(w, 0) * s.x + hRun_(w, 1) * s.y) + hRun_(w, 2) * s.z; };
  const Lanes dx = x.x - run(0), dy = x.y - run(1), dz = x.z - run(2);
  const Lanes d2 = (dx * dx + dy * dy) + dz * dz;
  const Lanes far = stdx::max(stdx::max(stdx::abs(x.x), stdx::abs(x.y)), stdx::abs(x.z));
  const Lanes inside = dL_ - 1e-12 * kappa * (2.0 * far + r + 3.0 * dL_);
  if (!stdx::all_of(inside > 0.0 && d2 <= inside * inside)) return false;  // (a NaN fails)
  rMin = std::min(rMin, stdx::hmin(r));
  move2 = std::max(move2, stdx::hmax(d2));
  if (bodyMove2) {
    std::array<float, kLanes> rungs;
    for (std::size_t j = 0; j < kLanes; ++j) rungs[j] = move2Rung(d2[j]);
    keepMoves2(bodyMove2 + i0, rungs.data(), kLanes);
  }
  return true;
}

bool PeriodicCollider::needsRun(const Particles& p, const Cell& cell, float* bodyMove2) const {
  constexpr double inf = std::numeric_limits<double>::infinity();
  moveSinceRun_ = inf;
  const std::size_t n = p.size();
  if (!initialised_ || s_.size() != n) return true;
  if (!p.walls.empty() && !hRunValid_) return true;  // (a wall's cell axis is the one in H_run)
  const Mat3& invH = cell.invH();
  const Vec3 rn = rowNorms(invH);
  constexpr double kRound = 16.0 * std::numeric_limits<double>::epsilon();
  const bool runCell = dormancyHolds(cell);
  const double dL2 = dL_ * dL_;
  int out = 0;
  double rMin = inf;   // the smallest sphere (sweepLengthFor: a changed radius changes dL, a run)
  double move2 = 0.0;  // while H is the run's: the largest squared distance from the place at the run
  // criterion (V): the body's current box (sweep length 0) lies inside the box stored at the last
  // run (a wall: along its cell axis, which must still be the run's); and while H is the run's,
  // criterion (E): no centre farther than dL from its place at the run (spheres and walls; a
  // facet's vertices are not measured: see gapAtRun)
  // While H is the run's, a sphere whose centre lies within dL - margin of its place at the run
  // satisfies (V) as well: its box moved in fractional coordinates by at most |row_w(H^-1)| times
  // the centre's displacement, and the margin (relative 1e-12, scaled by H's condition number)
  // covers the round-off of H^-1 x and H s and the slack of (V) many times over. Only (E) is then
  // evaluated, with the same bits; any other body takes both tests.
  const double kappa =
      runCell ? cell.H().cwiseAbs().rowwise().sum().maxCoeff() * invH.cwiseAbs().rowwise().sum().maxCoeff() : 0.0;
  const std::size_t groups = (n + kLanes - 1) / kLanes;
#pragma omp parallel for schedule(static) reduction(max : out, move2) reduction(min : rMin) if (n > kParallelThreshold)
  for (std::size_t g = 0; g < groups; ++g) {
    // kLanes spheres at once where each lies within dL - margin of its place at the run (the first
    // test below, the same bits); a group with any other body takes the tests body by body
    if (runCell && (g + 1) * kLanes <= n && withinMargin(p, g * kLanes, kappa, rMin, move2, bodyMove2)) continue;
    std::array<float, kLanes> rungs;
    const std::size_t i0 = g * kLanes, i1 = std::min(n, i0 + kLanes);
    for (std::size_t i = i0; i < i1; ++i) {
      // body i's tests; returns its squared move since the run (move2Rung), +inf where not known
      const auto check = [&]() -> float {
        constexpr float unknown = std::numeric_limits<float>::infinity();
        if (p.isClump[i]) return unknown;
        if (p.shape[i] == Shape::Sphere) rMin = std::min(rMin, p.radius[i]);
        float moved = unknown;
        if (runCell && p.shape[i] == Shape::Sphere) {
          const double d2 = (p.pos[i] - hRun_ * s_[i]).squaredNorm();
          moved = move2Rung(d2);
          const double inside = dL_ - 1e-12 * kappa * (2.0 * p.pos[i].cwiseAbs().maxCoeff() + p.radius[i] + 3.0 * dL_);
          if (inside > 0.0 && d2 <= inside * inside) {
            move2 = std::max(move2, d2);
            return moved;
          }
        }
        // (V) on axis w for the current box (s, h) of points no farther than x from the origin
        const auto outside = [&](const Vec3& s, const Vec3& h, double x, int w) {
          const double slack = kRound * (rn[w] * x + std::abs(s_[i][w]) + half_[i][w]);
          return !(std::abs(s[w] - s_[i][w]) + h[w] + slack <= half_[i][w]);
        };
        if (p.shape[i] == Shape::Sphere) {  // (the common case: no shape dispatch)
          const Vec3 s = invH * p.pos[i], h = p.radius[i] * rn;
          const double x = p.pos[i].norm();
          for (int w = 0; w < 3; ++w)
            if (outside(s, h, x, w)) out = 1;
        } else {
          Vec3 s, h;
          transformedBox(p, i, cell.H(), invH, rn, 0.0, s, h);
          const double x = boxPointNorm(p, i);
          const bool wall = p.isWall(i);
          const int m = wall ? wallCellAxis(p.walls[p.shapeIndex[i]].normal, cell.H()) : -1;
          if (wall && (m < 0 || m != wallCellAxis(p.walls[p.shapeIndex[i]].normal, hRun_))) out = 1;
          for (int w = 0; w < 3; ++w)
            if ((!wall || w == m) && outside(s, h, x, w)) out = 1;
        }
        if (runCell && !p.isFacet(i)) {
          const double d2 = (p.pos[i] - hRun_ * s_[i]).squaredNorm();
          if (!(d2 <= dL2)) out = 1;
          move2 = std::max(move2, std::isnan(d2) ? inf : d2);
        }
        return moved;
      };
      rungs[i - i0] = check();
    }
    if (bodyMove2) keepMoves2(bodyMove2 + i0, rungs.data(), i1 - i0);
  }
  if (sweepLengthFor(rMin, verletDist) != dL_) return true;  // (moveSinceRun_ unknown: inf)
  if (runCell) moveSinceRun_ = std::sqrt(move2);
  return out != 0;
}

bool PeriodicCollider::update(const Particles& p, const Cell& cell, const std::vector<Material>& materials,
                              ContactStore& contacts) {
  if (!needsRun(p, cell, contacts.bodyMove2Buffer(p.size()))) {
    contacts.setBodyMove2Valid(std::isfinite(moveSinceRun_));
    return false;
  }
  const bool full = !initialised_ || s_.size() != p.size();
  dL_ = sweepLengthFor(p, verletDist);
  computeBoxes(p, cell);
  if (full) {
    fullRun(p, materials, contacts);
  } else {
    // The bounds' new coordinates, and how many stand before a smaller one (each such descent is at
    // least one move of the insertion sort)
    std::size_t descents = 0;
    for (int w = 0; w < 3; ++w) {
      List& list = lists_[w];
      for (Bound& b : list.v) {
        const std::uint32_t id = idOf(b.tag);
        b.coord = (isUpper(b.tag) ? s_[id][w] + half_[id][w] : s_[id][w] - half_[id][w]) - b.period;
      }
      for (std::size_t i = 0; i < list.v.size(); ++i)
        descents += list.v[i == 0 ? list.v.size() - 1 : i - 1].coord > list.v[i].coord + (i == list.lo ? 1.0 : 0.0);
    }
    bool rebuilt = static_cast<double>(descents) > kScrambledDescents * static_cast<double>(p.size());
    if (rebuilt) {
      fullRun(p, materials, contacts);
      ++fullRunsForCost_;
    }
    std::size_t work = kSortWorkPerBody * p.size();
    for (int w = 0; w < 3 && !rebuilt; ++w) {
      int passes = 0;
      while (insertionSortPass(w, p, materials, contacts, work))
        if (++passes > 8 || work == 0) {  // far from sorted (a jump, or bodies that overtook many): from scratch
          fullRunsForCost_ += work == 0;
          fullRun(p, materials, contacts);
          rebuilt = true;
          break;
        }
    }
  }
  wallPass(p, materials, contacts);
  ++runs_;
  moveSinceRun_ = 0.0;  // (the places at the run are the current ones)
  return true;
}

PeriodicCollider::StateView PeriodicCollider::view() const {
  StateView v;
  for (int w = 0; w < 3; ++w) {
    v.lists[w] = lists_[w].v;
    v.lo[w] = lists_[w].lo;
  }
  v.s = s_;
  v.half = half_;
  v.dL = dL_;
  v.runs = runs_;
  v.fullRuns = fullRuns_;
  v.initialised = initialised_;
  v.hRun = hRun_;
  v.hRunValid = hRunValid_;
  return v;
}

PeriodicCollider::State PeriodicCollider::state() const {
  const StateView v = view();
  State st;
  for (int w = 0; w < 3; ++w) {
    st.lists[w].assign(v.lists[w].begin(), v.lists[w].end());
    st.lo[w] = v.lo[w];
  }
  st.s.assign(v.s.begin(), v.s.end());
  st.half.assign(v.half.begin(), v.half.end());
  st.dL = v.dL;
  st.runs = v.runs;
  st.fullRuns = v.fullRuns;
  st.initialised = v.initialised;
  st.hRun = v.hRun;
  st.hRunValid = v.hRunValid;
  return st;
}

void PeriodicCollider::renumber(const std::vector<std::uint32_t>& newSlot) {
  for (List& list : lists_)
    for (Bound& b : list.v) b.tag = (newSlot[b.tag >> 1] << 1) | (b.tag & 1u);
  for (std::vector<Vec3>* v : {&s_, &half_}) {
    if (v->size() != newSlot.size()) continue;  // (not built yet)
    const std::vector<Vec3> old = *v;
    for (std::size_t i = 0; i < old.size(); ++i) (*v)[newSlot[i]] = old[i];
  }
}

void PeriodicCollider::restore(State st, std::size_t nParticles) {
  const auto bad = [](const std::string& what) {
    throw std::invalid_argument("periodic collider state: " + what + " is inconsistent with the particles");
  };
  if (st.initialised) {
    if (st.s.size() != nParticles || st.half.size() != nParticles) bad("box count");
    for (std::size_t i = 0; i < nParticles; ++i)
      if (!allFinite(st.s[i]) || !allFinite(st.half[i]) || !(st.half[i].minCoeff() >= 0.0)) bad("box of a body");
    for (int w = 0; w < 3; ++w) {
      if (st.lists[w].size() != 2 * nParticles) bad("bound list length");
      if (nParticles > 0 && st.lo[w] >= st.lists[w].size()) bad("periodic boundary index");
      std::vector<std::uint8_t> seen(2 * nParticles, 0);
      for (const Bound& b : st.lists[w]) {
        if (b.tag >= 2 * nParticles || seen[b.tag] || !std::isfinite(b.coord)) bad("bound list entry");
        seen[b.tag] = 1;
      }
    }
  }
  if (!(std::isfinite(st.dL) && st.dL >= 0.0)) bad("sweep length");
  for (int w = 0; w < 3; ++w) {
    lists_[w].v = std::move(st.lists[w]);
    lists_[w].lo = st.lo[w];
  }
  s_ = std::move(st.s);
  half_ = std::move(st.half);
  if (st.hRunValid && !st.hRun.allFinite()) bad("H of the last run");
  hRun_ = st.hRun;
  hRunValid_ = st.hRunValid && st.initialised;
  dL_ = st.dL;
  runs_ = st.runs;
  fullRuns_ = st.fullRuns;
  fullRunsForCost_ = 0;
  initialised_ = st.initialised;
}

void PeriodicCollider::fullRun(const Particles& p, const std::vector<Material>& materials, ContactStore& contacts) {
  const std::size_t n = p.size();
  const auto before = [](const Bound& x, const Bound& y) {
    return x.coord < y.coord || (x.coord == y.coord && !isUpper(x.tag) && isUpper(y.tag));
  };
  for (int w = 0; w < 3; ++w) {
    auto& v = lists_[w].v;
    v.resize(2 * n);
    for (std::size_t i = 0; i < n; ++i) {
      const auto id = static_cast<std::uint32_t>(i);
      for (int up = 0; up < 2; ++up) {
        const double val = up ? s_[i][w] + half_[i][w] : s_[i][w] - half_[i][w];
        const double period = std::floor(val);  // the bound's period; coord in [0, 1)
        v[2 * i + up] = {val - period, static_cast<std::int32_t>(period), (id << 1) | static_cast<std::uint32_t>(up)};
      }
    }
    std::sort(v.begin(), v.end(), before);
    lists_[w].lo = 0;
  }
  // Existing entries that no longer overlap go (others take the image they overlap with).
  Eigen::Vector3i k;
  for (std::size_t m = contacts.size(); m-- > 0;) {
    const std::uint32_t i1 = contacts.id1(m), i2 = contacts.id2(m);
    if (i1 >= n || i2 >= n || !overlapAt(p, i1, i2, k)) contacts.remove(m);
    else if (!contacts.real(m)) contacts.setCellDist(m, k);
  }
  // Sweep x: from each lower bound to its own upper bound (circularly: across || into the next
  // period), every lower bound met is a candidate (handleInversion). The candidates of a box come
  // from a grid of the box centres in fractional coordinates (cell_grid.hpp; cells at least as wide as
  // the widest box, so every box that overlaps it, through any image, is in its cell or a
  // neighbour), and those the sweep meets are visited in the sweep's order: the same contacts in the
  // same order as the literal sweep, which meets O(N dL / L_x) bounds per box, in O(N log N). The
  // boxes that do not overlap are left out (the sweep's handleInversion does nothing for them: the
  // entries that do not overlap were removed above).
  const auto& v = lists_[0].v;
  const std::size_t N = v.size();
  std::vector<std::uint32_t> posLo(n), posHi(n);
  for (std::size_t m = 0; m < N; ++m)
    (isUpper(v[m].tag) ? posHi : posLo)[idOf(v[m].tag)] = static_cast<std::uint32_t>(m);
  std::array<double, 3> width{};
  for (int w = 0; w < 3; ++w) {
    double hMax = 0.0;
    for (std::size_t i = 0; i < n; ++i) hMax = std::max(hMax, half_[i][w]);
    width[w] = 2.0 * hMax * (1.0 + 1e-6) + 1e-12;
  }
  // (up to 8 n + 64 cells: a tall cell's empty height had widened the cells, and doubled the candidates)
  const auto m = detail::CellGrid::counts(Vec3::Ones(), width, 2 * n, true);
  for (int w = 0; w < 3; ++w) width[w] = 1.0 / static_cast<double>(m[w]);
  detail::CellGrid grid(Vec3::Zero(), width, m, true);
  std::vector<std::uint32_t> ids(n);
  for (std::size_t i = 0; i < n; ++i) ids[i] = static_cast<std::uint32_t>(i);
  grid.build(ids, [&](std::uint32_t i) { return s_[i]; });
  std::vector<std::pair<std::uint32_t, std::uint32_t>> pairs;  // (i1, i2), a contact's order, in the sweep's order
  {
    // The boxes in the grid's order, as floats (a test that only rejects: boxesMayOverlap), with
    // the places of their lower bounds in the sweep: a box's candidates are then read in sequence.
    // (Freed before the contacts grow.)
    std::vector<GridBox> boxes(grid.slots());
    for (std::size_t q = 0; q < boxes.size(); ++q) {
      const std::uint32_t b = grid.item(q);
      boxes[q] = {s_[b].cast<float>(), half_[b].cast<float>(), posLo[b], b};
    }
    struct Found {
      std::uint32_t step, i1, i2;  // (steps from a's lower bound: distinct)
    };
    std::vector<Found> found;
    for (std::size_t mm = 0; mm < N; ++mm) {
      if (isUpper(v[mm].tag)) continue;
      const std::uint32_t a = idOf(v[mm].tag);
      const std::size_t reach = (posHi[a] + N - mm) % N;  // steps to a's own upper bound
      const Eigen::Vector3f sa = s_[a].cast<float>(), ha = half_[a].cast<float>();
      found.clear();
      grid.forNeighbourSlots(grid.cellOf(s_[a]), [&](std::size_t q) {
        const GridBox& c = boxes[q];
        const std::size_t step = c.posLo >= mm ? c.posLo - mm : c.posLo + N - mm;
        if (step == 0 || step >= reach || !boxesMayOverlap(sa, ha, c.s, c.h) || !sweepPair(p, a, c.id)) return;
        const auto [i1, i2] = contactOrder(p, a, c.id);
        if (overlapAt(p, i1, i2, k)) found.push_back({static_cast<std::uint32_t>(step), i1, i2});
      });
      std::sort(found.begin(), found.end(), [](const Found& x, const Found& y) { return x.step < y.step; });
      for (const Found& f : found) pairs.emplace_back(f.i1, f.i2);
    }
  }
  // The columns reserved for all of them at once: the run's contacts are the pairs found (a pair met
  // twice is added once), the entries that do not overlap having gone above.
  contacts.reserve(pairs.size());
  for (const auto& [i1, i2] : pairs) {
    overlapAt(p, i1, i2, k);  // (true: found above; its image k)
    addOverlapping(i1, i2, k, p, materials, contacts);
  }
  initialised_ = true;
  ++fullRuns_;
}

// One insertion-sort pass over the circular list of axis w (seed "Periodic insertion sort
// algorithm"); returns whether it exchanged or wrapped anything.
bool PeriodicCollider::insertionSortPass(int w, const Particles& p, const std::vector<Material>& materials,
                                         ContactStore& contacts, std::size_t& work) {
  auto& v = lists_[w].v;
  std::size_t& lo = lists_[w].lo;
  const std::size_t N = v.size();
  if (N < 2) return false;
  const auto prev = [N](std::size_t i) { return i == 0 ? N - 1 : i - 1; };
  const auto next = [N](std::size_t i) { return i + 1 == N ? 0 : i + 1; };
  bool changed = false;
  for (std::size_t i = 0; i < N; ++i) {
    // (||.) the first element fell below the lower period boundary: previous period, || moves right
    if (i == lo && v[i].coord < 0.0) {
      v[i].period -= 1;
      v[i].coord += 1.0;
      lo = next(lo);
      changed = true;
    }
    const std::size_t i1 = prev(i);
    // across ||, the left neighbour is compared with the element's coordinate plus the period
    if (!(v[i1].coord > v[i].coord + (i == lo ? 1.0 : 0.0))) continue;
    if (work == 0) return true;  // (the run's budget spent: a full run follows)
    const Bound vi = v[i];
    std::size_t j = i1;
    std::size_t moves = 0;
    while (v[j].coord > vi.coord + (next(j) == lo ? 1.0 : 0.0)) {
      const std::size_t j1 = next(j);
      v[j1] = v[j];
      if (j1 == lo) {  // (.||) the last element moves across ||: next period, || moves left
        v[j1].period += 1;
        v[j1].coord -= 1.0;
        lo = prev(lo);
      }
      std::size_t cost = 1;
      if (isUpper(vi.tag) != isUpper(v[j1].tag) && sweepPair(p, idOf(vi.tag), idOf(v[j1].tag))) {
        handleInversion(idOf(vi.tag), idOf(v[j1].tag), p, materials, contacts);
        cost = kInversionWork;
      }
      work -= std::min(work, cost);
      j = prev(j);
      changed = true;
      if (++moves >= N) throw std::logic_error("periodic collider: bound list out of order by a whole period");
    }
    v[next(j)] = vi;
  }
  return changed;
}

}  // namespace dem

namespace dem {

void sharePeriodicVertices(Particles& p, const Mat3& H) {
  const Mat3 invH = H.inverse();
  constexpr double kQuantum = 0x1p-36;  // bucket width in fractional coordinates (> kTol)
  constexpr double kTol = 1e-12;        // equal fractional coordinates modulo 1, to round-off
  using Key = std::array<std::int64_t, 3>;
  for (std::size_t m = 0; m < p.meshes.size(); ++m) {
    const Mesh& mesh = p.meshes[m];
    std::map<Key, std::vector<std::pair<Vec3, std::uint32_t>>> buckets;  // wrapped s, canonical id
    std::map<std::uint32_t, std::uint32_t> canon;                        // vertex id -> its class's id
    for (std::uint32_t f = mesh.first; f < mesh.first + mesh.count; ++f) {
      const Facet& facet = p.facets[p.shapeIndex[f]];
      for (int c = 0; c < 3; ++c) {
        if (canon.count(facet.vertex[c])) continue;
        const Vec3 s = invH * facet.v0[c];
        const Vec3 w = s.array() - s.array().floor();  // in [0, 1)
        Key key;
        for (int a = 0; a < 3; ++a) key[a] = static_cast<std::int64_t>(std::floor(w[a] / kQuantum));
        std::uint32_t id = facet.vertex[c];
        bool found = false;
        for (int dx = -1; dx <= 1 && !found; ++dx)
          for (int dy = -1; dy <= 1 && !found; ++dy)
            for (int dz = -1; dz <= 1 && !found; ++dz) {
              // (a class near 0 or 1 is found from the other end too: keys wrap modulo 1 / kQuantum)
              constexpr auto kPeriod = static_cast<std::int64_t>(1.0 / kQuantum);
              const Key k{(key[0] + dx + kPeriod) % kPeriod, (key[1] + dy + kPeriod) % kPeriod,
                          (key[2] + dz + kPeriod) % kPeriod};
              const auto it = buckets.find(k);
              if (it == buckets.end()) continue;
              for (const auto& [other, otherId] : it->second) {
                const Vec3 d = w - other;
                if (((d.array() - d.array().round()).abs() <= kTol).all()) {  // s' = s + k, k integer
                  id = otherId;
                  found = true;
                  break;
                }
              }
            }
        canon[facet.vertex[c]] = id;
        if (!found) buckets[key].emplace_back(w, id);
      }
    }
    for (std::uint32_t f = mesh.first; f < mesh.first + mesh.count; ++f)
      for (std::uint32_t& v : p.facets[p.shapeIndex[f]].vertex) v = canon[v];
  }
}

}  // namespace dem
