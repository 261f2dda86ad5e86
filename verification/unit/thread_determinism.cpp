// Unit: results are identical bit for bit whatever the number of threads.
#include "solver/builders.hpp"
#include "solver/contact_loop.hpp"
#include "unit/same_bits.hpp"
#include "unit/test_scenes.hpp"

#include <omp.h>
#include <boost/test/unit_test.hpp>

#include <cstring>
#include <random>

using namespace dem;
using dem::test::sameBits;

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

// A deposition with contacts (friction, damping, walls): the contact loop stores each contact's
// force and every particle sums its own contacts in contact-index order, so the result must be the
// same bits for any thread count. 2,500 spheres (the issue asks for 2,000; 2,500 + 5 walls puts the
// particle loops above kParallelThreshold so that they run in parallel too), poured with random
// velocities of 0.5 m/s, 600 steps: the spheres collide in the air and land, with walls. Both laws:
// Cundall, and Hertz-Mindlin with dashpots (restitution 0.5).
BOOST_AUTO_TEST_CASE(deposition_with_contacts_same_bits_for_1_2_4_threads) {
  const int saved = omp_get_max_threads();
  for (const ContactLaw law : {ContactLaw::Cundall, ContactLaw::HertzMindlin}) {
    std::vector<Scene> runs;
    for (int threads : {1, 2, 4}) {
      omp_set_num_threads(threads);
      DepositionSpec spec;
      spec.n = 2500;
      spec.material.frictionAngle = 0.4;
      if (law == ContactLaw::HertzMindlin) spec.material.restitution = 0.5;
      spec.damping = 0.2;
      spec.speed = 0.5;  // stirred: the spheres collide in the air at once
      Scene s = depositionScene(spec);
      s.law = law;
      s.run(law == ContactLaw::Cundall ? 600 : 300);  // (Hertz-Mindlin: the same paths at half the cost)
      runs.push_back(std::move(s));
    }
    omp_set_num_threads(saved);
    BOOST_TEST(runs[0].contacts.size() > 2048u);  // the contact loop runs in parallel
    BOOST_TEST(runs[0].contacts.countReal() > 50u);
    BOOST_TEST(runs[0].energy.frictionDissipated > 0.0);
    if (law == ContactLaw::HertzMindlin) BOOST_TEST(runs[0].energy.viscousDissipated > 0.0);
    for (std::size_t k = 1; k < runs.size(); ++k) {
      BOOST_TEST(sameBits(runs[0].particles.pos, runs[k].particles.pos));
      BOOST_TEST(sameBits(runs[0].particles.vel, runs[k].particles.vel));
      BOOST_TEST(sameBits(runs[0].particles.angVel, runs[k].particles.angVel));
      BOOST_TEST(sameBits(runs[0].particles.ori, runs[k].particles.ori));
      BOOST_TEST(runs[0].contacts.size() == runs[k].contacts.size());
      bool sameForces = runs[0].contacts.size() == runs[k].contacts.size();
      for (std::size_t c = 0; sameForces && c < runs[0].contacts.size(); ++c) {
        const Contact &a = runs[0].contacts.get(c), &b = runs[k].contacts.get(c);
        sameForces = a.id1 == b.id1 && a.id2 == b.id2 && std::memcmp(a.force.data(), b.force.data(), sizeof(Vec3)) == 0;
      }
      BOOST_TEST(sameForces);
      BOOST_TEST(runs[0].energy.total() == runs[k].energy.total());
      BOOST_TEST(runs[0].energy.elastic == runs[k].energy.elastic);
      BOOST_TEST(runs[0].energy.frictionDissipated == runs[k].energy.frictionDissipated);
      BOOST_TEST(runs[0].energy.viscousDissipated == runs[k].energy.viscousDissipated);
    }
  }
}

