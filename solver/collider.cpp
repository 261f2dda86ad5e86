#include "collider.hpp"

#include "cell_grid.hpp"
#include "contact_geometry.hpp"
#include "facet_geometry.hpp"
#include "laws.hpp"
#include "shapes.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <limits>
#include <optional>
#include <stdexcept>
#include <string>

namespace dem {

namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();

bool boxesOverlap(const Vec3& loA, const Vec3& hiA, const Vec3& loB, const Vec3& hiB) {
  return loA[0] <= hiB[0] && loB[0] <= hiA[0] && loA[1] <= hiB[1] && loB[1] <= hiA[1] && loA[2] <= hiB[2] &&
         loB[2] <= hiA[2];
}

// Whether bodies a and b may form a contact: not two walls, and not a clump body or two members of
// the same clump (Particles::mayContact).
bool pairAllowed(const Particles& p, std::size_t a, std::size_t b) {
  return a != b && shapePair(p.shape[a], p.shape[b]).type.has_value() && p.mayContact(a, b);
}

inline bool isUpper(std::uint32_t tag) { return (tag & 1u) != 0; }
inline std::uint32_t idOf(std::uint32_t tag) { return tag >> 1; }
// The order of the bound lists: by coordinate, a lower bound before an upper bound on ties.
inline bool boundBefore(const Collider::Bound& x, const Collider::Bound& y) {
  return x.coord < y.coord || (x.coord == y.coord && !isUpper(x.tag) && isUpper(y.tag));
}

}  // namespace

double sweepLengthFor(const Particles& p, double verletDist) {
  if (verletDist >= 0.0) return verletDist;
  double rMin = kInf;
  for (std::size_t i = 0; i < p.size(); ++i)
    if (p.shape[i] == Shape::Sphere && !p.isClump[i]) rMin = std::min(rMin, p.radius[i]);
  return sweepLengthFor(rMin, verletDist);
}

double sweepLengthFor(double rMin, double verletDist) {
  if (verletDist >= 0.0) return verletDist;
  return rMin == kInf ? 0.0 : -verletDist * rMin;
}

Contact makeContact(const Particles& p, const std::vector<Material>& materials, std::uint32_t a, std::uint32_t b,
                    ContactLaw law) {
  Contact c;
  const ShapePairEntry e = shapePair(p.shape[a], p.shape[b]);  // (two walls never reach here: pairAllowed)
  c.type = e.type.value_or(ContactType::SphereWall);
  c.id1 = e.swap ? b : a;
  c.id2 = e.swap ? a : b;
  if (c.type == ContactType::SphereSphere && p.userBefore(c.id2, c.id1)) std::swap(c.id1, c.id2);
  c.params = mixParams(law, pairMaterials(p, materials, c.id1, c.id2, c.type != ContactType::SphereSphere));
  return c;
}

std::vector<std::pair<std::uint32_t, std::uint32_t>> bruteForcePairs(const Particles& p,
                                                                     const std::vector<Vec3>& positions, double dL) {
  const std::size_t n = p.size();
  std::vector<Vec3> lo(n), hi(n);
  for (std::size_t i = 0; i < n; ++i) shapeBox(p, i, positions[i], dL, lo[i], hi[i]);
  std::vector<std::pair<std::uint32_t, std::uint32_t>> pairs;
  for (std::size_t i = 0; i < n; ++i)
    for (std::size_t j = i + 1; j < n; ++j) {
      if (!pairAllowed(p, i, j)) continue;
      if (boxesOverlap(lo[i], hi[i], lo[j], hi[j]))
        pairs.emplace_back(static_cast<std::uint32_t>(i), static_cast<std::uint32_t>(j));
    }
  return pairs;
}

Collider::StateView Collider::view() const {
  StateView v;
  for (int w = 0; w < 3; ++w) v.lists[w] = lists_[w];
  v.lo = lo_;
  v.hi = hi_;
  v.refPos = refPos_;
  v.refVertices = refVertices_;
  v.dL = dL_;
  v.runs = runs_;
  v.initialised = initialised_;
  return v;
}

