// Case: a sphere sliding and then rolling across the shared edges and vertices of a flat triangle
//       mesh moves exactly as on the analytic wall (issue 21: facets, shared edges).
// Scenario:  the plane z = 0 as an 8 x 8 grid of squares of side 2R, each split into two triangles
//            (alternating diagonals: vertices shared by up to six facets), against the wall z = 0;
//            R = 0.01 m, rho = 2800 kg/m^3, E = 1e7 Pa (kn = E R, a wall of the sphere's
//            material), ks/kn = 2/7, mu = 0.3, gravity 9.81 m/s^2; the sphere starts at its static
//            overlap with v0 = (1, 0.35, 0) m/s, no spin; dt = 0.1 sqrt(m/kn); 0.15 s (slip ends at
//            t* = 2 |v0| / (7 mu g) = 0.10 s, then rolling with a loaded shear spring).
// Reference: the same sphere on the analytic wall (its own verification: sliding_to_rolling).
// Tolerance: round-off: inside a face the facet contact is the wall contact with the normal d/|d|
//            (within an ulp of the wall's exact normal); at the shared edges one contact counts and
//            takes over the spring (facet_contacts.hpp), so nothing else differs. Differences grow
//            at most linearly: 16 eps per step relative to R, |v0| and m g (roundOffBound). A lost
//            spring or a doubled force at an edge would show at 1e-4 or more. The sphere crosses
//            at least 10 facets (checked) and never has more than one real facet contact.
#include "cases/facet_tools.hpp"
#include "cases/registry.hpp"
#include "solver/builders.hpp"

#include <cmath>
#include <set>

namespace dem::verify {

namespace {

Scene rollingScene(const Material& mat, double R, const Vec3& x, const Vec3& v, bool mesh, double dt) {
  Scene s;
  s.materials = {mat};
  if (mesh) s.particles.addMesh(gridMesh(-0.02, -0.02, 0.0, 2 * R, 8), 0);
  else s.particles.addWall(Vec3::Zero(), Vec3::UnitZ(), 0);
  ParticleSpec a = sphereSpec(x, R, mat.density);
  a.vel = v;
  s.particles.add(a);
  s.gravity = Vec3(0, 0, -9.81);
  s.setDt(dt);
  s.setDamping(0.0);
  return s;
}

}  // namespace

Case facetRollingCase() {
  const double R = 0.01, mu = 0.3, g = 9.81;
  const Material mat{2800.0, 1e7, 2.0 / 7.0, std::atan(mu)};
  const double m = sphereMass(R, mat.density), kn = mat.young * R;
  const Vec3 v0(1.0, 0.35, 0.0);
  const double duration = 0.15;
  Case c;
  c.name = "facet_rolling";
  c.title = "sphere sliding and rolling across the edges of a flat triangle mesh: as on the analytic wall";
  c.dts = {0.1 * std::sqrt(m / kn)};
  const auto steps = static_cast<std::uint64_t>(std::ceil(duration / c.dts[0]));
  addComparisonQuantities(c, steps, "", {"extra_facet_contacts", "facets_short_of_10"});
  c.run = [=](double dt) {
    const Vec3 x(0.0, 0.0, R - m * g / kn);
    Scene wall = rollingScene(mat, R, x, v0, false, dt);
    Scene mesh = rollingScene(mat, R, x, v0, true, dt);
    const auto sphere = static_cast<std::uint32_t>(mesh.particles.size() - 1);
    Divergence d;
    int extra = 0;
    std::set<std::uint32_t> facetsTouched;
    Series ts{"rolling", {"t", "v_x", "R_w_y", "facet"}, {}};
    for (std::uint64_t k = 0; k < steps; ++k) {
      wall.step();
      mesh.step();
      accumulate(d, mesh, sphere, wall, 1, R, R, v0.norm(), m * g);
      extra = std::max(extra, realFacetContacts(mesh, sphere) - 1);
      std::uint32_t facet = 0;
      for (std::size_t j = 0; j < mesh.contacts.size(); ++j)
        if (mesh.contacts.real(j) && mesh.contacts.type(j) == ContactType::SphereFacet) facet = mesh.contacts.id2(j);
      facetsTouched.insert(facet);
      if (k % 2000 == 0)
        ts.rows.push_back({mesh.time, mesh.particles.vel[sphere].x(), R * mesh.particles.angVel[sphere].y(),
                           static_cast<double>(facet)});
    }
    RunOutput out;
    storeDivergence(out, d, "");
    out.errors["extra_facet_contacts"] = static_cast<double>(extra);
    out.errors["facets_short_of_10"] = std::max(0.0, 10.0 - static_cast<double>(facetsTouched.size()));
    out.series.push_back(std::move(ts));
    return out;
  };
  return c;
}

}  // namespace dem::verify
