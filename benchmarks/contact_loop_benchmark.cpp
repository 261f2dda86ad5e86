// Contact loop (solver/contact_loop.hpp: geometry, Cundall law, per-particle force gather) over the
// potential contacts of the settled deposition bed that are not dormant (ContactStore::activeEnd:
// the loop skips the others until the collider's next run); items = those contacts, so ns/item is ns
// per visited contact. Counters: contacts (visited), real_fraction (of them), dormant_fraction (of
// all potential contacts).
#include "bench_common.hpp"
#include "deposition_bed.hpp"
#include "scene_benchmarks.hpp"

namespace dem::bench {

namespace {

void contactLoop(benchmark::State& state) {
  const auto n = static_cast<std::size_t>(state.range(0));
  const int threads = static_cast<int>(state.range(1));
  const ThreadScope scope(threads);
  const Scene& bed = depositionBed(n);
  Particles p = bed.particles;
  ContactStore contacts = bed.contacts;
  ContactScratch scratch;
  const double dt = bed.dt();
  // the stage as the scene runs it: the bed's law, and no dashpot terms when no material has dashpots
  const auto run = [&] { return contactStage(p, bed.materials, contacts, dt, scratch, bed.law, nullptr, bed.hasDashpots()); };
  for (int k = 0; k < 3; ++k) run();  // warm-up, untimed
  for (auto _ : state) {
    const ContactStageResult r = run();
    benchmark::DoNotOptimize(r);
    benchmark::ClobberMemory();
  }
  const auto visited = static_cast<double>(contacts.activeEnd());
  state.SetItemsProcessed(static_cast<std::int64_t>(state.iterations()) * static_cast<std::int64_t>(contacts.activeEnd()));
  state.counters["particles"] = static_cast<double>(sphereCount(bed));
  state.counters["omp_threads"] = threads;
  state.counters["contacts"] = visited;
  state.counters["real_fraction"] = static_cast<double>(contacts.countReal()) / visited;
  state.counters["dormant_fraction"] = 1.0 - visited / static_cast<double>(contacts.size());
  state.SetLabel("contacts");
}

}  // namespace

void registerContactLoopBenchmarks(const std::vector<std::int64_t>& sizes) {
  auto* b = benchmark::RegisterBenchmark("contact_loop/deposition", contactLoop);
  for (const auto n : sizes)
    for (const int t : threadCounts()) b->Args({n, t});
  b->ArgNames({"N", "threads"})->UseRealTime()->Unit(benchmark::kMicrosecond);
}

}  // namespace dem::bench