Collider::State Collider::state() const {
  const StateView v = view();
  State s;
  for (int w = 0; w < 3; ++w) s.lists[w].assign(v.lists[w].begin(), v.lists[w].end());
  s.lo.assign(v.lo.begin(), v.lo.end());
  s.hi.assign(v.hi.begin(), v.hi.end());
  s.refPos.assign(v.refPos.begin(), v.refPos.end());
  s.refVertices.assign(v.refVertices.begin(), v.refVertices.end());
  s.dL = v.dL;
  s.runs = v.runs;
  s.initialised = v.initialised;
  return s;
}

void Collider::renumber(const std::vector<std::uint32_t>& newSlot) {
  for (auto& list : lists_)
    for (Bound& b : list) b.tag = (newSlot[idOf(b.tag)] << 1) | (b.tag & 1u);
  for (std::vector<Vec3>* v : {&lo_, &hi_, &refPos_, &loPrev_, &hiPrev_}) {
    if (v->size() != newSlot.size()) continue;  // (not built yet)
    const std::vector<Vec3> old = *v;
    for (std::size_t i = 0; i < old.size(); ++i) (*v)[newSlot[i]] = old[i];
  }
}

void Collider::restore(State s, std::size_t nParticles) {
  const auto bad = [](const std::string& what) {
    throw std::invalid_argument("collider state: " + what + " is inconsistent with the particles");
  };
  if (s.initialised) {
    if (s.lo.size() != nParticles || s.hi.size() != nParticles || s.refPos.size() != nParticles)
      bad("box or reference-position count");
    for (int w = 0; w < 3; ++w) {
      if (s.lists[w].size() != 2 * nParticles) bad("bound list length");
      std::vector<std::uint8_t> seen(2 * nParticles, 0);
      for (const Bound& b : s.lists[w]) {
        if (b.tag >= 2 * nParticles || seen[b.tag]) bad("bound list entry");
        seen[b.tag] = 1;
      }
    }
  }
  if (!(std::isfinite(s.dL) && s.dL >= 0.0)) bad("sweep length");
  if (s.initialised && s.refVertices.size() % 3 != 0) bad("facet vertex count");
  for (int w = 0; w < 3; ++w) lists_[w] = std::move(s.lists[w]);
  lo_ = std::move(s.lo);
  hi_ = std::move(s.hi);
  refPos_ = std::move(s.refPos);
  refVertices_ = std::move(s.refVertices);
  dL_ = s.dL;
  runs_ = s.runs;
  initialised_ = s.initialised;
}

bool Collider::needsRun(const Particles& p, float* bodyMove2) const {
  constexpr double inf = std::numeric_limits<double>::infinity();
  moveSinceRun_ = inf;
  if (!initialised_ || refPos_.size() != p.size() || refVertices_.size() != 3 * p.facets.size()) return true;
  // a facet's vertices (its mesh moves it rigidly: its centroid alone does not bound them)
  const double dL2 = dL_ * dL_;
  double move2 = 0.0;  // the largest squared distance from the place at the run (a NaN: inf)
  int moved = 0;
  const std::size_t nFacets = p.facets.size();
#pragma omp parallel for schedule(static) reduction(max : moved, move2) if (nFacets > kParallelThreshold)
  for (std::size_t f = 0; f < nFacets; ++f)
    for (std::size_t k = 0; k < 3; ++k) {
      const double d2 = (p.facets[f].v[k] - refVertices_[3 * f + k]).squaredNorm();
      if (d2 > dL2) moved = 1;
      move2 = std::max(move2, std::isnan(d2) ? inf : d2);
    }
  if (moved) return true;
  const std::size_t n = p.size();
  // seed: L_mn = |X^n - X^m| > dL triggers the run
  // (groups of a cache line's bodies: their rungs stored together where any changed, keepMoves2)
  constexpr std::size_t group = 64 / sizeof(float);
  const std::size_t groups = (n + group - 1) / group;
#pragma omp parallel for schedule(static) reduction(max : moved, move2) if (n > kParallelThreshold)
  for (std::size_t g = 0; g < groups; ++g) {
    const std::size_t i0 = g * group, i1 = std::min(n, i0 + group);
    std::array<float, group> rungs;
    for (std::size_t i = i0; i < i1; ++i) {
      const double d2 = (p.pos[i] - refPos_[i]).squaredNorm();
      if (d2 > dL2) moved = 1;
      move2 = std::max(move2, std::isnan(d2) ? inf : d2);
      rungs[i - i0] = move2Rung(d2);
    }
    if (bodyMove2) keepMoves2(bodyMove2 + i0, rungs.data(), i1 - i0);
  }
  moveSinceRun_ = std::sqrt(move2);
  return moved != 0;
}

