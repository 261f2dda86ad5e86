// Unit: prescribed mesh motion (solver/mesh_motion.hpp) is placed from the time, not accumulated:
// a drum turning at a constant rate for 1e6 steps has every vertex where the exact rotation by
// w t puts it (to the round-off of one evaluation), its angular velocity is w exactly, and its
// facets' velocities are the chords of their centroids; a scene with mesh walls and spheres keeps
// the vertices on the exact motion too.
#include "solver/mesh_motion.hpp"
#include "solver/builders.hpp"
#include "solver/mesh_generators.hpp"
#include "solver/scene.hpp"

#include <boost/test/unit_test.hpp>

#include <cmath>
#include <limits>

using namespace dem;

namespace {

// x0 turned about the y axis through c by the angle w t (long double trigonometry), plus v t.
Vec3 exactPoint(const Vec3& x0, const Vec3& c, double w, double t, const Vec3& v) {
  const long double a = static_cast<long double>(w) * static_cast<long double>(t);
  const long double cs = std::cos(a), sn = std::sin(a);
  const long double dx = x0.x() - c.x(), dz = x0.z() - c.z();
  // rotation about +y: x' = cos a x + sin a z, z' = -sin a x + cos a z
  return Vec3(static_cast<double>(c.x() + cs * dx + sn * dz) + v.x() * t, x0.y() + v.y() * t,
              static_cast<double>(c.z() - sn * dx + cs * dz) + v.z() * t);
}

}  // namespace

BOOST_AUTO_TEST_SUITE(mesh_motion)

BOOST_AUTO_TEST_CASE(a_drum_turns_without_drift_for_a_million_steps) {
  Particles p;
  const MeshMotion motion{Vec3(0.01, 0.0, -0.02), Vec3::Zero(), Vec3(0, 3.0, 0), 0.0};
  p.addMesh(cylinderMesh(Vec3(0.01, 0.0, -0.02), Vec3::UnitY(), 0.05, 0.03, 12, true, true), 0, motion, "drum");
  const double dt = 1e-5;
  const std::uint64_t steps = 1'000'000;
  double t = 0.0, worst = 0.0;
  for (std::uint64_t n = 1; n <= steps; ++n) {
    t += dt;  // as Scene::step advances the time
    if (n % 1000 != 0) continue;
    placeMeshes(p, t, dt);
    for (const Facet& f : p.facets)
      for (int k = 0; k < 3; ++k)
        worst = std::max(worst, (f.v[k] - exactPoint(f.v0[k], motion.centre, 3.0, t, Vec3::Zero())).norm());
  }
  // one evaluation of c + R (x0 - c): a few ulps of the drum's size 0.07 m (no growth with the steps)
  BOOST_TEST(worst < 16 * std::numeric_limits<double>::epsilon() * 0.07);
  for (std::size_t i = 0; i < p.size(); ++i) BOOST_TEST((p.angVel[i] == Vec3(0, 3.0, 0)));
  // the facets' velocities are the chords (x(t) - x(t - dt)) / dt of their centroids
  const Facet& f = p.facets[0];
  const Vec3 c0 = (f.v0[0] + f.v0[1] + f.v0[2]) / 3.0;
  const Vec3 chord = (meshPoint(motion, c0, t) - meshPoint(motion, c0, t - dt)) / dt;
  BOOST_TEST((p.vel[p.meshes[0].first] - chord).norm() == 0.0);
}

BOOST_AUTO_TEST_CASE(a_moving_mesh_in_a_scene_stays_on_its_motion) {
  DepositionSpec spec;
  spec.n = 50;
  spec.meshBox = true;
  Scene s = depositionScene(spec);
  // the box slides along x at 0.1 m/s and turns slowly about z
  s.particles.meshes[0].motion = {Vec3(0.05, 0.05, 0.0), Vec3(0.1, 0.0, 0.0), Vec3(0.0, 0.0, 0.5), 0.0};
  s.run(2000);
  const MeshMotion& m = s.particles.meshes[0].motion;
  double worst = 0.0;
  for (const Facet& f : s.particles.facets)
    for (int k = 0; k < 3; ++k) worst = std::max(worst, (f.v[k] - meshPoint(m, f.v0[k], s.time)).norm());
  BOOST_TEST(worst == 0.0);  // placed at the scene's time after the step, by the same function
  BOOST_TEST(s.contacts.countReal(ContactType::SphereFacet) > 0u);
}

BOOST_AUTO_TEST_SUITE_END()
