#pragma once
// Contact geometry (seed "Local contact coordinates", Woo's L6Geom): the shape-pair table, the
// periodic image of particle 2, and the local frame at formation.
//
// Shape pairs. Every shape pair reduces to two (equivalent) spheres: its geometry function gives the
// directly computed unit normal n, normal displacement u_N and the radii r1, r2 of the equivalent
// spheres, from PairInput (d = x2 - x1 with x2 the reference point of body 2 or of its periodic
// image, the radii, and the wall's normal). Each pair is a struct with
//   type                          its ContactType (the index of its row in kShapePairTable);
//   geometry<T>(PairInput<T>)     n, u_N, r1, r2 for one contact (T = double) or a batch (lanes);
//   mayTouch(PairInput<double>)   a cheap test, true whenever geometry() can give u_N < 0;
// and is listed once in ShapePairs (the table the contact kernel and every other user walk):
//   sphere-sphere  n = d/|d|, u_N = |d| - (r1 + r2)
//   sphere-wall    particle 1 = the sphere, particle 2 = the wall (a plane through x2 with unit
//                  normal a, the side the sphere lives on): the wall is the "equivalent sphere" of
//                  radius 0 at the sphere centre's projection on the plane; n = -a, u_N = -d.a - r1
//                  (a half-space: a centre behind the plane is a deep overlap).
//   sphere-facet   particle 1 = the sphere, particle 2 = the facet (a triangle of a mesh wall):
//                  the facet is the equivalent sphere of radius 0 at the triangle's point closest
//                  to the sphere's centre (facet_geometry.hpp; secondPoint gives it as x2), moving
//                  with the facet's rigid motion there (secondPointVelocity); n = d/|d|,
//                  u_N = |d| - r1 as for two spheres. Inside the face n is the triangle's normal
//                  to round-off; at an edge or a vertex the contact is a point contact. Which of a
//                  sphere's contacts with the facets of one mesh count is decided before the
//                  kernel (facet_contacts.hpp: no double contact at shared edges and vertices).
//
// Sign conventions (all contacts):
//   n      unit normal from particle 1 towards particle 2;
//   u_N    normal displacement, negative in compression (overlap = -u_N); the contact is real
//          while u_N < 0;
//   c      contact point, the middle of the overlap zone: c = x1 + (r1 + u_N/2) n;
//   b_i    branch vectors c - x_i = a1 n and -a2 n with a_i = r_i + u_N/2 (both on the normal),
//          used both for the relative velocity and as torque arms (the contact's power is F . v_r,
//          and a rigid rotation of the pair gives exactly v_r = 0);
//   frame  rotation local -> global (a unit quaternion); its local x axis is n; "T" of the seed is
//          its transpose, local = frame^T global;
//   v_r    velocity of particle 2's contact point relative to particle 1's:
//          v_r = (v2 + w2 x b2) - (v1 + w1 x b1) = (v2 - v1) - (a1 w1 + a2 w2) x n;
//   u_T    sum of T_mid v_r dt (local y, z), the displacement of 2 relative to 1 (the law's shear
//          state: contact_law.hpp);
//   phi    sum of T_mid (w2 - w1) dt (local: twist about x, bending about y and z).
// Velocities are the mid-step values v(t - dt/2); positions are on-step x(t).

#include "components.hpp"
#include "contacts.hpp"
#include "facet_geometry.hpp"
#include "particles.hpp"

#include <cmath>
#include <optional>
#include <tuple>