GapAtRun gapAtRun(const Particles& p, const ContactPair& c, const Vec3& x1, const Vec3& x2, double reach) {
  PairInput<double> pair = pairInput(p, c.type, c.id1, c.id2, x2);
  pair.d = v3(x2 - x1);
  // Round-off of the gap and of the run trigger's distance test, with a wide factor of safety.
  const double margin = 1e-9 * (reach + p.radius[c.id1] + p.radius[c.id2]) +
                        1e-14 * (x1.cwiseAbs().maxCoeff() + x2.cwiseAbs().maxCoeff());
  return {contactGeometry(pair, c.type).uN, margin};
}

GapAtRun Collider::gapAtRun(const Particles& p, const ContactPair& c) const {
  if (!initialised_ || refPos_.size() != p.size()) return {};
  if (c.type == ContactType::SphereFacet) {
    // The triangle at its reference vertices: while each vertex stays within dL of them (needsRun),
    // every point of the triangle does, so the sphere's distance to it changes by at most 2 dL.
    const std::size_t f = p.shapeIndex[c.id2];
    if (refVertices_.size() != 3 * p.facets.size()) return {};
    const Vec3 x2 =
        closestPointOnTriangle(refPos_[c.id1], refVertices_[3 * f], refVertices_[3 * f + 1], refVertices_[3 * f + 2]);
    return dem::gapAtRun(p, c, refPos_[c.id1], x2, 2.0 * dL_);
  }
  return dem::gapAtRun(p, c, refPos_[c.id1], refPos_[c.id2], 2.0 * dL_);
}

bool Collider::dormant(const Particles& p, const ContactPair& c) const {
  return apartBeyond(gapAtRun(p, c), 2.0 * dL_);
}

double Collider::runGap(const Particles& p, const ContactPair& c) const { return gapAtRun(p, c).lowerBound(); }

void Collider::computeBoxes(const Particles& p) {
  const std::size_t n = p.size();
  lo_.resize(n);
  hi_.resize(n);
  refPos_ = p.pos;
  refVertices_.resize(3 * p.facets.size());
  for (std::size_t f = 0; f < p.facets.size(); ++f)
    for (std::size_t k = 0; k < 3; ++k) refVertices_[3 * f + k] = p.facets[f].v[k];
#pragma omp parallel for schedule(static) if (n > kParallelThreshold)
  for (std::size_t i = 0; i < n; ++i) shapeBox(p, i, p.pos[i], dL_, lo_[i], hi_[i]);
}

bool Collider::overlap(std::uint32_t a, std::uint32_t b) const { return boxesOverlap(lo_[a], hi_[a], lo_[b], hi_[b]); }

bool Collider::overlappedBefore(std::uint32_t a, std::uint32_t b) const {
  return boxesOverlap(loPrev_[a], hiPrev_[a], loPrev_[b], hiPrev_[b]);
}

