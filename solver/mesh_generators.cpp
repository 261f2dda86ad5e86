#include "mesh_generators.hpp"

#include "exact_text.hpp"

#include <cmath>
#include <cstdio>
#include <numbers>
#include <stdexcept>
#include <string>
#include <vector>

namespace dem {

namespace {

[[noreturn]] void refuse(const char* function, const std::string& what) {
  throw std::invalid_argument(std::string(function) + ": " + what);
}

void requireFinite(const char* function, const char* name, const Vec3& v) {
  if (!allFinite(v)) refuse(function, std::string(name) + " must be finite, got " + exactText(v));
}

void requirePositive(const char* function, const char* name, double x) {
  if (!(std::isfinite(x) && x > 0.0))
    refuse(function, std::string(name) + " must be positive and finite, got " + exactText(x));
}

void requireSegments(const char* function, int segments) {
  if (segments < 3) refuse(function, "segments must be at least 3, got " + std::to_string(segments));
}

// The axis normalised; it must be unit after normalising (finite, and not so small that its
// squared norm underflows).
Vec3 unitAxis(const char* function, const Vec3& axis) {
  requireFinite(function, "axis_unit", axis);
  const Vec3 a = axis.normalized();
  if (!(std::abs(a.norm() - 1.0) <= 1e-12))
    refuse(function, "axis_unit must be a non-zero vector, got " + exactText(axis));
  return a;
}

// The triangles (a, b, c) and (a, c, d) of the quadrilateral a b c d (counter-clockwise seen from the
// side its normal points to).
void addQuad(TriangleMesh& mesh, const Vec3& a, const Vec3& b, const Vec3& c, const Vec3& d) {
  mesh.push_back({{a, b, c}});
  mesh.push_back({{a, c, d}});
}

// The vertices centre + radius (cos t e1 + sin t e2), t = 2 pi k / n, k = 0 .. n-1, with (e1, e2, axis)
// a right-handed orthonormal frame (so the polygon turns counter-clockwise seen from the axis' tip).
std::vector<Vec3> ring(const Vec3& centre, const Vec3& axis, double radius, int n) {
  Vec3 helper = Vec3::Zero();
  Eigen::Index smallest = 0;
  axis.cwiseAbs().minCoeff(&smallest);
  helper[smallest] = 1.0;
  const Vec3 e1 = axis.cross(helper).normalized(), e2 = axis.cross(e1);
  std::vector<Vec3> points(static_cast<std::size_t>(n));
  for (int k = 0; k < n; ++k) {
    const double t = 2.0 * std::numbers::pi * k / n;
    points[static_cast<std::size_t>(k)] = centre + radius * (std::cos(t) * e1 + std::sin(t) * e2);
  }
  return points;
}

// The band between two rings of the same frame (bottom, then top along the axis): 2 triangles per
// segment, normals towards the axis.
void addBand(TriangleMesh& mesh, const std::vector<Vec3>& bottom, const std::vector<Vec3>& top) {
  const std::size_t n = bottom.size();
  for (std::size_t k = 0; k < n; ++k) {
    const std::size_t next = (k + 1) % n;
    addQuad(mesh, bottom[k], top[k], top[next], bottom[next]);
  }
}

// The fan of triangles (centre, ring k, ring k+1): normal along the axis the ring turns about
// (counter-clockwise), or against it when `reversed`.
void addFan(TriangleMesh& mesh, const Vec3& centre, const std::vector<Vec3>& ring, bool reversed) {
  const std::size_t n = ring.size();
  for (std::size_t k = 0; k < n; ++k) {
    const std::size_t next = (k + 1) % n;
    if (reversed) mesh.push_back({{centre, ring[next], ring[k]}});
    else mesh.push_back({{centre, ring[k], ring[next]}});
  }
}

}  // namespace

// Corner i of the box has x = hi.x when bit 0 of i is set, y when bit 1, z when bit 2; each face's
// corners run counter-clockwise seen from inside.
TriangleMesh boxMesh(const Vec3& lo, const Vec3& hi, bool open_top) {
  requireFinite("boxMesh", "lo", lo);
  requireFinite("boxMesh", "hi", hi);
  for (Eigen::Index a = 0; a < 3; ++a)
    if (!(lo[a] < hi[a]))
      refuse("boxMesh", "hi must exceed lo in every component, got lo = " + exactText(lo) + ", hi = " + exactText(hi));
  const auto c = [&](int i) { return Vec3(i & 1 ? hi[0] : lo[0], i & 2 ? hi[1] : lo[1], i & 4 ? hi[2] : lo[2]); };
  TriangleMesh mesh;
  addQuad(mesh, c(0), c(1), c(3), c(2));                 // z = lo.z, normal +z
  addQuad(mesh, c(0), c(2), c(6), c(4));                 // x = lo.x, normal +x
  addQuad(mesh, c(1), c(5), c(7), c(3));                 // x = hi.x, normal -x
  addQuad(mesh, c(0), c(4), c(5), c(1));                 // y = lo.y, normal +y
  addQuad(mesh, c(2), c(3), c(7), c(6));                 // y = hi.y, normal -y
  if (!open_top) addQuad(mesh, c(4), c(6), c(7), c(5));  // z = hi.z, normal -z
  return mesh;
}

// The side band between the bottom and the top ring, then the caps' fans (bottom: normal +axis,
// top: -axis).
TriangleMesh cylinderMesh(const Vec3& base_centre, const Vec3& axis_unit, double radius, double height, int segments,
                          bool bottom_cap, bool top_cap) {
  requireFinite("cylinderMesh", "base_centre", base_centre);
  const Vec3 axis = unitAxis("cylinderMesh", axis_unit);
  requirePositive("cylinderMesh", "radius", radius);
  requirePositive("cylinderMesh", "height", height);
  requireSegments("cylinderMesh", segments);
  const Vec3 top_centre = base_centre + height * axis;
  const std::vector<Vec3> bottom = ring(base_centre, axis, radius, segments);
  const std::vector<Vec3> top = ring(top_centre, axis, radius, segments);
  TriangleMesh mesh;
  addBand(mesh, bottom, top);
  if (bottom_cap) addFan(mesh, base_centre, bottom, false);
  if (top_cap) addFan(mesh, top_centre, top, true);
  return mesh;
}

// The band between the outlet ring and the top ring.
TriangleMesh coneMesh(const Vec3& outlet_centre, const Vec3& axis_unit, double r_outlet, double r_top, double height,
                      int segments) {
  requireFinite("coneMesh", "outlet_centre", outlet_centre);
  const Vec3 axis = unitAxis("coneMesh", axis_unit);
  requirePositive("coneMesh", "r_outlet", r_outlet);
  requirePositive("coneMesh", "r_top", r_top);
  requirePositive("coneMesh", "height", height);
  requireSegments("coneMesh", segments);
  TriangleMesh mesh;
  addBand(mesh, ring(outlet_centre, axis, r_outlet, segments),
          ring(outlet_centre + height * axis, axis, r_top, segments));
  return mesh;
}

// x -> R (s x) + t on every vertex (the rotation normalised: unit after normalising, like an axis).
TriangleMesh transformMesh(TriangleMesh mesh, double scale, const Quat& rotation, const Vec3& translation) {
  requirePositive("transformMesh", "scale", scale);
  const Quat unit = rotation.normalized();
  if (!allFinite(rotation) || !(std::abs(unit.norm() - 1.0) <= 1e-12))
    refuse("transformMesh", "rotation must be a finite non-zero quaternion, got (w, x, y, z) = (" +
                                exactText(rotation.w()) + ", " + exactText(rotation.x()) + ", " +
                                exactText(rotation.y()) + ", " + exactText(rotation.z()) + ")");
  requireFinite("transformMesh", "translation", translation);
  const Mat3 r = unit.toRotationMatrix();
  for (Triangle& t : mesh)
    for (Vec3& p : t.v) p = r * (scale * p) + translation;
  return mesh;
}

}  // namespace dem
