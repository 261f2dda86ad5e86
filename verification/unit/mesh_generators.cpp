// Unit: the mesh generators (solver/mesh_generators.hpp).
// - The closed box and the capped cylinder are closed 2-manifolds with consistent orientation: every
//   directed edge (a, b) of a triangle appears once, and its reverse (b, a) once (shared vertices
//   are the same bits). The open box, the open cylinder and the hopper have exactly their rims as
//   boundary edges.
// - Enclosed volume by the divergence theorem, V = -(1/6) sum v0 . (v1 x v2) (minus: the normals
//   point inward): the box's exactly to round-off, the cylinder's with n segments that of the
//   inscribed prism, n/2 r^2 sin(2 pi/n) h. The hopper's lateral area is that of its n planar
//   trapezoids.
// - Every normal points inward: towards the box's centre, towards the axis (the sides), towards the
//   other cap (the caps).
// - transformMesh: areas times s^2, area normals R (s^2 n), the volume times s^3, closedness kept.
// - Invalid arguments throw std::invalid_argument naming the argument.
#include "solver/mesh_generators.hpp"

#include <boost/test/unit_test.hpp>
#include "expect_error.hpp"

#include <array>
#include <cmath>
#include <limits>
#include <map>
#include <numbers>

using namespace dem;
using dem::test::expectError;
namespace tt = boost::test_tools;

namespace mesh_test {

using Point = std::array<double, 3>;
using Edge = std::pair<Point, Point>;

Point key(const Vec3& p) { return {p[0], p[1], p[2]}; }

// How often each directed edge (v_i, v_i+1) occurs in the triangles.
std::map<Edge, int> directedEdges(const TriangleMesh& mesh) {
  std::map<Edge, int> edges;
  for (const Triangle& t : mesh)
    for (std::size_t i = 0; i < 3; ++i) ++edges[{key(t.v[i]), key(t.v[(i + 1) % 3])}];
  return edges;
}

// Edges used twice in one direction (an orientation flip or a fold): must be none.
int repeatedEdges(const TriangleMesh& mesh) {
  int n = 0;
  for (const auto& [e, count] : directedEdges(mesh)) n += count > 1;
  return n;
}

// Directed edges whose reverse is not in the mesh: 0 for a closed surface with consistent orientation.
int boundaryEdges(const TriangleMesh& mesh) {
  const std::map<Edge, int> edges = directedEdges(mesh);
  int n = 0;
  for (const auto& [e, count] : edges) n += edges.count({e.second, e.first}) == 0 ? count : 0;
  return n;
}

// The volume enclosed by inward-facing triangles (divergence theorem).
double enclosedVolume(const TriangleMesh& mesh) {
  double sum = 0.0;
  for (const Triangle& t : mesh) sum += t.v[0].dot(t.v[1].cross(t.v[2]));
  return -sum / 6.0;
}

double area(const Triangle& t) { return 0.5 * t.areaNormal().norm(); }

Vec3 centroid(const Triangle& t) { return (t.v[0] + t.v[1] + t.v[2]) / 3.0; }

// The point of the axis (through c along unit a) nearest to p.
Vec3 onAxis(const Vec3& c, const Vec3& a, const Vec3& p) { return c + a * a.dot(p - c); }

// Each side triangle's normal is perpendicular to the axis and points towards it; each cap's is
// along the axis towards the cylinder's middle. Returns the number of triangles that do not.
int outwardCylinderTriangles(const TriangleMesh& mesh, const Vec3& base, const Vec3& a, double h) {
  int bad = 0;
  const Vec3 middle = base + 0.5 * h * a;
  for (const Triangle& t : mesh) {
    const Vec3 n = t.areaNormal().normalized(), g = centroid(t);
    const bool cap = std::abs(n.dot(a)) > 0.5;
    if (cap) bad += !(n.dot(middle - g) > 0.0 && std::abs(std::abs(n.dot(a)) - 1.0) < 1e-12);
    else bad += !(n.dot(onAxis(base, a, g) - g) > 0.0 && std::abs(n.dot(a)) < 1e-12);
  }
  return bad;
}

double prismVolume(int n, double r, double h) { return 0.5 * n * r * r * std::sin(2.0 * std::numbers::pi / n) * h; }

}  // namespace mesh_test

BOOST_AUTO_TEST_SUITE(mesh_generators)

using namespace mesh_test;  // (inside the suite's namespace: no clash in a unity build)