void Collider::handleInversion(std::uint32_t a, std::uint32_t b, const Particles& p,
                               const std::vector<Material>& materials, ContactStore& contacts) const {
  if (!pairAllowed(p, a, b)) return;
  const bool ov = overlap(a, b);
  if (!ov && !overlappedBefore(a, b)) return;  // no entry (see collider.hpp)
  const std::int64_t k = contacts.find(a, b);
  if (ov && k < 0) contacts.add(makeContact(p, materials, a, b, law));
  else if (!ov && k >= 0) contacts.remove(static_cast<std::size_t>(k));
}

bool Collider::update(const Particles& p, const std::vector<Material>& materials, ContactStore& contacts) {
  if (!needsRun(p, contacts.bodyMove2Buffer(p.size()))) {
    contacts.setBodyMove2Valid(std::isfinite(moveSinceRun_));
    return false;
  }
  const bool full = !initialised_ || refPos_.size() != p.size();
  dL_ = sweepLengthFor(p, verletDist);
  lo_.swap(loPrev_);
  hi_.swap(hiPrev_);
  computeBoxes(p);
  if (full) {
    fullRun(p, materials, contacts);
  } else {
    for (int w = 0; w < 3; ++w) insertionSort(w, p, materials, contacts);
  }
  ++runs_;
  moveSinceRun_ = 0.0;  // (the reference positions are the current ones)
  if constexpr (kAssertions) {
    for (int w = 0; w < 3; ++w) {
      const auto& L = lists_[w];
      DEM_ASSERT(L.size() == 2 * p.size(), "collider: two bounds per body on each axis");
      // (!before rather than after: a NaN coordinate, which the runaway check reports, compares false)
      for (std::size_t k = 1; k < L.size(); ++k)
        DEM_ASSERT(!boundBefore(L[k], L[k - 1]) && idOf(L[k].tag) < p.size(),
                   "collider: bound lists sorted (lower before upper on ties) after a run, ids in range");
    }
    contacts.assertInvariants(p);
  }
  return true;
}

void Collider::fullRun(const Particles& p, const std::vector<Material>& materials, ContactStore& contacts) {
  const std::size_t n = p.size();
  const auto before = boundBefore;
  for (int w = 0; w < 3; ++w) {
    auto& L = lists_[w];
    L.resize(2 * n);
    for (std::size_t i = 0; i < n; ++i) {
      const auto id = static_cast<std::uint32_t>(i);
      L[2 * i] = {lo_[i][w], id << 1};
      L[2 * i + 1] = {hi_[i][w], (id << 1) | 1u};
    }
    std::sort(L.begin(), L.end(), before);
  }
  // Existing entries (a body set that changed) that no longer overlap go; then sweep x for new ones.
  for (std::size_t k = contacts.size(); k-- > 0;) {
    const std::uint32_t i1 = contacts.id1(k), i2 = contacts.id2(k);
    if (i1 >= n || i2 >= n || !overlap(i1, i2)) contacts.remove(k);
  }
  sweep(p, materials, contacts);
  initialised_ = true;
}

