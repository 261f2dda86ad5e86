// Critical-timestep estimate (solver/timestep.hpp: per body the 6x6 stiffness block in displacement
// and rotation and its largest mass-scaled eigenvalue) on the settled deposition bed, with the
// contacts' dashpots (restitution 0.5: the second 6x6 block) or without; items = bodies, so ns/item
// is ns per body. The automatic timestep (engine.dt fromStiffness with an interval) pays this every
// interval steps.
#include "bench_common.hpp"
#include "deposition_bed.hpp"
#include "scene_benchmarks.hpp"

#include "solver/timestep.hpp"

namespace dem::bench {

namespace {

void globalStiffness(benchmark::State& state) {
  const auto n = static_cast<std::size_t>(state.range(0));
  const bool dashpots = state.range(1) != 0;
  const Scene& bed = depositionBed(n);
  std::vector<Material> materials = bed.materials;
  if (dashpots)
    for (Material& m : materials) m.restitution = 0.5;
  for (auto _ : state) {
    const TimestepEstimate e = globalStiffnessTimestep(bed.particles, bed.contacts, materials);
    benchmark::DoNotOptimize(e);
  }
  state.SetItemsProcessed(static_cast<std::int64_t>(state.iterations()) * static_cast<std::int64_t>(bed.particles.size()));
  state.counters["particles"] = static_cast<double>(sphereCount(bed));
  state.counters["contacts"] = static_cast<double>(bed.contacts.countReal());
  state.SetLabel("bodies");
}

}  // namespace

void registerTimestepBenchmarks(const std::vector<std::int64_t>& sizes) {
  auto* b = benchmark::RegisterBenchmark("timestep/global_stiffness", globalStiffness);
  for (const auto n : sizes)
    for (const int d : {0, 1}) b->Args({n, d});
  b->ArgNames({"N", "dashpots"})->Unit(benchmark::kMicrosecond);
}

}  // namespace dem::bench
