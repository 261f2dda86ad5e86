#pragma once
// Shared by the project's Google Benchmark programs: OpenMP thread control, the size and thread
// lists, and the counters the report (reports/bench.hpp) reads:
//   particles, omp_threads, contacts, contacts_per_second, *_share; items_per_second; label.

#include <benchmark/benchmark.h>
#include <omp.h>

#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

namespace dem::bench {

// Sets the OpenMP thread count for one benchmark and restores the previous one.
class ThreadScope {
 public:
  explicit ThreadScope(int threads) : previous_(omp_get_max_threads()) { omp_set_num_threads(threads); }
  ~ThreadScope() { omp_set_num_threads(previous_); }
  ThreadScope(const ThreadScope&) = delete;
  ThreadScope& operator=(const ThreadScope&) = delete;

 private:
  int previous_;
};

// All threads: OpenMP's maximum when first asked (in main, before any ThreadScope).
inline int allThreads() {
  static const int all = omp_get_max_threads();
  return all;
}

// 1 and all threads (just 1 on a one-core machine).
inline std::vector<int> threadCounts() {
  const int all = allThreads();
  return all > 1 ? std::vector<int>{1, all} : std::vector<int>{1};
}

// Removes `flag` from argv (before benchmark::Initialize sees it); true when it was there.
inline bool takeFlag(int& argc, char** argv, const char* flag) {
  for (int i = 1; i < argc; ++i) {
    if (std::strcmp(argv[i], flag) == 0) {
      for (int j = i; j + 1 < argc; ++j) argv[j] = argv[j + 1];
      --argc;
      return true;
    }
  }
  return false;
}

// The 10^6 sizes: --large on the command line, or DEM_BENCH_LARGE=1 in the environment (what
// scripts/main-job.sh --full sets for every benchmark program).
inline bool largeSizes(int& argc, char** argv) {
  const bool flag = takeFlag(argc, argv, "--large");
  const char* env = std::getenv("DEM_BENCH_LARGE");
  return flag || (env != nullptr && std::strcmp(env, "1") == 0);
}

// Sizes 10^3 .. 10^5, and 10^6 when `large`.
inline std::vector<std::int64_t> sizes(bool large) {
  std::vector<std::int64_t> s{1000, 10000, 100000};
  if (large) s.push_back(1000000);
  return s;
}

// The counters every particle benchmark sets; items are particle-steps (or what `label` says).
inline void particleCounters(benchmark::State& state, std::int64_t particles, int threads,
                             const char* label = "particle-steps") {
  state.SetItemsProcessed(static_cast<std::int64_t>(state.iterations()) * particles);
  state.counters["particles"] = static_cast<double>(particles);
  state.counters["omp_threads"] = threads;
  state.SetLabel(label);
}

}  // namespace dem::bench