// The sweep of x: from each lower bound (in list order) to its own upper bound, every lower bound
// met is a candidate, and the pairs whose boxes overlap and that are not in the list yet are added
// in that order. The candidates of a sphere's box come from grids (cell_grid.hpp) instead of the
// list, and are sorted into the list's order: the same contacts in the same order as the literal
// sweep, which meets O(N dL / L_x) bounds per box (O(N^2) on a wide bed), in O(N log N). The boxes
// of walls and of facets wider than the grid's cells are swept literally.
void Collider::sweep(const Particles& p, const std::vector<Material>& materials, ContactStore& contacts) const {
  const auto& L = lists_[0];
  const std::size_t n = lo_.size();
  std::vector<std::uint32_t> rankLo(n), rankHi(n);
  for (std::size_t k = 0; k < L.size(); ++k)
    (isUpper(L[k].tag) ? rankHi : rankLo)[idOf(L[k].tag)] = static_cast<std::uint32_t>(k);
  Vec3 cMin = Vec3::Constant(kInf), cMax = Vec3::Constant(-kInf);
  std::array<double, 3> ext{0.0, 0.0, 0.0};
  double coordMax = 0.0;
  // The grid's boxes are the spheres', and a facet's while it is no wider than 4 spheres' boxes (the
  // grid's cells are as wide as its widest box: a container's large facets would make one cell of
  // everything). Wider facets are `wide`: they scan the sweep list themselves (a long thin triangle
  // meets few bounds), and a second grid of the same cells holds each in every cell its box
  // overlaps, so that a grid box's candidates among them are those sharing one of its cells (testing
  // every grid box against every wide one was O(N F): seconds for a drum of 8000 triangles).
  // Unbounded walls scan the list and are every grid box's candidates.
  enum Kind : std::uint8_t { kSmall, kWide, kUnbounded };
  std::vector<std::uint8_t> kind(n, kSmall);
  std::vector<std::uint32_t> small, wide, unbounded;
  Vec3 sphereWidth = Vec3::Zero();
  for (std::size_t i = 0; i < n; ++i)
    if (!p.isBoundary(i) && allFinite(lo_[i]) && allFinite(hi_[i])) sphereWidth = sphereWidth.cwiseMax(hi_[i] - lo_[i]);
  for (std::size_t i = 0; i < n; ++i) {
    const auto id = static_cast<std::uint32_t>(i);
    if (!(allFinite(lo_[i]) && allFinite(hi_[i]))) {
      kind[i] = kUnbounded;
      unbounded.push_back(id);
    } else if (p.isBoundary(i) && ((hi_[i] - lo_[i]).array() > 4.0 * sphereWidth.array()).any()) {
      kind[i] = kWide;
      wide.push_back(id);
    } else {
      small.push_back(id);
      const Vec3 c = 0.5 * (lo_[i] + hi_[i]);
      cMin = cMin.cwiseMin(c);
      cMax = cMax.cwiseMax(c);
      for (int w = 0; w < 3; ++w) ext[w] = std::max(ext[w], hi_[i][w] - lo_[i][w]);
      coordMax = std::max({coordMax, lo_[i].cwiseAbs().maxCoeff(), hi_[i].cwiseAbs().maxCoeff()});
    }
  }
  // The new pairs in order, then added with the columns reserved for all of them at once.
  std::vector<std::pair<std::uint32_t, std::uint32_t>> pairs;
  const auto add = [&](std::uint32_t a, std::uint32_t b) {
    if (pairAllowed(p, a, b) && overlap(a, b) && contacts.find(a, b) < 0) pairs.emplace_back(a, b);
  };
  std::optional<detail::CellGrid> grid, wideGrid;
  if (!small.empty()) {
    std::array<double, 3> width{};
    const Vec3 extent = cMax - cMin;
    for (int w = 0; w < 3; ++w) width[w] = ext[w] * (1.0 + 1e-6) + 1e-12 * coordMax + 1e-300;
    const auto m = detail::CellGrid::counts(extent, width, small.size(), false);
    for (int w = 0; w < 3; ++w) width[w] = std::max(width[w], extent[w] / static_cast<double>(m[w]));
    grid.emplace(cMin, width, m, false);
    grid->build(small, [&](std::uint32_t i) { return Vec3(0.5 * (lo_[i] + hi_[i])); });
    // (cellOf is monotonic along each axis: two overlapping boxes share the cell of a common point)
    wideGrid.emplace(cMin, width, m, false);
    wideGrid->buildBoxes(
        wide, [&](std::uint32_t i) { return lo_[i]; }, [&](std::uint32_t i) { return hi_[i]; });
  }
  const double perCell = grid ? static_cast<double>(small.size()) /
                                    static_cast<double>(grid->counts()[0] * grid->counts()[1] * grid->counts()[2])
                              : 0.0;  // (candidates in a cell, on average)
  // (whether a facet may pair with a facet or a wall: not in the shape-pair table)
  const bool boundariesPair =
      shapePair(Shape::Facet, Shape::Facet).type.has_value() || shapePair(Shape::Facet, Shape::Wall).type.has_value();
  std::vector<std::uint32_t> found;
  for (std::size_t k = 0; k < L.size(); ++k) {
    if (isUpper(L[k].tag)) continue;
    const std::uint32_t a = idOf(L[k].tag);
    // A wide box scans the list unless its cells hold fewer candidates than that (a triangle wide
    // along x and thin across: a drum's cap); a grid box that overlaps it has its centre in its
    // cells or the next ones.
    const auto first = grid ? grid->cellOf(lo_[a]) : std::array<std::int64_t, 3>{};
    const auto last = grid ? grid->cellOf(hi_[a]) : std::array<std::int64_t, 3>{};
    bool literal = kind[a] == kUnbounded || !grid;
    if (kind[a] == kWide && grid) {
      double cells = 1.0;
      for (int w = 0; w < 3; ++w)
        cells *= static_cast<double>(std::min(last[w] + 1, grid->counts()[w] - 1) -
                                     std::max(first[w] - 1, std::int64_t{0}) + 1);
      literal = static_cast<double>(rankHi[a] - k) <= cells * perCell;
    }
    if (literal) {
      for (std::size_t m = k + 1; m < L.size(); ++m) {
        const std::uint32_t t = L[m].tag;
        if (isUpper(t)) {
          if (idOf(t) == a) break;
          continue;
        }
        add(a, idOf(t));
      }
      continue;
    }
    found.clear();
    // (only the pairs add() would take are sorted: a facet's boxes overlap many other facets')
    const auto candidate = [&](std::uint32_t b) {
      if (rankLo[b] > k && rankLo[b] < rankHi[a] && overlap(a, b) && pairAllowed(p, a, b)) found.push_back(rankLo[b]);
    };
    if (kind[a] == kSmall) grid->forNeighbours(grid->cellOf(0.5 * (lo_[a] + hi_[a])), candidate);
    else grid->forCells({first[0] - 1, first[1] - 1, first[2] - 1}, {last[0] + 1, last[1] + 1, last[2] + 1}, candidate);
    if (kind[a] == kSmall || boundariesPair) {
      wideGrid->forCells(first, last, candidate);
      for (const std::uint32_t b : unbounded) candidate(b);
    }
    std::sort(found.begin(), found.end());
    found.erase(std::unique(found.begin(), found.end()), found.end());  // (a wide box in several cells)
    for (const std::uint32_t r : found) add(a, idOf(L[r].tag));
  }
  contacts.reserve(contacts.size() + pairs.size());
  for (const auto& [a, b] : pairs) contacts.add(makeContact(p, materials, a, b, law));
}

void Collider::insertionSort(int w, const Particles& p, const std::vector<Material>& materials,
                             ContactStore& contacts) {
  auto& L = lists_[w];
  for (Bound& b : L) b.coord = isUpper(b.tag) ? hi_[idOf(b.tag)][w] : lo_[idOf(b.tag)][w];
  const std::size_t n = L.size();
  for (std::size_t i = 1; i < n; ++i) {
    const Bound cur = L[i];
    std::size_t j = i;
    // Move cur left while it should come before its left neighbour; each swap is an inversion.
    while (j > 0 && (cur.coord < L[j - 1].coord ||
                     (cur.coord == L[j - 1].coord && !isUpper(cur.tag) && isUpper(L[j - 1].tag)))) {
      if (isUpper(cur.tag) != isUpper(L[j - 1].tag))
        handleInversion(idOf(cur.tag), idOf(L[j - 1].tag), p, materials, contacts);
      L[j] = L[j - 1];
      --j;
    }
    L[j] = cur;
  }
}

}  // namespace dem
