#pragma once
// The report's benchmark part: one table per Google Benchmark JSON file (time per iteration,
// items/s, ns per item, contacts/s, stage shares when the benchmark reports them), a headline
// table, and scaling plots (time per item vs N for each thread count; vs threads for each N).
// With peers.csv in the folder (benchmarks/peers/run_peers.py) also the table "Peer comparison
// (LIGGGHTS)": dem-run beside LIGGGHTS on the settled bed; without it no such table.

#include "plot.hpp"

#include <string>
#include <vector>

namespace dem::report {

struct BenchmarkSection {
  std::string html;
  std::vector<std::string> files;  // the JSON files read
};

// Reads every *.json under dir (Google Benchmark output), writes plots under dir/plots/.
BenchmarkSection benchmarkSection(const std::string& dir, Plotter& plotter);

}  // namespace dem::report
