#include "bench.hpp"

#include "table.hpp"

#include <boost/property_tree/json_parser.hpp>
#include <boost/property_tree/ptree.hpp>

#include <filesystem>
#include <set>
#include <stdexcept>

namespace dem::report {

double BenchRun::counter(const std::string& key, double fallback) const {
  const auto it = counters.find(key);
  return it == counters.end() ? fallback : it->second;
}

double BenchRun::realTimeSeconds() const {
  const double scale = timeUnit == "ns" ? 1e-9 : timeUnit == "us" ? 1e-6 : timeUnit == "ms" ? 1e-3 : 1.0;
  return realTime * scale;
}

BenchFile readBenchmarks(const std::string& path) {
  namespace pt = boost::property_tree;
  pt::ptree root;
  try {
    pt::read_json(path, root);
  } catch (const pt::json_parser_error& e) {
    throw std::runtime_error("dem-report: cannot parse benchmark JSON " + path + ": " + e.what());
  }
  BenchFile f;
  f.path = path;
  if (const auto ctx = root.get_child_optional("context"))
    for (const auto& [key, value] : *ctx)
      if (value.empty()) f.context[key] = value.data();

  // Fields of a run that are not user counters.
  static const std::set<std::string> kFixed = {
      "name", "family_index", "per_family_instance_index", "run_name", "run_type", "repetitions",
      "repetition_index", "threads", "iterations", "real_time", "cpu_time", "time_unit", "label",
      "aggregate_name", "aggregate_unit", "items_per_second", "bytes_per_second", "error_occurred",
      "error_message"};
  const auto benchmarks = root.get_child_optional("benchmarks");
  if (!benchmarks) return f;
  for (const auto& [unused, b] : *benchmarks) {
    if (b.get<std::string>("run_type", "iteration") != "iteration") continue;
    if (b.get<std::string>("error_occurred", "false") == "true") continue;
    BenchRun r;
    r.file = std::filesystem::path(path).filename().string();
    r.name = b.get<std::string>("name", "");
    // Family: the name's parts before the first argument ("collider/full/N:1000/threads:1" ->
    // "collider/full").
    const auto arg = r.name.find(':');
    const auto cut = arg == std::string::npos ? std::string::npos : r.name.rfind('/', arg);
    r.family = r.name.substr(0, cut == std::string::npos ? r.name.find('/') : cut);
    r.label = b.get<std::string>("label", "");
    r.realTime = parseNumber(b.get<std::string>("real_time", "0")).value_or(0.0);
    r.cpuTime = parseNumber(b.get<std::string>("cpu_time", "0")).value_or(0.0);
    r.timeUnit = b.get<std::string>("time_unit", "ns");
    r.iterations = parseNumber(b.get<std::string>("iterations", "0")).value_or(0.0);
    r.itemsPerSecond = parseNumber(b.get<std::string>("items_per_second", "0")).value_or(0.0);
    for (const auto& [key, value] : b) {
      if (kFixed.count(key) || !value.empty()) continue;
      if (const auto v = parseNumber(value.data())) r.counters[key] = *v;
    }
    f.runs.push_back(std::move(r));
  }
  return f;
}

}  // namespace dem::report
