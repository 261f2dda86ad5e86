// dem-bench-scene: collider, contact loop and whole step on the settled deposition bed, N = 10^3 ..
// 10^5 spheres (10^6 with --large), and the whole step of a periodic packing under simple shear,
// N ~ 10^3, 10^4 (step_benchmark.cpp); 1 and all OpenMP threads.
//
//   dem-bench-scene [--large] [Google Benchmark flags, e.g. --benchmark_out=x.json]
//   (DEM_BENCH_LARGE=1 in the environment is the same as --large)
// Each bed is poured and settled once, untimed, the first time a benchmark needs it (its settle
// time and contacts per sphere go to stderr).
#include "bench_common.hpp"
#include "scene_benchmarks.hpp"

int main(int argc, char** argv) {
  const bool large = dem::bench::largeSizes(argc, argv);
  const auto sizes = dem::bench::sizes(large);
  dem::bench::registerStepBenchmarks(sizes);
  dem::bench::registerContactLoopBenchmarks(sizes);
  dem::bench::registerTimestepBenchmarks(sizes);
  dem::bench::registerColliderBenchmarks(sizes);
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
