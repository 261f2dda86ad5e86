// Integrator benchmark: one leapfrog step (translation, damping, spherical rotation, energy terms)
// of N free spheres, in ns per particle; N = 10^3 .. 10^5 (10^6 with --large), 1 and all threads.
//
//   dem-bench-integrator [--large] [Google Benchmark flags, e.g. --benchmark_out=x.json]
//   (DEM_BENCH_LARGE=1 in the environment is the same as --large)
#include "bench_common.hpp"

#include "solver/integrator.hpp"
#include "solver/particles.hpp"

#include <random>

namespace {

using namespace dem;

// N spheres on a cubic lattice with random velocities, spins, forces and torques, so that every
// branch of the kick (damping sign, rotation) is exercised.
Particles freeSpheres(std::int64_t n) {
  Particles p;
  std::mt19937_64 rng(42);
  std::uniform_real_distribution<double> u(-1.0, 1.0);
  const auto side = static_cast<std::int64_t>(std::ceil(std::cbrt(static_cast<double>(n))));
  for (std::int64_t i = 0; i < n; ++i) {
    const Vec3 x(static_cast<double>(i % side), static_cast<double>((i / side) % side),
                 static_cast<double>(i / (side * side)));
    ParticleSpec s = sphereSpec(0.022 * x, 0.01, 2600.0);
    s.vel = Vec3(u(rng), u(rng), u(rng));
    s.angVel = Vec3(u(rng), u(rng), u(rng)) * 10.0;
    p.add(s);
  }
  for (std::size_t i = 0; i < p.size(); ++i) {
    p.force[i] = p.mass[i] * Vec3(u(rng), u(rng), u(rng) - 9.81);
    p.torque[i] = p.inertia[i][0] * Vec3(u(rng), u(rng), u(rng));
  }
  return p;
}

void integratorSpherical(benchmark::State& state) {
  const std::int64_t n = state.range(0);
  const int threads = static_cast<int>(state.range(1));
  const bench::ThreadScope scope(threads);
  Particles p = freeSpheres(n);
  const Vec3 g(0, 0, -9.81);
  IntegratorSettings settings;
  settings.damping = 0.4;  // as in the deposition scene
  EnergyLedger ledger;
  IntegratorScratch scratch;
  const double dt = 1e-5;
  for (int k = 0; k < 3; ++k) integrate(p, g, dt, settings, ledger, scratch);  // warm-up, untimed
  for (auto _ : state) {
    integrate(p, g, dt, settings, ledger, scratch);
    benchmark::DoNotOptimize(p.pos.data());
    benchmark::ClobberMemory();
  }
  bench::particleCounters(state, n, threads);
}

}  // namespace

int main(int argc, char** argv) {
  const bool large = dem::bench::largeSizes(argc, argv);
  auto* b = benchmark::RegisterBenchmark("integrator/spherical", integratorSpherical);
  for (const auto n : dem::bench::sizes(large))
    for (const int t : dem::bench::threadCounts()) b->Args({n, t});
  b->ArgNames({"N", "threads"})->UseRealTime()->Unit(benchmark::kMicrosecond);
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
