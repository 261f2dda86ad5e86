#pragma once
// Google Benchmark JSON output (--benchmark_out_format=json), as the report reads it.
//
// Conventions of the project's benchmarks (benchmarks/*.cpp), all optional:
//   counters  particles      N of the scene (x axis of the scaling plots)
//             omp_threads    OpenMP threads the benchmark ran with
//             contacts       contacts in the scene
//             contacts_per_second, and *_share (fraction of a step spent in a stage)
//   items_per_second         particle-steps/s (integrator, step), contacts/s (contact loop), ...
//   label                    what an item is, e.g. "particle-steps"

#include <map>
#include <string>
#include <vector>

namespace dem::report {

struct BenchRun {
  std::string file;     // JSON file it came from
  std::string name;     // full benchmark name
  std::string family;   // name up to its first argument ("collider/full"), else up to the first '/'
  std::string label;
  double realTime = 0, cpuTime = 0;  // per iteration, in timeUnit
  std::string timeUnit = "ns";
  double iterations = 0;
  double itemsPerSecond = 0;           // 0 when not set
  std::map<std::string, double> counters;

  double counter(const std::string& key, double fallback = 0.0) const;
  double realTimeSeconds() const;
};

struct BenchFile {
  std::string path;
  std::map<std::string, std::string> context;  // date, host_name, num_cpus, library_build_type, ...
  std::vector<BenchRun> runs;                  // iterations only (aggregates are left out)
};

// Throws std::runtime_error when the file cannot be parsed.
BenchFile readBenchmarks(const std::string& path);

}  // namespace dem::report
