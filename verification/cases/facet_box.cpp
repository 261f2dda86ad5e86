// Case: a sphere bouncing and rolling in a box of 12 triangles moves as in the box of 6 analytic
//       walls (issue 21: a box of 12 triangles versus 6 analytic walls).
// Scenario:  the box [0, 0.1]^3 m, each face two triangles (the face's diagonal a shared edge, the
//            box's edges concave edges shared by two faces); R = 0.01 m, rho = 2800 kg/m^3,
//            E = 1e7 Pa (kn = E R), ks/kn = 2/7, mu = 0.3, gravity 9.81 m/s^2, no damping
//            (e = 1): the sphere starts resting on the floor at (0.03, 0.04) with v = (1.3, -0.9, 0)
//            m/s and w = (20, -35, 10) rad/s; sliding and rolling, it hits the four side walls
//            while on the floor (two faces at once, across the box's concave edges) and crosses
//            the floor's diagonal many times during 0.5 s (checked: five walls touched, two at once).
// Reference: the same sphere in the box of 6 walls z = 0, 0.1, ... (each wall verified alone by the
//            impact and sliding cases).
// Tolerance: round-off, as facet_rolling: 16 eps per step relative to R, |v0| and the impact force
//            |v0| sqrt(m kn) (the forces are impacts on the walls, not the weight). At a
//            concave edge or corner both faces' contacts count (facet_contacts.hpp), as both
//            walls' do; a missing or doubled contact would differ by O(1).
#include "cases/facet_tools.hpp"
#include "cases/registry.hpp"
#include "solver/builders.hpp"

#include <cmath>

namespace dem::verify {

namespace {

// The six faces of the box [0, L]^3, two triangles each.
TriangleMesh boxTriangles(double L) {
  TriangleMesh m;
  const auto v = [L](int i, int j, int k) { return Vec3(i * L, j * L, k * L); };
  addQuad(m, v(0, 0, 0), v(0, 1, 0), v(1, 1, 0), v(1, 0, 0));  // z = 0
  addQuad(m, v(0, 0, 1), v(1, 0, 1), v(1, 1, 1), v(0, 1, 1));  // z = L
  addQuad(m, v(0, 0, 0), v(1, 0, 0), v(1, 0, 1), v(0, 0, 1));  // y = 0
  addQuad(m, v(0, 1, 0), v(0, 1, 1), v(1, 1, 1), v(1, 1, 0));  // y = L
  addQuad(m, v(0, 0, 0), v(0, 0, 1), v(0, 1, 1), v(0, 1, 0));  // x = 0
  addQuad(m, v(1, 0, 0), v(1, 1, 0), v(1, 1, 1), v(1, 0, 1));  // x = L
  return m;
}

Scene boxScene(const Material& mat, double R, double z0, double L, bool mesh, double dt) {
  Scene s;
  s.materials = {mat};
  if (mesh) {
    s.particles.addMesh(boxTriangles(L), 0);
  } else {
    for (int a = 0; a < 3; ++a) {
      s.particles.addWall(Vec3::Zero(), Vec3::Unit(a), 0);
      s.particles.addWall(L * Vec3::Unit(a), -Vec3::Unit(a), 0);
    }
  }
  ParticleSpec b = sphereSpec(Vec3(0.03, 0.04, z0), R, mat.density);
  b.vel = Vec3(1.3, -0.9, 0.0);
  b.angVel = Vec3(20, -35, 10);
  s.particles.add(b);
  s.gravity = Vec3(0, 0, -9.81);
  s.setDt(dt);
  s.setDamping(0.0);
  return s;
}

}  // namespace

Case facetBoxCase() {
  const double R = 0.01, L = 0.1, mu = 0.3, g = 9.81;
  const Material mat{2800.0, 1e7, 2.0 / 7.0, std::atan(mu)};
  const double m = sphereMass(R, mat.density), kn = mat.young * R, v0 = Vec3(1.3, -0.9, 0.0).norm();
  const double duration = 0.5;
  Case c;
  c.name = "facet_box";
  c.title = "sphere in a box of 12 triangles: as in the box of 6 analytic walls";
  c.dts = {0.1 * std::sqrt(m / kn)};
  const auto steps = static_cast<std::uint64_t>(std::ceil(duration / c.dts[0]));
  addComparisonQuantities(c, steps, "", {"walls_short_of_5", "no_two_face_contact"});
  c.run = [=](double dt) {
    const double z0 = R - m * g / kn;  // resting on the floor
    Scene walls = boxScene(mat, R, z0, L, false, dt);
    Scene mesh = boxScene(mat, R, z0, L, true, dt);
    const auto sa = static_cast<std::uint32_t>(mesh.particles.size() - 1), sb = 6u;
    Divergence d;
    std::uint8_t faces = 0;  // bit a: a wall of axis-pair a (0..5) touched
    int most = 0;            // most real wall contacts at once
    Series ts{"box", {"t", "x", "y", "z"}, {}};
    for (std::uint64_t k = 0; k < steps; ++k) {
      walls.step();
      mesh.step();
      accumulate(d, mesh, sa, walls, sb, R, R, v0, v0 * std::sqrt(m * kn));
      int now = 0;
      for (std::size_t j = 0; j < walls.contacts.size(); ++j)
        if (walls.contacts.real(j)) {
          faces |= static_cast<std::uint8_t>(1u << walls.contacts.id2(j));
          ++now;
        }
      most = std::max(most, now);
      if (k % 500 == 0) {
        const Vec3& x = mesh.particles.pos[sa];
        ts.rows.push_back({mesh.time, x.x(), x.y(), x.z()});
      }
    }
    RunOutput out;
    storeDivergence(out, d, "");
    int touched = 0;
    for (int a = 0; a < 6; ++a) touched += (faces >> a) & 1;
    out.errors["walls_short_of_5"] = static_cast<double>(5 - touched);
    out.errors["no_two_face_contact"] = most >= 2 ? 0.0 : 1.0;
    out.series.push_back(std::move(ts));
    return out;
  };
  return c;
}

}  // namespace dem::verify