BOOST_AUTO_TEST_CASE(closed_box_is_a_closed_manifold_with_its_volume_and_inward_normals) {
  const Vec3 lo(-0.3, 0.1, 0.2), hi(1.7, 0.65, 1.1);
  const TriangleMesh box = boxMesh(lo, hi, false);
  BOOST_TEST(box.size() == 12u);
  BOOST_TEST(repeatedEdges(box) == 0);
  BOOST_TEST(boundaryEdges(box) == 0);
  const Vec3 d = hi - lo;
  BOOST_TEST(enclosedVolume(box) == d[0] * d[1] * d[2], tt::tolerance(1e-14));
  double total = 0.0;
  for (const Triangle& t : box) total += area(t);
  BOOST_TEST(total == 2.0 * (d[0] * d[1] + d[1] * d[2] + d[2] * d[0]), tt::tolerance(1e-14));
  const Vec3 centre = 0.5 * (lo + hi);
  for (const Triangle& t : box) {
    const Vec3 n = t.areaNormal().normalized();
    BOOST_TEST(n.dot(centre - centroid(t)) > 0.0);
    BOOST_TEST(n.cwiseAbs().maxCoeff() == 1.0);  // axis-aligned faces: exact unit normals
  }
}

BOOST_AUTO_TEST_CASE(open_box_lacks_its_top_and_has_the_rim_as_boundary) {
  const Vec3 lo(0, 0, 0), hi(1, 2, 3);
  const TriangleMesh box = boxMesh(lo, hi, true);
  BOOST_TEST(box.size() == 10u);
  BOOST_TEST(repeatedEdges(box) == 0);
  BOOST_TEST(boundaryEdges(box) == 4);
  for (const Triangle& t : box) {
    BOOST_TEST(t.areaNormal().normalized().dot(0.5 * (lo + hi) - centroid(t)) > 0.0);
    BOOST_TEST(!(t.v[0][2] == 3.0 && t.v[1][2] == 3.0 && t.v[2][2] == 3.0));  // nothing on z = hi.z
  }
}

BOOST_AUTO_TEST_CASE(drum_is_a_closed_manifold_with_the_prism_volume_and_inward_normals) {
  const Vec3 base(0.2, -1.0, 0.5);
  for (const int n : {3, 4, 7, 32, 100}) {
    for (const Vec3& axis : {Vec3(0, 0, 1), Vec3(1, 2, -0.5).normalized(), Vec3(-1, 0, 0)}) {
      const double r = 0.35, h = 1.3;
      const TriangleMesh drum = cylinderMesh(base, axis, r, h, n, true, true);
      BOOST_TEST_INFO("segments " << n << ", axis " << axis.transpose());
      BOOST_TEST(drum.size() == static_cast<std::size_t>(4 * n));
      BOOST_TEST(repeatedEdges(drum) == 0);
      BOOST_TEST(boundaryEdges(drum) == 0);
      BOOST_TEST(enclosedVolume(drum) == prismVolume(n, r, h), tt::tolerance(1e-13));
      BOOST_TEST(outwardCylinderTriangles(drum, base, axis, h) == 0);
    }
  }
}

BOOST_AUTO_TEST_CASE(cylinder_caps_are_optional_and_the_rims_are_the_boundary) {
  const Vec3 base(0, 0, 0), axis(0, 0, 1);
  const int n = 12;
  const TriangleMesh open = cylinderMesh(base, axis, 1.0, 2.0, n, false, false);
  BOOST_TEST(open.size() == static_cast<std::size_t>(2 * n));
  BOOST_TEST(repeatedEdges(open) == 0);
  BOOST_TEST(boundaryEdges(open) == 2 * n);
  BOOST_TEST(outwardCylinderTriangles(open, base, axis, 2.0) == 0);
  for (const bool bottom : {false, true}) {
    const TriangleMesh cup = cylinderMesh(base, axis, 1.0, 2.0, n, bottom, !bottom);
    BOOST_TEST(cup.size() == static_cast<std::size_t>(3 * n));
    BOOST_TEST(repeatedEdges(cup) == 0);
    BOOST_TEST(boundaryEdges(cup) == n);
    BOOST_TEST(outwardCylinderTriangles(cup, base, axis, 2.0) == 0);
  }
  // Every vertex on the circle of the radius (the side's) or at a cap's centre.
  for (const Triangle& t : cylinderMesh(base, axis, 1.0, 2.0, n, true, true))
    for (const Vec3& p : t.v) {
      const double rho = std::hypot(p[0], p[1]);
      BOOST_TEST((std::abs(rho - 1.0) < 1e-15 || rho == 0.0));
    }
}

