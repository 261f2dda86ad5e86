// Unit: free spheres are stepped kLanes at a time (solver/integrator.cpp, integrateFreeSpheres) when
// kLanes consecutive particles are free spheres, one at a time otherwise. Both use the same formulas
// with element-wise arithmetic, so a sphere's trajectory must be the same bits either way (and so
// for fixed spheres that do not turn, integrateRestingSpheres): each
// sphere of a gas of 4 kLanes non-interacting spheres (stepped in lanes) against the same sphere
// alone in a scene (stepped one at a time). Damping, gravity and a time-dependent external force
// and torque change the signs of the damping terms; some spheres spin fast enough (> 0.04 rad per
// step) to take the large-angle rotation.
#include "solver/lanes.hpp"
#include "solver/scene.hpp"
#include "unit/same_bits.hpp"

#include <boost/test/unit_test.hpp>

#include <cmath>
#include <random>

using namespace dem;
using dem::test::sameBits;

namespace {

Scene freeSpheres(const std::vector<ParticleSpec>& specs) {
  Scene s;
  for (const ParticleSpec& p : specs) s.particles.add(p);
  s.materials.push_back(Material{2600.0, 1e6, 0.2, 0.3});
  s.gravity = Vec3(0.3, -0.2, -9.81);
  s.setDt(1e-3);
  s.setDamping(0.3);
  s.externalForces = [](Particles& p, double t) {
    for (std::size_t i = 0; i < p.size(); ++i) {
      p.force[i] += p.mass[i] * Vec3(std::sin(40 * t + 100 * p.radius[i]), std::cos(30 * t), 0.5);
      p.torque[i] += 1e-6 * Vec3(std::cos(50 * t), std::sin(20 * t + 300 * p.radius[i]), -1.0);
    }
  };
  return s;
}

// 4 kLanes spheres 10 m apart (no contacts) at random places, of random radii, each then set up by
// setUp(k, spec, u) with u() the next random number in [-1, 1].
template <class SetUp>
std::vector<ParticleSpec> spheresApart(std::uint64_t seed, SetUp&& setUp) {
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<double> uniform(-1.0, 1.0);
  const auto u = [&] { return uniform(rng); };
  std::vector<ParticleSpec> specs;
  for (std::size_t k = 0; k < 4 * kLanes; ++k) {
    const double y = u(), z = u(), r = 0.01 * (1.5 + u());
    ParticleSpec p = sphereSpec(Vec3(10.0 * static_cast<double>(k), y, z), r, 2600.0);
    setUp(k, p, u);
    specs.push_back(p);
  }
  return specs;
}

// The spheres stepped 200 times together (consecutive ones in lanes) and each alone (one at a
// time): the same bits for each (places, velocities, orientations). Returns the scene of all.
Scene stepEachAlone(const std::vector<ParticleSpec>& specs) {
  Scene all = freeSpheres(specs);
  all.run(200);
  for (std::size_t k = 0; k < specs.size(); ++k) {
    Scene alone = freeSpheres({specs[k]});
    alone.run(200);
    BOOST_TEST_INFO("sphere " << k);
    BOOST_TEST(sameBits(std::vector<Vec3>{all.particles.pos[k]}, alone.particles.pos));
    BOOST_TEST(sameBits(std::vector<Vec3>{all.particles.vel[k]}, alone.particles.vel));
    BOOST_TEST(sameBits(std::vector<Vec3>{all.particles.angVel[k]}, alone.particles.angVel));
    BOOST_TEST(sameBits(std::vector<Quat>{all.particles.ori[k]}, alone.particles.ori));
  }
  return all;
}

}  // namespace

BOOST_AUTO_TEST_SUITE(free_sphere_lanes)

BOOST_AUTO_TEST_CASE(lanes_and_one_at_a_time_give_the_same_bits) {
  stepEachAlone(spheresApart(11, [](std::size_t k, ParticleSpec& p, auto&& u) {
    p.vel = Vec3(u(), u(), u());
    p.angVel = (k % 3 == 0 ? 80.0 : 5.0) * Vec3(u(), u(), u());  // 80 rad/s: > 0.04 rad per step
  }));
}

// Spheres that do not spin (w = 0 exactly, no torque: a free fall) rotate by Quaternion(0), the
// identity, and their orientation is only normalised at each step (seed: q(t+dt) = Quaternion(w dt)
// q(t), normalised): in lanes too, with the bits of that formula written out. Reference: the
// orientation of each sphere stepped by hand, q <- q / sqrt(w^2 + x^2 + y^2 + z^2).
BOOST_AUTO_TEST_CASE(spheres_that_do_not_spin_keep_their_orientation_normalised) {
  std::mt19937_64 rng(12);
  std::uniform_real_distribution<double> u(-1.0, 1.0);
  Scene s;
  for (std::size_t k = 0; k < 4 * kLanes; ++k) {
    ParticleSpec p = sphereSpec(Vec3(10.0 * static_cast<double>(k), u(rng), u(rng)), 0.01 * (1.5 + u(rng)), 2600.0);
    p.vel = Vec3(u(rng), u(rng), u(rng));
    // (unit to round-off; one sphere at the identity)
    p.ori = k == 0 ? Quat(Quat::Identity()) : Quat(Quat(u(rng), u(rng), u(rng), u(rng)).normalized());
    s.particles.add(p);
  }
  s.materials.push_back(Material{2600.0, 1e6, 0.2, 0.3});
  s.gravity = Vec3(0.3, -0.2, -9.81);
  s.setDt(1e-3);
  s.setDamping(0.3);
  s.step();  // (the first step, which starts the mid-step velocities, takes the general path)
  std::vector<Quat> expected = s.particles.ori;
  for (int step = 0; step < 50; ++step) {
    s.step();
    for (Quat& q : expected) {
      const double inv = 1.0 / std::sqrt(q.w() * q.w() + q.x() * q.x() + q.y() * q.y() + q.z() * q.z());
      q = Quat(inv * q.w(), inv * q.x(), inv * q.y(), inv * q.z());
    }
  }
  BOOST_TEST(s.particles.angVel[1].isZero(0.0));
  BOOST_TEST(sameBits(s.particles.ori, expected));
}

// Fixed spheres (every axis blocked: a floor, or spheres moved at a prescribed velocity) that do not
// turn are stepped kLanes at a time (integrateRestingSpheres) when kLanes consecutive ones are such,
// one at a time otherwise (integrateFixedSphere). Each sphere of 4 kLanes (a group at rest, one with
// a turning sphere in it, one moving without turning, one turning) against the same sphere alone.
BOOST_AUTO_TEST_CASE(fixed_spheres_in_lanes_and_one_at_a_time_give_the_same_bits) {
  const Scene all = stepEachAlone(spheresApart(13, [](std::size_t k, ParticleSpec& p, auto&& u) {
    p.blocked = dof::all;
    const std::size_t group = k / kLanes;
    if (group == 2) p.vel = Vec3(u(), u(), u());
    if (group == 3 || k == kLanes + 3) p.angVel = 5.0 * Vec3(u(), u(), u());
  }));
  // (the turning ones did turn, the others kept the identity)
  BOOST_TEST(!all.particles.ori[kLanes + 3].isApprox(Quat::Identity()));
  BOOST_TEST(sameBits(std::vector<Quat>{all.particles.ori[0]}, std::vector<Quat>{Quat::Identity()}));
}

BOOST_AUTO_TEST_SUITE_END()
