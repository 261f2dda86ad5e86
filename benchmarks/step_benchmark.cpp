// Whole step (Scene::step) on the settled deposition bed: particle-steps/s (items), contacts per
// sphere, contact-steps/s, and each stage's share of the step from the solver's stage timers.
#include "bench_common.hpp"
#include "deposition_bed.hpp"
#include "scene_benchmarks.hpp"

namespace dem::bench {

namespace {

void step(benchmark::State& state) {
  const auto n = static_cast<std::size_t>(state.range(0));
  const int threads = static_cast<int>(state.range(1));
  const ThreadScope scope(threads);
  Scene s = depositionBed(n);
  s.setStageTiming(true);
  s.run(5);  // warm-up, untimed
  s.resetStageTimes();
  const std::uint64_t colliderRuns0 = s.collider.runs();
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
  state.counters["collider_runs_per_step"] = static_cast<double>(s.collider.runs() - colliderRuns0) / iterations;
}

}  // namespace

void registerStepBenchmarks(const std::vector<std::int64_t>& sizes) {
  auto* b = benchmark::RegisterBenchmark("step/deposition", step);
  for (const auto n : sizes)
    for (const int t : threadCounts()) b->Args({n, t});
  b->ArgNames({"N", "threads"})->UseRealTime()->Unit(benchmark::kMicrosecond);
}

}  // namespace dem::bench
