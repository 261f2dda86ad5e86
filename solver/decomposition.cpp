#include "decomposition.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>
#include <string>

namespace dem {

namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();

// s wrapped into [0, 1) (a round-off 1.0 from a tiny negative s is taken as 0).
double wrapUnit(double s) {
  const double w = s - std::floor(s);
  return w >= 1.0 ? 0.0 : w;
}

}  // namespace

Vec3 Decomposition::coordinates(const Vec3& x) const {
  if (!H_) return x;
  const Vec3 s = invH_ * x;
  return {wrapUnit(s[0]), wrapUnit(s[1]), wrapUnit(s[2])};
}

void Decomposition::setCell(const Mat3& H) {
  H_ = H;
  invH_ = H.inverse();
  for (int i = 0; i < 3; ++i) rowNorm_[i] = invH_.row(i).norm();
}

Decomposition Decomposition::bisect(std::span<const Vec3> x, int ranks, const std::optional<Mat3>& H) {
  if (ranks < 1) throw std::invalid_argument("decomposition: " + std::to_string(ranks) + " ranks; expected at least 1");
  Decomposition d;
  Brick root{Vec3::Constant(-kInf), Vec3::Constant(kInf)};
  if (H) {
    d.setCell(*H);
    root = {Vec3::Zero(), Vec3::Ones()};
  }
  std::vector<Vec3> s(x.size());
  for (std::size_t i = 0; i < x.size(); ++i) s[i] = d.coordinates(x[i]);
  d.bricks_.resize(static_cast<std::size_t>(ranks));
  d.build(s, 0, s.size(), 0, ranks, root);
  return d;
}

int Decomposition::build(std::vector<Vec3>& s, std::size_t begin, std::size_t end, int r0, int r1, const Brick& box) {
  const int index = static_cast<int>(nodes_.size());
  nodes_.emplace_back();
  if (r1 - r0 == 1) {
    nodes_[static_cast<std::size_t>(index)].rank = r0;
    bricks_[static_cast<std::size_t>(r0)] = box;
    return index;
  }
  const int lowerRanks = (r1 - r0) / 2;
  const std::size_t count = end - begin;
  // the lower half's share of the bodies, in proportion to its ranks (rounded to nearest)
  const std::size_t k = (count * static_cast<std::size_t>(lowerRanks) + static_cast<std::size_t>(r1 - r0) / 2) /
                        static_cast<std::size_t>(r1 - r0);
  // the axis along which the bodies spread farthest (in a cell, scaled by the side's length)
  int axis = 0;
  double cut = 0.0;
  if (count > 0) {
    Vec3 lo = s[begin], hi = s[begin];
    for (std::size_t i = begin; i < end; ++i) {
      lo = lo.cwiseMin(s[i]);
      hi = hi.cwiseMax(s[i]);
    }
    Vec3 extent = hi - lo;
    if (H_)
      for (int a = 0; a < 3; ++a) extent[a] *= H_->col(a).norm();
    for (int a = 1; a < 3; ++a)
      if (extent[a] > extent[axis]) axis = a;
    const auto before = [axis](const Vec3& p, const Vec3& q) { return p[axis] < q[axis]; };
    if (k == count) {
      cut = std::nextafter(hi[axis], kInf);  // every body in the lower half
    } else {
      // the k-th smallest coordinate: a value, whatever the bodies' order
      std::nth_element(s.begin() + static_cast<std::ptrdiff_t>(begin),
                       s.begin() + static_cast<std::ptrdiff_t>(begin + k), s.begin() + static_cast<std::ptrdiff_t>(end),
                       before);
      cut = s[begin + k][axis];
    }
  } else {
    // no bodies: the middle of the box (or of its finite side)
    const double lo = box.lo[0], hi = box.hi[0];
    cut = std::isfinite(lo) && std::isfinite(hi) ? 0.5 * (lo + hi)
          : std::isfinite(lo)                    ? lo
          : std::isfinite(hi)                    ? hi
                                                 : 0.0;
  }
  const auto mid =
      std::partition(s.begin() + static_cast<std::ptrdiff_t>(begin), s.begin() + static_cast<std::ptrdiff_t>(end),
                     [&](const Vec3& p) { return p[axis] < cut; });
  const auto split = static_cast<std::size_t>(mid - s.begin());
  Brick lowerBox = box, upperBox = box;
  lowerBox.hi[axis] = cut;
  upperBox.lo[axis] = cut;
  const int lower = build(s, begin, split, r0, r0 + lowerRanks, lowerBox);
  const int upper = build(s, split, end, r0 + lowerRanks, r1, upperBox);
  Node& n = nodes_[static_cast<std::size_t>(index)];
  n.axis = axis;
  n.cut = cut;
  n.lower = lower;
  n.upper = upper;
  return index;
}

int Decomposition::owner(const Vec3& x) const {
  const Vec3 s = coordinates(x);
  const Node* n = &nodes_[0];
  while (n->axis >= 0) n = &nodes_[static_cast<std::size_t>(s[n->axis] < n->cut ? n->lower : n->upper)];
  return n->rank;
}

void Decomposition::ranksNear(const Vec3& x, double reach, int self, std::vector<int>& out) const {
  out.clear();
  const Vec3 s = coordinates(x);
  const Vec3 margin = H_ ? Vec3(reach * rowNorm_) : Vec3::Constant(reach);
  if (H_ && margin.maxCoeff() >= 0.5)
    throw std::invalid_argument("decomposition: the pair-detection reach " + std::to_string(reach) +
                                " exceeds half the cell's thickness (fraction " + std::to_string(margin.maxCoeff()) +
                                "); a brick would meet its own periodic image");
  // every image of the coordinate along axis a (in a cell: s - 1, s, s + 1)
  const auto images = [&](int a, auto test) { return test(s[a]) || (H_ && (test(s[a] - 1.0) || test(s[a] + 1.0))); };
  // A walk of the bisection tree: a lower child's bricks end at the cut along its axis, an upper
  // child's start there, so a child none of whose grown bricks can hold the coordinate is skipped.
  // At a leaf the brick itself is tested, axis by axis.
  int stack[64];
  int top = 0;
  stack[top++] = 0;
  while (top > 0) {
    const Node& n = nodes_[static_cast<std::size_t>(stack[--top])];
    if (n.axis < 0) {
      if (n.rank == self) continue;
      const Brick& b = bricks_[static_cast<std::size_t>(n.rank)];
      bool near = true;
      for (int a = 0; a < 3 && near; ++a)
        near = images(a, [&](double c) { return b.lo[a] - margin[a] <= c && c <= b.hi[a] + margin[a]; });
      if (near) out.push_back(n.rank);
      continue;
    }
    const double m = margin[n.axis];
    if (images(n.axis, [&](double c) { return n.cut - m <= c; })) stack[top++] = n.upper;
    if (images(n.axis, [&](double c) { return c <= n.cut + m; })) stack[top++] = n.lower;
  }
  std::sort(out.begin(), out.end());
}

}  // namespace dem
