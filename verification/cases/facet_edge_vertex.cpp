// Case: normal impacts on a mesh's convex edge and on its vertex are point contacts: the sphere
//       rebounds as from the analytic wall through that point (issue 21: edge and vertex impacts
//       against the sphere-sphere solution with an infinitely heavy partner of radius 0).
// Scenario:  (edge) a roof of two triangles meeting at the ridge y = 0, z = 0 (faces sloping down at
//            30 degrees on either side); (vertex) the apex at the origin of a pyramid of four
//            triangles (faces sloping down at 30 degrees). R = 0.01 m, rho = 2800 kg/m^3,
//            E = 1e7 Pa (kn = E R, a wall of the sphere's material), no gravity, no damping; the
//            sphere comes down the z axis at 1 m/s (over the ridge at x = 0.003 m) and rebounds;
//            dt = t_c / 50, t_c = pi sqrt(m/kn).
// Reference: the same impact on the wall z = 0 (verified against the one-mass spring by
//            normal_impact_sphere_wall): at the ridge or the apex the closest point lies on the
//            line of motion, so the contact is the wall's with the normal (0, 0, -1) to an ulp.
// Tolerance: round-off, as facet_rolling: 16 eps per step relative to R, |v0| and the impact force
//            |v0| sqrt(m kn). The contacts of the two (four) facets meeting there lie at one
//            point: exactly one counts (facet_contacts.hpp); two would double the force.
#include "cases/facet_tools.hpp"
#include "cases/registry.hpp"
#include "solver/builders.hpp"

#include <cmath>
#include <numbers>

namespace dem::verify {

namespace {

// Ridge along x at y = z = 0, faces falling at slope s to y = -+w.
TriangleMesh roof(double s, double w) {
  TriangleMesh m;
  const Vec3 a(-w, 0, 0), b(w, 0, 0), c(w, -w, -s * w), d(-w, -w, -s * w), e(w, w, -s * w), f(-w, w, -s * w);
  addQuad(m, a, d, c, b);
  addQuad(m, a, b, e, f);
  return m;
}

// Apex at the origin, base square at z = -s w with corners (+-w, +-w).
TriangleMesh pyramid(double s, double w) {
  TriangleMesh m;
  const Vec3 apex = Vec3::Zero();
  const Vec3 c[4] = {{w, w, -s * w}, {-w, w, -s * w}, {-w, -w, -s * w}, {w, -w, -s * w}};
  for (int k = 0; k < 4; ++k) m.push_back({{apex, c[k], c[(k + 1) % 4]}});
  return m;
}

Scene impactScene(const Material& mat, double R, const Vec3& x, double v, const TriangleMesh* mesh, double dt) {
  Scene s;
  s.materials = {mat};
  if (mesh) s.particles.addMesh(*mesh, 0);
  else s.particles.addWall(Vec3::Zero(), Vec3::UnitZ(), 0);
  ParticleSpec b = sphereSpec(x, R, mat.density);
  b.vel = Vec3(0, 0, -v);
  s.particles.add(b);
  s.setDt(dt);
  s.setDamping(0.0);
  return s;
}

}  // namespace

Case facetEdgeVertexCase() {
  const double R = 0.01, v0 = 1.0;
  const Material mat{2800.0, 1e7, 2.0 / 7.0, 0.4};
  const double m = sphereMass(R, mat.density), kn = mat.young * R;
  const double tc = std::numbers::pi * std::sqrt(m / kn);
  const double slope = std::tan(std::numbers::pi / 6);
  Case c;
  c.name = "facet_edge_vertex";
  c.title = "normal impact on a mesh's convex edge and vertex: the wall's point contact";
  c.dts = {tc / 50};
  // from 0.2 R above the surface, through the contact and 0.2 R back
  const double duration = 0.4 * R / v0 + 1.2 * tc;
  const auto steps = static_cast<std::uint64_t>(std::ceil(duration / c.dts[0]));
  for (const std::string w : {"edge_", "vertex_"})
    addComparisonQuantities(c, steps, w, {"extra_contacts", "not_rebounded"});
  c.run = [=](double dt) {
    RunOutput out;
    const TriangleMesh meshes[2] = {roof(slope, 0.05), pyramid(slope, 0.05)};
    const Vec3 starts[2] = {Vec3(0.003, 0, 1.2 * R), Vec3(0, 0, 1.2 * R)};
    const char* names[2] = {"edge", "vertex"};
    for (int t = 0; t < 2; ++t) {
      Scene wall = impactScene(mat, R, starts[t], v0, nullptr, dt);
      Scene mesh = impactScene(mat, R, starts[t], v0, &meshes[t], dt);
      const auto sa = static_cast<std::uint32_t>(mesh.particles.size() - 1);
      Divergence d;
      int extra = 0;
      for (std::uint64_t k = 0; k < steps; ++k) {
        wall.step();
        mesh.step();
        accumulate(d, mesh, sa, wall, 1, R, R, v0, v0 * std::sqrt(m * kn));
        extra = std::max(extra, realFacetContacts(mesh, sa) - 1);
      }
      const std::string w = names[t];
      storeDivergence(out, d, w + "_");
      out.errors[w + "_extra_contacts"] = static_cast<double>(extra);
      // (the scenario is what it claims: the sphere came back up at about v0)
      out.errors[w + "_not_rebounded"] = mesh.particles.vel[sa].z() > 0.99 * v0 ? 0.0 : 1.0;
    }
    return out;
  };
  return c;
}

}  // namespace dem::verify