namespace dem {

// What a shape pair's geometry reads: d = x2 - x1 (x2: body 2's reference point, shifted to the
// periodic image), the radii and, for a wall, its unit normal `axis`.
template <class T>
struct PairInput {
  V3<T> d;
  T r1, r2;
  V3<T> axis;
};

// What it gives (see the conventions above).
template <class T>
struct PairGeometry {
  V3<T> n;
  T uN;
  T r1, r2;  // radii of the equivalent spheres: arms a_i = r_i + u_N/2
};

struct SphereSphere {
  static constexpr ContactType type = ContactType::SphereSphere;
  // seed: n = (x2 - x1)/|x2 - x1|, u_x = |x2 - x1| - (r1 + r2)
  template <class T>
  [[gnu::always_inline]] static PairGeometry<T> geometry(const PairInput<T>& s) {
    using std::sqrt;
    const T dist = sqrt(dot(s.d, s.d));
    const auto apart = dist > 0.0;
    const T inv = 1.0 / select(apart, dist, T(1.0));
    return {{select(apart, inv * s.d.x, T(1.0)), select(apart, inv * s.d.y, T(0.0)), select(apart, inv * s.d.z, T(0.0))},
            dist - (s.r1 + s.r2),
            s.r1,
            s.r2};
  }
  // |d|^2 < (r1 + r2)^2 with a margin of a few ulps: true whenever |d| - (r1 + r2) < 0.
  static bool mayTouch(const PairInput<double>& s) {
    const double rs = s.r1 + s.r2;
    return dot(s.d, s.d) < rs * rs * (1.0 + 1e-12);
  }
};

struct SphereWall {
  static constexpr ContactType type = ContactType::SphereWall;
  // signed distance of the centre from the plane, (x1 - p).a = -d.a; u_N = distance - r1
  template <class T>
  [[gnu::always_inline]] static PairGeometry<T> geometry(const PairInput<T>& s) {
    const T dist = -dot(s.d, s.axis);
    return {{-s.axis.x, -s.axis.y, -s.axis.z}, dist - s.r1, s.r1, T(0.0)};
  }
  static bool mayTouch(const PairInput<double>& s) { return geometry(s).uN < 0.0; }
};

struct SphereFacet {
  static constexpr ContactType type = ContactType::SphereFacet;
  // d = (closest point of the triangle) - x1, r2 = 0: the sphere-sphere formulas
  template <class T>
  [[gnu::always_inline]] static PairGeometry<T> geometry(const PairInput<T>& s) {
    return SphereSphere::geometry(s);
  }
  static bool mayTouch(const PairInput<double>& s) { return SphereSphere::mayTouch(s); }
};

// The shape-pair table: every registered pair, in ContactType order.
using ShapePairs = std::tuple<SphereSphere, SphereWall, SphereFacet>;

// The contact type of two shapes, and whether the pair's particle 1 is the second of them (Box2D's
// s_registers[typeA][typeB]); none for two walls.
struct ShapePairEntry {
  std::optional<ContactType> type;
  bool swap = false;
};
inline constexpr ShapePairEntry kShapePairTable[3][3] = {
    /* sphere */ {{ContactType::SphereSphere, false}, {ContactType::SphereWall, false}, {ContactType::SphereFacet, false}},
    /* wall   */ {{ContactType::SphereWall, true}, {std::nullopt, false}, {std::nullopt, false}},
    /* facet  */ {{ContactType::SphereFacet, true}, {std::nullopt, false}, {std::nullopt, false}}};
inline ShapePairEntry shapePair(Shape a, Shape b) {
  return kShapePairTable[static_cast<std::size_t>(a)][static_cast<std::size_t>(b)];
}

// f(Pair{}) for the pair of type t.
template <class F, std::size_t I = 0>
decltype(auto) withShapePair(ContactType t, F&& f) {
  using Pair = std::tuple_element_t<I, ShapePairs>;
  if constexpr (I + 1 < std::tuple_size_v<ShapePairs>) {
    if (t != Pair::type) return withShapePair<F, I + 1>(t, std::forward<F>(f));
  }
  return f(Pair{});
}

template <class M>
[[gnu::always_inline]] inline bool anyLane(const M& m) {
  if constexpr (std::is_same_v<M, bool>) return m;
  else return any_of(m);
}
template <class M>
[[gnu::always_inline]] inline bool allLanes(const M& m) {
  if constexpr (std::is_same_v<M, bool>) return m;
  else return all_of(m);
}

// The geometry of contacts whose types are `type` (one type, or one per lane): each registered
// pair's geometry where its type occurs.
template <class T, std::size_t I = 0>
[[gnu::always_inline]] inline PairGeometry<T> shapePairGeometry(const PairInput<T>& s, const T& type, PairGeometry<T> g = {}) {
  using Pair = std::tuple_element_t<I, ShapePairs>;
  const auto mine = type == T(static_cast<double>(Pair::type));
  if constexpr (I == 0) {
    if (allLanes(mine)) return Pair::geometry(s);  // one shape pair throughout (the common case)
  }
  if (anyLane(mine)) {
    const PairGeometry<T> h = Pair::geometry(s);
    g = {{select(mine, h.n.x, g.n.x), select(mine, h.n.y, g.n.y), select(mine, h.n.z, g.n.z)},
         select(mine, h.uN, g.uN),
         select(mine, h.r1, g.r1),
         select(mine, h.r2, g.r2)};
  }
  if constexpr (I + 1 < std::tuple_size_v<ShapePairs>) return shapePairGeometry<T, I + 1>(s, type, g);
  else return g;
}

// Periodic cell: particle 2 of a contact with cellDist k enters as its image, position x2 + H k
// (seed "Collision detection in periodic cell") and mid-step velocity v2 + V k with
// V = L_{n-1/2} (H_n + H_{n-1})/2 = (H_n - H_{n-1})/dt, the velocity of the image point H k between
// t_n-1 and t_n (Woo's intrShiftVel; verification theory 4.3: image velocity v_j + L H k).
struct PeriodicShift {
  Mat3 H, vel;
};
// The shift H k of particle 2's image (zero outside a cell, H = nullptr), and the position and
// mid-step velocity of particle 2 (id2) as a contact with cell distance k sees it.
inline Vec3 imageOffset(const Eigen::Vector3i& k, const Mat3* H) {
  if (H && !k.isZero()) return *H * k.cast<double>();
  return Vec3::Zero();
}
inline Vec3 secondPosition(const Particles& p, std::uint32_t id2, const Eigen::Vector3i& k, const Mat3* H) {
  if (H && !k.isZero()) return p.pos[id2] + *H * k.cast<double>();
  return p.pos[id2];
}
inline Vec3 secondVelocity(const Particles& p, std::uint32_t id2, const Eigen::Vector3i& k, const PeriodicShift* shift) {
  if (shift && !k.isZero()) return p.vel[id2] + shift->vel * k.cast<double>();
  return p.vel[id2];
}

// The point of body 2 that a contact of type `type` sees: its reference point (shifted to the
// periodic image), or for a facet the point of the facet's image (facet + H k) closest to body 1's
// centre (closestPointOnFacetImage). A wall's image is its plane through x_wall + H k.
// (always inlined: the contact loop's tests of the contacts that are not real call it for each)
[[gnu::always_inline]] inline Vec3 secondPoint(const Particles& p, ContactType type, std::uint32_t i1, std::uint32_t i2,
                                               const Eigen::Vector3i& k, const Mat3* H) {
  if (type == ContactType::SphereFacet)
    return closestPointOnFacetImage(p.facets[p.shapeIndex[i2]], p.pos[i1], imageOffset(k, H));
  return secondPosition(p, i2, k, H);
}
// The mid-step velocity of that point x2: body 2's (or its image's), or the rigid motion of the
// facet's image at x2: v_facet + V k + w x (x2 - (x_facet + H k)).
inline Vec3 secondPointVelocity(const Particles& p, ContactType type, std::uint32_t i2, const Vec3& x2,
                                const Eigen::Vector3i& k, const PeriodicShift* shift) {
  const Vec3 v = secondVelocity(p, i2, k, shift);
  if (type == ContactType::SphereFacet)
    return v + p.angVel[i2].cross(x2 - secondPosition(p, i2, k, shift ? &shift->H : nullptr));
  return v;
}

// The geometry input of a contact (type, bodies i1, i2; x2 = secondPoint of i2).
inline PairInput<double> pairInput(const Particles& p, ContactType type, std::uint32_t i1, std::uint32_t i2, const Vec3& x2) {
  const Vec3 d = x2 - p.pos[i1];
  const Vec3 a = type == ContactType::SphereWall ? p.walls[p.shapeIndex[i2]].normal : Vec3::Zero();
  return {v3(d), p.radius[i1], p.radius[i2], v3(a)};
}
// The geometry of one contact from the table.
inline PairGeometry<double> contactGeometry(const PairInput<double>& s, ContactType type) {
  return shapePairGeometry(s, static_cast<double>(type));
}
[[gnu::always_inline]] inline bool mayTouch(const PairInput<double>& s, ContactType type) {
  return withShapePair(type, [&](auto pair) { return decltype(pair)::mayTouch(s); });
}

// Local frame at formation: x = n; y = n x e normalised, e = e_y when |n_y| < |n_z| and e_z
// otherwise (seed "Contact formation": y in the xz or the xy plane); z = x x y; as a unit quaternion.
template <class T>
[[gnu::always_inline]] inline Q4<T> formationFrame(const V3<T>& n) {
  using std::abs;
  using std::sqrt;
  const auto useY = abs(n.y) < abs(n.z);
  // n x e_y = (-n_z, 0, n_x), n x e_z = (n_y, -n_x, 0)
  V3<T> y{select(useY, -n.z, n.y), select(useY, T(0.0), -n.x), select(useY, n.x, T(0.0))};
  y = y - dot(y, n) * n;
  y = (1.0 / sqrt(dot(y, y))) * y;
  const V3<T> z = cross(n, y);
  // quaternion of the rotation matrix with columns (n, y, z) (Shepperd: from the largest of
  // 1 + trace and the diagonal terms)
  const T r00 = n.x, r11 = y.y, r22 = z.z;
  const T trace = r00 + r11 + r22;
  const auto wCase = trace > 0.0;
  const auto xCase = !wCase && r00 >= r11 && r00 >= r22;
  const auto yCase = !wCase && !xCase && r11 >= r22;  // (else the z case)
  const T s = sqrt(select(wCase, trace + 1.0,
                          select(xCase, r00 - r11 - r22 + 1.0, select(yCase, r11 - r22 - r00 + 1.0, r22 - r00 - r11 + 1.0))));
  const T f = 0.5 / s, h = 0.5 * s;
  // off-diagonal terms: R_ij = column j, component i
  const T dW_x = (y.z - z.y) * f, dW_y = (z.x - n.z) * f, dW_z = (n.y - y.x) * f;  // (R21 - R12), (R02 - R20), (R10 - R01)
  const T sXY = (y.x + n.y) * f, sXZ = (z.x + n.z) * f, sYZ = (z.y + y.z) * f;      // (R01 + R10), (R02 + R20), (R12 + R21)
  Q4<T> q{select(wCase, h, select(xCase, dW_x, select(yCase, dW_y, dW_z))), select(wCase, dW_x, select(xCase, h, select(yCase, sXY, sXZ))),
          select(wCase, dW_y, select(xCase, sXY, select(yCase, h, sYZ))), select(wCase, dW_z, select(xCase, sXZ, select(yCase, sYZ, h)))};
  const T inv = 1.0 / sqrt(q.w * q.w + q.x * q.x + q.y * q.y + q.z * q.z);
  return {inv * q.w, inv * q.x, inv * q.y, inv * q.z};
}

}  // namespace dem