// Aspherical bodies (every algorithm) and clumps (more than kParallelThreshold of them, so that
// aggregation and placement run in parallel) give the same bits too.
BOOST_AUTO_TEST_CASE(aspherical_and_clumps_same_bits_for_1_2_4_threads) {
  const int saved = omp_get_max_threads();
  for (RotationAlgorithm a : {RotationAlgorithm::FinchamAT, RotationAlgorithm::FinchamYade, RotationAlgorithm::Omelyan,
                              RotationAlgorithm::Spiral}) {
    std::vector<Scene> runs;
    for (int threads : {1, 2, 4}) {
      omp_set_num_threads(threads);
      Scene s = gas(3000);
      for (std::size_t i = 0; i < s.particles.size(); ++i)
        s.particles.inertia[i] = s.particles.inertia[i].cwiseProduct(Vec3(1, 1.5, 2));
      s.setRotationAlgorithm(a);
      std::mt19937_64 rng(7);
      std::uniform_real_distribution<double> u(-1.0, 1.0);
      for (int k = 0; k < 2100; ++k) {
        const Vec3 x(3 + 0.1 * k, u(rng), u(rng));
        const std::size_t i = s.particles.add(sphereSpec(x, 0.01, 2600));
        const std::size_t j = s.particles.add(sphereSpec(x + Vec3(0.015, 0.02, 0), 0.008, 7800));
        const std::size_t b = s.addClump({i, j});
        s.particles.vel[b] = Vec3(u(rng), u(rng), u(rng));
        s.particles.angVel[b] = 10 * Vec3(u(rng), u(rng), u(rng));
      }
      s.externalForces = [](Particles& p, double) {
        for (std::size_t i = 0; i < p.size(); ++i) p.torque[i] += Vec3(1e-6, -2e-6, 1e-6);
      };
      s.run(20);
      runs.push_back(std::move(s));
    }
    for (std::size_t k = 1; k < runs.size(); ++k) {
      BOOST_TEST_INFO(rotationAlgorithmName(a));
      BOOST_TEST(sameBits(runs[0].particles.pos, runs[k].particles.pos));
      BOOST_TEST(sameBits(runs[0].particles.angVel, runs[k].particles.angVel));
      BOOST_TEST(sameBits(runs[0].particles.ori, runs[k].particles.ori));
      BOOST_TEST(runs[0].energy.total() == runs[k].energy.total());
    }
  }
  omp_set_num_threads(saved);
}

// A sheared periodic packing (2,197 spheres, damping, friction, automatic flips): periodic collider,
// image shifts and the homogeneous deformation give the same bits for any thread count.
BOOST_AUTO_TEST_CASE(periodic_shear_same_bits_for_1_2_4_threads) {
  const int saved = omp_get_max_threads();
  std::vector<Scene> runs;
  for (int threads : {1, 2, 4}) {
    omp_set_num_threads(threads);
    Scene s = dem::test::shearedLattice(13, 0.5 / 13, 200);
    s.run(200);
    runs.push_back(std::move(s));
  }
  omp_set_num_threads(saved);
  BOOST_TEST(runs[0].contacts.size() > 2048u);
  for (std::size_t k = 1; k < runs.size(); ++k) {
    BOOST_TEST(sameBits(runs[0].particles.pos, runs[k].particles.pos));
    BOOST_TEST(sameBits(runs[0].particles.vel, runs[k].particles.vel));
    BOOST_TEST(sameBits(runs[0].particles.angVel, runs[k].particles.angVel));
    BOOST_TEST(runs[0].energy.total() == runs[k].energy.total());
  }
}

