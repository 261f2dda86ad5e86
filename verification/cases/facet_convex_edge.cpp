// Case: a sphere rolling over the convex ridge of a triangle mesh pivots about the edge: one contact
//       throughout, its normal turning continuously from one face's normal to the other's, and the
//       tangential spring carried across (issue 21: "across a convex edge: the expected change of
//       normal").
// Scenario:  a roof of four triangles, faces sloping down at 3 degrees from the ridge y = 0, z = 0
//            (a convex edge of 6 degrees); R = 0.01 m, rho = 2800 kg/m^3, E = 1e7 Pa (kn = E R),
//            ks/kn = 2/7, mu = 0.5, gravity 9.81 m/s^2, no damping; the sphere starts resting on
//            the face y < 0 (its centre at y = -0.3 R), rolling towards the ridge at 0.08 m/s
//            (slower than sqrt(g R cos 3deg) = 0.31 m/s: it stays in contact over the edge);
//            dt = 0.1 sqrt(m/kn), 0.4 s.
// Reference: rigid-body kinematics of the contact: on a face the normal is the face's; while the
//            centre is over the edge (within the faces' normals at the ridge) the contact is the
//            edge point's and the normal points from it to the centre, turning at |v|/R.
// Tolerance: theory bound: the normal's change per step is at most |v| dt / R (the centre moves by
//            |v| dt at distance R - u_N from the pivot); the quantity is the largest change per
//            step over |v_max| dt / R, gated at 1.5 (the overlap's change adds O(u_N/R) = 1e-6).
//            Round-off: the normal at the end, on the far face, is that face's (64 eps), and at
//            most one facet contact is real at any step (exact). The sphere crosses (checked).
#include "cases/facet_tools.hpp"
#include "cases/registry.hpp"
#include "solver/builders.hpp"

#include <cmath>
#include <limits>
#include <numbers>

namespace dem::verify {

namespace {

// Faces z = -s |y| for |x| <= w, 0 <= |y| <= w (two triangles each side; the ridge's vertices shared).
TriangleMesh ridge(double s, double w) {
  TriangleMesh m;
  const Vec3 a(-w, 0, 0), b(w, 0, 0);
  addQuad(m, a, Vec3(-w, -w, -s * w), Vec3(w, -w, -s * w), b);
  addQuad(m, a, b, Vec3(w, w, -s * w), Vec3(-w, w, -s * w));
  return m;
}

}  // namespace

Case facetConvexEdgeCase() {
  const double R = 0.01, mu = 0.5, g = 9.81, angle = 3.0 * std::numbers::pi / 180.0, v0 = 0.08;
  const Material mat{2800.0, 1e7, 2.0 / 7.0, std::atan(mu)};
  const double m = sphereMass(R, mat.density), kn = mat.young * R;
  Case c;
  c.name = "facet_convex_edge";
  c.title = "sphere rolling over a mesh's convex ridge: one contact, the normal turning about the edge";
  c.dts = {0.1 * std::sqrt(m / kn)};
  const double duration = 0.4;
  c.quantities.push_back(
      theoryBound("pivot |dn| <= |v| dt / R", {"normal_turn_ratio", [](double) { return 1.5; }, std::nullopt}));
  c.quantities.push_back(roundOffTolerance(
      {"final_normal_err", [](double) { return 64 * std::numeric_limits<double>::epsilon(); }, std::nullopt},
      "64 eps"));
  c.quantities.push_back(roundOffTolerance({"extra_facet_contacts", [](double) { return 0.0; }, std::nullopt}));
  c.quantities.push_back(roundOffTolerance({"not_crossed", [](double) { return 0.0; }, std::nullopt}));
  c.run = [=](double dt) {
    Scene s;
    s.materials = {mat};
    s.particles.addMesh(ridge(std::tan(angle), 0.1), 0);
    const Vec3 faceA(0, -std::sin(angle), std::cos(angle));  // the y < 0 face's upward normal (z = s y)
    const Vec3 faceB(0, std::sin(angle), std::cos(angle));   // the y > 0 face's (z = -s y)
    const double y0 = -0.3 * R, overlap = m * g * std::cos(angle) / kn;
    // resting on face A: centre at distance R - overlap along its normal from the surface point
    const Vec3 surface(0, y0, -std::tan(angle) * std::abs(y0));
    ParticleSpec b = sphereSpec(surface + (R - overlap) * faceA, R, mat.density);
    const Vec3 dir = faceA.cross(Vec3::UnitX()).normalized();  // up the slope, towards +y
    b.vel = v0 * (dir.y() > 0 ? dir : Vec3(-dir));
    b.angVel = faceA.cross(b.vel) / R;  // rolling
    const std::uint32_t sphere = static_cast<std::uint32_t>(s.particles.add(b));
    s.gravity = Vec3(0, 0, -g);
    s.setDt(dt);
    s.setDamping(0.0);
    const auto steps = static_cast<std::uint64_t>(std::ceil(duration / dt));
    Vec3 nPrev = Vec3::Zero();
    double turn = 0.0, vMax = 0.0;
    int extra = 0;
    for (std::uint64_t k = 0; k < steps; ++k) {
      s.step();
      extra = std::max(extra, realFacetContacts(s, sphere) - 1);
      Vec3 n = Vec3::Zero();
      for (std::size_t j = 0; j < s.contacts.size(); ++j)
        if (s.contacts.real(j)) n = s.contacts.normal(j);
      vMax = std::max(vMax, s.particles.vel[sphere].norm());
      if (!nPrev.isZero() && !n.isZero()) turn = std::max(turn, (n - nPrev).norm());
      nPrev = n;
    }
    RunOutput out;
    out.errors["normal_turn_ratio"] = turn / (vMax * dt / R);
    out.errors["final_normal_err"] = (nPrev + faceB).norm();  // (n points from the sphere into the face)
    out.errors["extra_facet_contacts"] = static_cast<double>(extra);
    out.errors["not_crossed"] = s.particles.pos[sphere].y() > R ? 0.0 : 1.0;
    return out;
  };
  return c;
}

}  // namespace dem::verify
