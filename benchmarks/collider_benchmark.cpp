// Collider (solver/collider.hpp) on the settled deposition bed; items = particles.
//   collider/incremental  one insertion-sort update of a slowly moving bed: the spheres alternate
//                         between the settled positions and the bed sheared by 1.2 dL at its top
//                         (x displacement growing linearly with height) plus a random jitter of up to
//                         0.2 dL per sphere and axis: a bed creeping by about the sweep length dL
//                         between two collider runs (every update runs);
//   collider/full         sort from scratch and sweep (a new collider and contact store).
#include "bench_common.hpp"
#include "deposition_bed.hpp"
#include "scene_benchmarks.hpp"

#include <algorithm>
#include <random>

namespace dem::bench {

namespace {

// The bed's particles sheared and jittered (see above); the top spheres move farther than dL, so
// that the collider runs.
Particles displaced(const Particles& p, double dL) {
  Particles q = p;
  double top = 0.0;
  for (std::size_t i = 0; i < q.size(); ++i)
    if (!q.isBoundary(i)) top = std::max(top, q.pos[i][2]);
  std::mt19937_64 rng(7);
  std::uniform_real_distribution<double> u(-0.2 * dL, 0.2 * dL);
  for (std::size_t i = 0; i < q.size(); ++i) {
    if (q.isBoundary(i)) continue;
    q.pos[i] += Vec3(1.2 * dL * q.pos[i][2] / top + u(rng), u(rng), u(rng));
  }
  return q;
}

void incremental(benchmark::State& state) {
  const auto n = static_cast<std::size_t>(state.range(0));
  const int threads = static_cast<int>(state.range(1));
  const ThreadScope scope(threads);
  const Scene& bed = depositionBed(n);
  Collider collider = bed.collider;
  ContactStore contacts = bed.contacts;
  const Particles a = bed.particles, b = displaced(bed.particles, sweepLengthFor(bed.particles, collider.verletDist));
  collider.update(a, bed.materials, contacts);  // warm-up, untimed
  collider.update(b, bed.materials, contacts);
  bool flip = false;
  std::int64_t runs = 0;
  for (auto _ : state) {
    flip = !flip;
    runs += collider.update(flip ? a : b, bed.materials, contacts);
    benchmark::ClobberMemory();
  }
  if (runs != static_cast<std::int64_t>(state.iterations())) state.SkipWithError("collider did not run every time");
  particleCounters(state, static_cast<std::int64_t>(sphereCount(bed)), threads, "particles");
  state.counters["contacts"] = static_cast<double>(contacts.size());
}

void full(benchmark::State& state) {
  const auto n = static_cast<std::size_t>(state.range(0));
  const int threads = static_cast<int>(state.range(1));
  const ThreadScope scope(threads);
  const Scene& bed = depositionBed(n);
  std::size_t found = 0;
  for (auto _ : state) {
    Collider collider;
    collider.verletDist = bed.collider.verletDist;
    ContactStore contacts;
    collider.update(bed.particles, bed.materials, contacts);
    found = contacts.size();
    benchmark::DoNotOptimize(found);
  }
  particleCounters(state, static_cast<std::int64_t>(sphereCount(bed)), threads, "particles");
  state.counters["contacts"] = static_cast<double>(found);
}

}  // namespace

void registerColliderBenchmarks(const std::vector<std::int64_t>& sizes) {
  for (auto [name, fn] : {std::pair{"collider/incremental", &incremental}, std::pair{"collider/full", &full}}) {
    auto* b = benchmark::RegisterBenchmark(name, fn);
    for (const auto n : sizes)
      for (const int t : threadCounts()) b->Args({n, t});
    b->ArgNames({"N", "threads"})->UseRealTime()->Unit(benchmark::kMicrosecond);
  }
}

}  // namespace dem::bench
