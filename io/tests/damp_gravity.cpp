// Unit: engine.dampGravity. With Cundall damping (0.3) and dampGravity false a thrown sphere falls
// at exactly g: its position is the parabola x0 + v0 t + g t^2 / 2 and its mid-step velocity
// v0 + g (t - dt/2) (the leapfrog with the first-step adjustment is exact for a constant force),
// to round-off; with dampGravity true (the default) the damping acts on gravity too (the vertical velocity off the
// parabola's by a fraction of lambda g t). The flag survives a checkpoint.
#include "io/checkpoint.hpp"
#include "io/scene_loader.hpp"

#include <boost/test/unit_test.hpp>

using namespace dem;
using namespace dem::io;

namespace {
Scene thrownSphere(bool dampGravity) {
  const std::string text = R"({
    "materials": [{"name": "m", "density": 2600, "young": 1e7}],
    "particles": [{"pos": [0, 0, 1], "radius": 0.01, "material": "m", "vel": [1, 0.5, 2], "angVel": [0, 3, 0]}],
    "engine": {"dt": 1e-3, "steps": 400, "gravity": [0, 0, -9.81], "damping": 0.3, "dampGravity": )" +
                           std::string(dampGravity ? "true" : "false") + "}}";
  return loadSceneText(text, "damp_gravity.json").scene;
}
}  // namespace

BOOST_AUTO_TEST_SUITE(damp_gravity)

BOOST_AUTO_TEST_CASE(free_fall_at_exactly_g) {
  Scene s = thrownSphere(false);
  BOOST_TEST(!s.dampGravity());
  const Vec3 x0(0, 0, 1), v0(1, 0.5, 2), g(0, 0, -9.81);
  const double dt = 1e-3;
  for (int n = 1; n <= 400; ++n) {
    s.step();
    const double t = n * dt;
    const Vec3 x = x0 + v0 * t + 0.5 * g * t * t, v = v0 + g * (t - 0.5 * dt);
    BOOST_TEST((s.particles.pos[0] - x).norm() < 1e-13 * (1.0 + x.norm()), "step " << n);
    BOOST_TEST((s.particles.vel[0] - v).norm() < 1e-13 * (1.0 + v.norm()), "step " << n);
  }
  BOOST_TEST(s.particles.angVel[0].y() == 3.0);  // no torque, nothing damped
  BOOST_TEST(s.energy.dampingDissipated == 0.0);
  const Scene r = sceneFromCheckpointBytes(checkpointBytes(s), "mem");
  BOOST_TEST(!r.dampGravity());
}

BOOST_AUTO_TEST_CASE(damped_gravity_slows_the_fall) {
  Scene s = thrownSphere(true);
  BOOST_TEST(s.dampGravity());
  s.run(400);
  const double t = 0.4, vz = 2.0 - 9.81 * (t - 0.5e-3);
  BOOST_TEST(std::abs(s.particles.vel[0].z() - vz) > 0.05 * 9.81 * t);
  BOOST_TEST(s.energy.dampingDissipated > 0.0);
}

BOOST_AUTO_TEST_SUITE_END()
