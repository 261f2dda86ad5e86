#pragma once
// The shape table (Box2D v3's per-shape functions): what the collider asks of one body of each
// shape, written once per shape. The geometry of a pair of shapes is in the shape-pair table
// (contact_geometry.hpp). Each shape is a struct with
//   kind                          its Shape (the index of its row);
//   box(p, i, x, dL, lo, hi)      the axis-aligned box of body i placed at x, grown by the sweep
//                                 length dL (collider.hpp), unbounded (+-inf) where the shape is;
// and is listed once in Shapes.
//   sphere  x +- (r + dL)
//   wall    unbounded, except along an axis-aligned plane's axis: [x_a - dL, x_a + dL]; an oblique
//           plane is unbounded in every axis.
//   facet   the box of its vertices (now) +- dL.

#include "particles.hpp"

#include <cstddef>
#include <limits>
#include <tuple>
#include <utility>

namespace dem {

struct SphereShape {
  static constexpr Shape kind = Shape::Sphere;
  static void box(const Particles& p, std::size_t i, const Vec3& x, double dL, Vec3& lo, Vec3& hi) {
    const double h = p.radius[i] + dL;
    lo = x.array() - h;
    hi = x.array() + h;
  }
};

struct WallShape {
  static constexpr Shape kind = Shape::Wall;
  static void box(const Particles& p, std::size_t i, const Vec3& x, double dL, Vec3& lo, Vec3& hi) {
    constexpr double inf = std::numeric_limits<double>::infinity();
    lo = Vec3::Constant(-inf);
    hi = Vec3::Constant(inf);
    const int axis = p.walls[p.shapeIndex[i]].axis;
    if (axis >= 0) {
      lo[axis] = x[axis] - dL;
      hi[axis] = x[axis] + dL;
    }
  }
};

struct FacetShape {
  static constexpr Shape kind = Shape::Facet;
  // (a facet's vertices are its mesh's, placed before the collider runs; x is not read)
  static void box(const Particles& p, std::size_t i, const Vec3&, double dL, Vec3& lo, Vec3& hi) {
    const Facet& f = p.facets[p.shapeIndex[i]];
    lo = f.v[0].cwiseMin(f.v[1]).cwiseMin(f.v[2]).array() - dL;
    hi = f.v[0].cwiseMax(f.v[1]).cwiseMax(f.v[2]).array() + dL;
  }
};

// The shape table: every shape, in Shape order.
using Shapes = std::tuple<SphereShape, WallShape, FacetShape>;

// f(S{}) for the shape s.
template <class F, std::size_t I = 0>
decltype(auto) withShape(Shape s, F&& f) {
  using S = std::tuple_element_t<I, Shapes>;
  if constexpr (I + 1 < std::tuple_size_v<Shapes>) {
    if (s != S::kind) return withShape<F, I + 1>(s, std::forward<F>(f));
  }
  return f(S{});
}

// The box of body i at x with sweep length dL, from its shape's row.
inline void shapeBox(const Particles& p, std::size_t i, const Vec3& x, double dL, Vec3& lo, Vec3& hi) {
  withShape(p.shape[i], [&](auto s) { decltype(s)::box(p, i, x, dL, lo, hi); });
}

}  // namespace dem
