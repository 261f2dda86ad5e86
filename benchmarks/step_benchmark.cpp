// Whole step (Scene::step): particle-steps/s (items), contacts per sphere, contact-steps/s, collider
// runs per step, and each stage's share of the step from the solver's stage timers, on
//   step/deposition      the settled deposition bed (deposition_bed.hpp), N = 10^3 .. 10^5 (10^6);
//   step/periodic_shear  a dense periodic packing under simple shear, N ~ 10^3 and 10^4:
//                        periodicLatticeScene with m^3 spheres (m = 10, 22), r = 0.52 of the lattice
//                        spacing +- 5 % (overlapping: about six contacts per sphere), friction,
//                        damping 0.2, started on the affine field of L_xy = 1e-4 / dt (shear strain
//                        1e-4 per step), cell flipped automatically; the periodic collider with its
//                        Verlet skip (solver/periodic_collider.hpp).
#include "bench_common.hpp"
#include "deposition_bed.hpp"
#include "scene_benchmarks.hpp"

#include <cmath>

namespace dem::bench {

namespace {

std::uint64_t colliderRuns(const Scene& s) { return s.cell ? s.periodicCollider.runs() : s.collider.runs(); }

// Times Scene::step on s (after 5 untimed warm-up steps) and sets the counters.
void timeSteps(benchmark::State& state, Scene& s, int threads) {
  s.setStageTiming(true);
  s.run(5);
  s.resetStageTimes();
  const std::uint64_t colliderRuns0 = colliderRuns(s);
  for (auto _ : state) {
    s.step();
    benchmark::DoNotOptimize(s.particles.pos.data());
    benchmark::ClobberMemory();
  }
  const auto spheres = static_cast<std::int64_t>(sphereCount(s));
  particleCounters(state, spheres, threads);
  const double real = static_cast<double>(s.contacts.countReal());
  const double iterations = static_cast<double>(state.iterations());
  const StageTimes& t = s.stageTimes();
  state.counters["contacts"] = real;
  state.counters["contacts_per_sphere"] = contactsPerSphere(s);
  state.counters["contacts_per_second"] = benchmark::Counter(real * iterations, benchmark::Counter::kIsRate);
  state.counters["collider_share"] = t.share(t.collider);
  state.counters["contact_share"] = t.share(t.contacts);
  state.counters["integrator_share"] = t.share(t.integrator);
  state.counters["collider_runs_per_step"] = static_cast<double>(colliderRuns(s) - colliderRuns0) / iterations;
}

void step(benchmark::State& state) {
  const int threads = static_cast<int>(state.range(1));
  const ThreadScope scope(threads);
  Scene s = depositionBed(static_cast<std::size_t>(state.range(0)));
  timeSteps(state, s, threads);
}

Scene periodicShear(std::size_t n) {
  PeriodicLatticeSpec spec;
  spec.m = static_cast<std::size_t>(std::lround(std::cbrt(static_cast<double>(n))));
  spec.radius = 0.52 / static_cast<double>(spec.m);
  spec.spread = 0.05;
  spec.jitter = 0.05;
  spec.damping = 0.2;
  Scene s = periodicLatticeScene(spec);
  Mat3 L = Mat3::Zero();
  L(0, 1) = 1e-4 / s.dt();
  s.cell->setVelGrad(L);
  s.cell->flipFlippable = true;
  s.startOnAffineField();
  return s;
}

void periodicShearStep(benchmark::State& state) {
  const int threads = static_cast<int>(state.range(1));
  const ThreadScope scope(threads);
  Scene s = periodicShear(static_cast<std::size_t>(state.range(0)));
  timeSteps(state, s, threads);
}

}  // namespace

void registerStepBenchmarks(const std::vector<std::int64_t>& sizes) {
  auto* b = benchmark::RegisterBenchmark("step/deposition", step);
  for (const auto n : sizes)
    for (const int t : threadCounts()) b->Args({n, t});
  b->ArgNames({"N", "threads"})->UseRealTime()->Unit(benchmark::kMicrosecond);
  auto* p = benchmark::RegisterBenchmark("step/periodic_shear", periodicShearStep);
  for (const std::int64_t n : {1000, 10000})
    for (const int t : threadCounts()) p->Args({n, t});
  p->ArgNames({"N", "threads"})->UseRealTime()->Unit(benchmark::kMicrosecond);
}

}  // namespace dem::bench