// The contact stage alone in contact-index order on 1, 2 and 3 threads, from the same state of a
// dense periodic packing (2,197 spheres, about 6,000 contacts with their bodies scattered among
// the threads' runs): every body's force and torque and every sum the same bits. With several
// threads each one adds its own run of contacts and defers the bodies an earlier run touches
// (OrderedScatter in contact_loop.cpp): the test asks that it deferred some, so that both halves
// of that path ran. The runs end anywhere to a batch: the test asks that some run began inside a
// block of contacts (its part of the block's sums added after the part before it).
BOOST_AUTO_TEST_CASE(contact_stage_in_contact_order_same_bits_for_1_2_3_threads) {
  PeriodicLatticeSpec spec;
  spec.m = 13;
  spec.radius = 0.5 / 13;
  spec.jitter = 0.1;
  spec.speed = 0.3;
  Scene s = periodicLatticeScene(spec);
  s.run(20);  // (the contacts found, some of them with history)
  const PeriodicShift shift{s.cell->H(), s.cell->imageVelocity()};
  const int saved = omp_get_max_threads();
  struct Run {
    Particles p;
    ContactStageResult r;
    std::size_t deferred = 0, heads = 0;
  };
  std::vector<Run> runs;
  // (1, 2 and 3 threads with equal runs, then 2 and 3 with runs of unequal length, as BalancedRuns
  // sets them after unequal times)
  const std::vector<std::pair<int, std::vector<double>>> cases = {
      {1, {}}, {2, {}}, {3, {}}, {2, {1.0, 9.0}}, {3, {5.0, 0.5, 1.0}}};
  for (const auto& [threads, seconds] : cases) {
    omp_set_num_threads(threads);
    Run run{s.particles, {}, 0};
    ContactStore contacts = s.contacts;
    ContactScratch scratch;
    if (!seconds.empty()) {
      scratch.runs.prepare(static_cast<std::size_t>(threads));
      for (std::size_t t = 0; t < seconds.size(); ++t) scratch.runs.record(t, seconds[t]);
      scratch.runs.balance();
      BOOST_TEST(scratch.runs.run(0, 1000).second != 1000u / static_cast<std::size_t>(threads));
    }
    run.r = contactStage(run.p, s.materials, contacts, s.dt(), scratch, s.law, &shift, s.hasDashpots(),
                         SumOrder::ContactIndex);
    for (const auto& d : scratch.deferred) run.deferred += d.size();
    run.heads = scratch.heads.count();
    runs.push_back(std::move(run));
  }
  omp_set_num_threads(saved);
  BOOST_TEST(s.contacts.countReal() > kParallelThreshold);  // (the loop runs in parallel)
  for (std::size_t k = 1; k < runs.size(); ++k) {
    BOOST_TEST(runs[k].deferred > 0u);
    BOOST_TEST(runs[k].heads > 0u);
    BOOST_TEST(sameBits(runs[0].p.force, runs[k].p.force));
    BOOST_TEST(sameBits(runs[0].p.torque, runs[k].p.torque));
    BOOST_TEST(runs[0].r.elastic == runs[k].r.elastic);
    BOOST_TEST(runs[0].r.dissipated == runs[k].r.dissipated);
    BOOST_TEST(sameBits(std::vector<double>(runs[0].r.stressSum.data(), runs[0].r.stressSum.data() + 9),
                        std::vector<double>(runs[k].r.stressSum.data(), runs[k].r.stressSum.data() + 9)));
  }
}

// BalancedRuns: the bounds move halfway towards those that would have given the runs equal times,
// each run's time spread evenly over its items; a new team starts from equal runs.
BOOST_AUTO_TEST_CASE(balanced_runs_move_towards_equal_times) {
  BalancedRuns runs;
  runs.prepare(2);
  BOOST_TEST(runs.run(0, 1200).second == 600u);
  runs.record(0, 3.0);  // (half of the 4 s is reached 2/3 into run 0, at 1/3 of the items; halfway
  runs.record(1, 1.0);  //  from 1/2: 5/12, item 500)
  runs.balance();
  BOOST_TEST(runs.run(0, 1200).second == 500u);
  BOOST_TEST(runs.run(1, 1200).first == 500u);
  BOOST_TEST(runs.run(1, 1200).second == 1200u);
  runs.prepare(3);
  BOOST_TEST(runs.run(1, 1200).first == 400u);
  BOOST_TEST(runs.run(1, 1200).second == 800u);
  runs.record(0, 1.0);  // (runs of 400 items: 1, 1 and 4 s; a third of the 6 s is 2 s: the bounds
  runs.record(1, 1.0);  //  at 800 and 800 + 400 x 2 / 4 = 1000, halfway from 400 and 800: 600, 900)
  runs.record(2, 4.0);
  runs.balance();
  BOOST_TEST(runs.run(0, 1200).second == 600u);
  BOOST_TEST(runs.run(1, 1200).second == 900u);
  runs.record(0, 0.0);  // (no time measured: the bounds stay)
  runs.record(1, 0.0);
  runs.record(2, 0.0);
  runs.balance();
  BOOST_TEST(runs.run(1, 1200).second == 900u);
}

BOOST_AUTO_TEST_SUITE_END()
