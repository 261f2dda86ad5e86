// Unit: results are identical bit for bit whatever the number of threads.
#include "solver/builders.hpp"

#include <boost/test/unit_test.hpp>
#include <omp.h>

#include <cstring>
#include <random>

using namespace dem;

namespace {
Scene gas(std::size_t n) {
  Scene s;
  std::mt19937_64 rng(42);
  std::uniform_real_distribution<double> u(-1.0, 1.0);
  for (std::size_t i = 0; i < n; ++i) {
    ParticleSpec p = sphereSpec(Vec3(u(rng), u(rng), u(rng)), 0.01 * (1.5 + u(rng)), 2600.0);
    p.vel = Vec3(u(rng), u(rng), u(rng));
    p.angVel = 10 * Vec3(u(rng), u(rng), u(rng));
    s.particles.add(p);
  }
  s.materials.push_back(Material{2600.0, 1e6, 0.2, 0.3});
  s.gravity = Vec3(0.1, 0, -9.81);
  s.setDt(1e-4);
  s.setDamping(0.2);
  return s;
}

template <class T>
bool sameBits(const std::vector<T>& a, const std::vector<T>& b) {
  return a.size() == b.size() && std::memcmp(a.data(), b.data(), a.size() * sizeof(T)) == 0;
}
}  // namespace

BOOST_AUTO_TEST_SUITE(thread_determinism)

BOOST_AUTO_TEST_CASE(free_particles_and_energy_same_bits_for_1_2_4_threads) {
  const int saved = omp_get_max_threads();
  std::vector<Scene> runs;
  for (int threads : {1, 2, 4}) {
    omp_set_num_threads(threads);
    Scene s = gas(5000);
    s.run(50);
    runs.push_back(std::move(s));
  }
  omp_set_num_threads(saved);
  for (std::size_t k = 1; k < runs.size(); ++k) {
    BOOST_TEST(sameBits(runs[0].particles.pos, runs[k].particles.pos));
    BOOST_TEST(sameBits(runs[0].particles.vel, runs[k].particles.vel));
    BOOST_TEST(sameBits(runs[0].particles.ori, runs[k].particles.ori));
    BOOST_TEST(runs[0].energy.total() == runs[k].energy.total());
    BOOST_TEST(runs[0].energy.dampingDissipated == runs[k].energy.dampingDissipated);
  }
}

BOOST_AUTO_TEST_SUITE_END()