BOOST_AUTO_TEST_CASE(axis_is_normalised) {
  const TriangleMesh a = cylinderMesh(Vec3(1, 2, 3), Vec3(0, 0, 5), 0.5, 1.0, 6, true, true);
  const TriangleMesh b = cylinderMesh(Vec3(1, 2, 3), Vec3(0, 0, 1), 0.5, 1.0, 6, true, true);
  BOOST_REQUIRE(a.size() == b.size());
  for (std::size_t k = 0; k < a.size(); ++k)
    for (std::size_t i = 0; i < 3; ++i) BOOST_TEST((a[k].v[i] == b[k].v[i]));
}

BOOST_AUTO_TEST_CASE(hopper_is_an_open_frustum_with_inward_normals) {
  const Vec3 outlet(0.1, 0.2, -0.4), axis = Vec3(0.3, -0.2, 1.0).normalized();
  const double r_outlet = 0.05, r_top = 0.4, h = 0.6;
  for (const int n : {3, 16, 64}) {
    const TriangleMesh hopper = coneMesh(outlet, axis, r_outlet, r_top, h, n);
    BOOST_TEST_INFO("segments " << n);
    BOOST_TEST(hopper.size() == static_cast<std::size_t>(2 * n));
    BOOST_TEST(repeatedEdges(hopper) == 0);
    BOOST_TEST(boundaryEdges(hopper) == 2 * n);  // the outlet and the top rim
    double total = 0.0;
    for (const Triangle& t : hopper) {
      const Vec3 nrm = t.areaNormal().normalized(), g = centroid(t);
      BOOST_TEST(nrm.dot(onAxis(outlet, axis, g) - g) > 0.0);  // towards the axis
      BOOST_TEST(nrm.dot(axis) > 0.0);                         // and up, into the funnel
      total += area(t);
    }
    // n isosceles trapezoids: parallel sides the chords 2 r sin(pi/n), height from the apothems
    const double s = std::sin(std::numbers::pi / n), c = std::cos(std::numbers::pi / n);
    const double slant = std::hypot(h, (r_top - r_outlet) * c);
    BOOST_TEST(total == n * (r_outlet + r_top) * s * slant, tt::tolerance(1e-13));
    // the rims' vertices on their circles
    for (const Triangle& t : hopper)
      for (const Vec3& p : t.v) {
        const double height = axis.dot(p - outlet), rho = (p - onAxis(outlet, axis, p)).norm();
        const bool atOutlet = std::abs(height) < 1e-14 && std::abs(rho - r_outlet) < 1e-14;
        const bool atTop = std::abs(height - h) < 1e-14 && std::abs(rho - r_top) < 1e-14;
        BOOST_TEST((atOutlet || atTop));
      }
  }
}

BOOST_AUTO_TEST_CASE(transform_scales_areas_and_volume_and_keeps_orientation) {
  const Vec3 base(0, 0, 0), axis(0, 0, 1);
  const double r = 0.5, h = 2.0, s = 2.5;
  const TriangleMesh drum = cylinderMesh(base, axis, r, h, 24, true, true);
  const Quat q(Eigen::AngleAxisd(0.7, Vec3(1, -2, 0.5).normalized()));
  const Vec3 t(1.0, -2.0, 3.0);
  const TriangleMesh moved = transformMesh(drum, s, q, t);
  BOOST_REQUIRE(moved.size() == drum.size());
  const Mat3 R = q.toRotationMatrix();
  for (std::size_t k = 0; k < drum.size(); ++k) {
    BOOST_TEST(area(moved[k]) == s * s * area(drum[k]), tt::tolerance(1e-13));
    BOOST_TEST((moved[k].areaNormal() - s * s * (R * drum[k].areaNormal())).norm() <= 1e-13 * s * s);
    for (std::size_t i = 0; i < 3; ++i) BOOST_TEST((moved[k].v[i] - (R * (s * drum[k].v[i]) + t)).norm() <= 1e-14);
  }
  BOOST_TEST(repeatedEdges(moved) == 0);
  BOOST_TEST(boundaryEdges(moved) == 0);
  BOOST_TEST(enclosedVolume(moved) == s * s * s * enclosedVolume(drum), tt::tolerance(1e-12));
  BOOST_TEST(outwardCylinderTriangles(moved, t, R * axis, s * h) == 0);
  // a quarter turn about z moves (1, 0, 0) to (0, s, 0) + t; a quaternion of any length is normalised
  const TriangleMesh one = {{{Vec3(1, 0, 0), Vec3(0, 1, 0), Vec3(0, 0, 1)}}};
  const Quat quarter(Eigen::AngleAxisd(0.5 * std::numbers::pi, Vec3::UnitZ()));
  const Quat longer(3.0 * quarter.w(), 3.0 * quarter.x(), 3.0 * quarter.y(), 3.0 * quarter.z());
  const TriangleMesh turned = transformMesh(one, s, longer, t);
  BOOST_TEST((turned[0].v[0] - (Vec3(0, s, 0) + t)).norm() <= 1e-14);
}

