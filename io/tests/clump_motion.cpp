// Unit: a clump's vel and angVel in the scene file. After load, the momentum and angular momentum
// of the members (about the centroid) equal m_c v and I_c w, with m_c, the centroid and I_c computed
// here from the member spheres (parallel-axis theorem: I_c = sum 2/5 m r^2 E + m (|d|^2 E - d d^T));
// the clump body carries v, w and L = I_c w; without the keys a clump of resting members is at rest.
#include "io/scene_loader.hpp"

#include <boost/test/unit_test.hpp>

#include <numbers>

using namespace dem;
using namespace dem::io;

namespace {
std::string clumpScene(const std::string& motion) {
  return R"({
    "materials": [{"name": "m", "density": 1200, "young": 1e7}],
    "particles": [{"pos": [0, 0, 0.5], "radius": 0.05, "material": "m", "vel": [9, 9, 9]},
                  {"pos": [0.1, 0, 0.5], "radius": 0.05, "material": "m"},
                  {"pos": [0, 0.08, 0.52], "radius": 0.03, "material": "m"}],
    "clumps": [{"members": [0, 1, 2])" +
         motion + R"(}],
    "engine": {"dt": 1e-5, "steps": 1}
  })";
}
}  // namespace

BOOST_AUTO_TEST_SUITE(clump_motion)

BOOST_AUTO_TEST_CASE(momentum_and_angular_momentum_after_load) {
  const Vec3 v(2, -1, 0.5), w(1, 3, 10);
  const LoadedScene l = loadSceneText(clumpScene(R"(, "vel": [2, -1, 0.5], "angVel": [1, 3, 10])"), "c.json");
  const Particles& p = l.scene.particles;
  const std::size_t body = 3;
  BOOST_REQUIRE(p.isClump[body]);
  // mass properties from the spheres
  double m = 0.0;
  Vec3 xc = Vec3::Zero();
  for (std::size_t i = 0; i < 3; ++i) {
    const double mi = 1200.0 * 4.0 / 3.0 * std::numbers::pi * std::pow(p.radius[i], 3);
    m += mi;
    xc += mi * p.pos[i];
  }
  xc /= m;
  Mat3 I = Mat3::Zero();
  Vec3 P = Vec3::Zero(), L = Vec3::Zero();
  for (std::size_t i = 0; i < 3; ++i) {
    const double mi = 1200.0 * 4.0 / 3.0 * std::numbers::pi * std::pow(p.radius[i], 3);
    const Vec3 d = p.pos[i] - xc;
    const double Ii = 0.4 * mi * p.radius[i] * p.radius[i];
    I += Ii * Mat3::Identity() + mi * (d.squaredNorm() * Mat3::Identity() - d * d.transpose());
    P += mi * p.vel[i];
    L += mi * d.cross(p.vel[i]) + Ii * p.angVel[i];
  }
  BOOST_TEST(p.mass[body] == m, boost::test_tools::tolerance(1e-12));
  BOOST_TEST((p.pos[body] - xc).norm() < 1e-14);
  BOOST_TEST((P - m * v).norm() < 1e-12 * m * v.norm());
  BOOST_TEST((L - I * w).norm() < 1e-12 * (I * w).norm());
  BOOST_TEST((p.vel[body] - v).norm() == 0.0);
  BOOST_TEST((p.angVel[body] - w).norm() == 0.0);
  BOOST_TEST((p.angMom[body] - I * w).norm() < 1e-12 * (I * w).norm());
}

BOOST_AUTO_TEST_CASE(from_the_members_without_the_keys) {
  // only the first member moves (9, 9, 9): the clump takes the members' momentum
  const LoadedScene l = loadSceneText(clumpScene(""), "c.json");
  const Particles& p = l.scene.particles;
  Vec3 P = Vec3::Zero();
  for (std::size_t i = 0; i < 3; ++i) P += p.mass[i] * p.vel[i];
  BOOST_TEST((P - p.mass[3] * p.vel[3]).norm() < 1e-12 * P.norm());
  BOOST_TEST(p.vel[3].norm() > 0.0);
  // a given angVel alone keeps that velocity
  const LoadedScene k = loadSceneText(clumpScene(R"(, "angVel": [0, 0, 5])"), "c.json");
  BOOST_TEST((k.scene.particles.vel[3] - p.vel[3]).norm() == 0.0);
  BOOST_TEST((k.scene.particles.angVel[3] - Vec3(0, 0, 5)).norm() == 0.0);
}

BOOST_AUTO_TEST_SUITE_END()
