#include "spatial_order.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <numeric>

namespace dem {

double farContactShare(const ContactStore& contacts) {
  std::size_t count = 0, far = 0;
  const std::uint32_t* id1 = contacts.id1Data();
  const std::uint32_t* id2 = contacts.id2Data();
  const ContactType* type = contacts.typeData();
  for (std::size_t k = 0; k < contacts.activeEnd(); ++k) {
    if (type[k] != ContactType::SphereSphere) continue;
    ++count;
    far += (id1[k] > id2[k] ? id1[k] - id2[k] : id2[k] - id1[k]) > kLocalityWindow;
  }
  return count ? static_cast<double>(far) / static_cast<double>(count) : 0.0;
}

std::vector<std::uint32_t> spatialOrder(const Particles& p, const Cell* cell) {
  const std::size_t n = p.size();
  std::vector<std::uint32_t> newSlot(n), movable;
  std::iota(newSlot.begin(), newSlot.end(), std::uint32_t{0});
  for (std::size_t i = 0; i < n; ++i)
    if (p.movable(i)) movable.push_back(static_cast<std::uint32_t>(i));
  if (movable.size() < 2) return newSlot;
  // places (in a cell: wrapped into it, x = H frac(H^-1 x)), their extent and the mean diameter
  std::vector<Vec3> x(movable.size());
  Vec3 lo = Vec3::Constant(INFINITY), hi = Vec3::Constant(-INFINITY);
  double diameter = 0.0;
  for (std::size_t m = 0; m < movable.size(); ++m) {
    const std::uint32_t i = movable[m];
    Vec3 xi = p.pos[i];
    if (cell) {
      Vec3 s = cell->invH() * xi;
      for (int w = 0; w < 3; ++w) s[w] -= std::floor(s[w]);
      xi = cell->H() * s;
    }
    x[m] = xi;
    lo = lo.cwiseMin(xi);
    hi = hi.cwiseMax(xi);
    diameter += 2.0 * p.radius[i];
  }
  const double h = diameter / static_cast<double>(movable.size());
  if (!(h > 0.0) || !lo.allFinite() || !hi.allFinite()) return newSlot;  // (a non-finite state: left as it is)
  // axes from the longest extent to the shortest
  std::array<int, 3> axis{0, 1, 2};
  const Vec3 extent = hi - lo;
  std::sort(axis.begin(), axis.end(), [&](int a, int b) { return extent[a] > extent[b] || (extent[a] == extent[b] && a < b); });
  const auto cellOf = [&](const Vec3& xi, int w) { return static_cast<std::int64_t>(std::floor((xi[w] - lo[w]) / h)); };
  // within a slab, bodies with a blocked axis or aspherical ones after the others: the integrator
  // steps runs of free spheres in lanes
  std::vector<std::array<std::int64_t, 5>> key(movable.size());
  for (std::size_t m = 0; m < movable.size(); ++m) {
    const std::uint32_t i = movable[m];
    const std::int64_t special = p.blocked[i] != 0 || p.isAspherical(i);
    key[m] = {cellOf(x[m], axis[0]), special, cellOf(x[m], axis[1]), cellOf(x[m], axis[2]), std::int64_t{p.userId[i]}};
  }
  std::vector<std::uint32_t> order(movable.size());
  std::iota(order.begin(), order.end(), std::uint32_t{0});
  std::sort(order.begin(), order.end(), [&](std::uint32_t a, std::uint32_t b) { return key[a] < key[b]; });
  // the m-th body of the order takes the m-th movable slot
  for (std::size_t m = 0; m < movable.size(); ++m) newSlot[movable[order[m]]] = movable[m];
  return newSlot;
}

}  // namespace dem