BOOST_AUTO_TEST_CASE(invalid_arguments_name_the_argument) {
  const double nan = std::numeric_limits<double>::quiet_NaN(), inf = std::numeric_limits<double>::infinity();
  const Vec3 o(0, 0, 0), z(0, 0, 1);
  expectError([&] { boxMesh(Vec3(0, 0, 0), Vec3(1, 0, 1), false); }, "boxMesh", "hi must exceed lo");
  expectError([&] { boxMesh(Vec3(nan, 0, 0), Vec3(1, 1, 1), false); }, "boxMesh", "lo must be finite");
  expectError([&] { boxMesh(Vec3(0, 0, 0), Vec3(1, inf, 1), true); }, "boxMesh", "hi must be finite");
  expectError([&] { cylinderMesh(o, z, 1.0, 1.0, 2, true, true); }, "cylinderMesh", "segments", "at least 3");
  expectError([&] { cylinderMesh(o, z, 0.0, 1.0, 8, true, true); }, "cylinderMesh", "radius");
  expectError([&] { cylinderMesh(o, z, 1.0, -1.0, 8, true, true); }, "cylinderMesh", "height");
  expectError([&] { cylinderMesh(o, z, nan, 1.0, 8, true, true); }, "cylinderMesh", "radius");
  expectError([&] { cylinderMesh(o, Vec3(0, 0, 0), 1.0, 1.0, 8, true, true); }, "cylinderMesh", "axis_unit");
  expectError([&] { cylinderMesh(o, Vec3(1e-200, 1e-200, 0), 1.0, 1.0, 8, true, true); }, "axis_unit", "non-zero");
  expectError([&] { cylinderMesh(o, Vec3(0, nan, 1), 1.0, 1.0, 8, true, true); }, "cylinderMesh", "axis_unit");
  expectError([&] { cylinderMesh(Vec3(inf, 0, 0), z, 1.0, 1.0, 8, true, true); }, "cylinderMesh", "base_centre");
  expectError([&] { coneMesh(o, z, 0.0, 1.0, 1.0, 8); }, "coneMesh", "r_outlet");
  expectError([&] { coneMesh(o, z, 0.1, inf, 1.0, 8); }, "coneMesh", "r_top");
  expectError([&] { coneMesh(o, z, 0.1, 1.0, 0.0, 8); }, "coneMesh", "height");
  expectError([&] { coneMesh(o, z, 0.1, 1.0, 1.0, -4); }, "coneMesh", "segments");
  expectError([&] { coneMesh(o, Vec3(0, 0, 0), 0.1, 1.0, 1.0, 8); }, "coneMesh", "axis_unit");
  expectError([&] { coneMesh(Vec3(0, nan, 0), z, 0.1, 1.0, 1.0, 8); }, "coneMesh", "outlet_centre");
  const TriangleMesh box = boxMesh(o, Vec3(1, 1, 1), false);
  expectError([&] { transformMesh(box, 0.0, Quat::Identity(), o); }, "transformMesh", "scale");
  expectError([&] { transformMesh(box, -2.0, Quat::Identity(), o); }, "transformMesh", "scale");
  expectError([&] { transformMesh(box, 1.0, Quat(0, 0, 0, 0), o); }, "transformMesh", "rotation");
  expectError([&] { transformMesh(box, 1.0, Quat(nan, 0, 0, 0), o); }, "transformMesh", "rotation");
  expectError([&] { transformMesh(box, 1.0, Quat::Identity(), Vec3(0, 0, inf)); }, "transformMesh", "translation");
}

BOOST_AUTO_TEST_SUITE_END()
