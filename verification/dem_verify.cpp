// dem-verify: runs every registered verification case, prints the table (case, quantity, error,
// tolerance, fitted order or the tolerance's kind, pass), writes one CSV per case and summary.csv
// (with each quantity's tolerance kind and the bound's name or eps count) under the output folder,
// and exits non-zero when any case fails. For the report (reports/dem_report.cpp) it also writes
// cases.tsv (case, title, levels, seconds, pass) and series.tsv (each Series' file and plot hints).
//
//   dem-verify [--out DIR] [--case NAME ...] [--gate-only] [--list]
//
// --gate-only (or DEM_VERIFY_GATE_ONLY=1): each case at its gate level only, no timestep sweep or
// order fit (harness/case.hpp, EvaluateOptions): every code path once, in a fraction of the time.
//
// Started by mpirun (built with DEM_MPI), every scene of every case steps on the ranks
// (harness/ranks.hpp; docs/mpi.md): the first rank prints and writes, and every rank's results must
// be the same numbers (checked at the end).
#include "cases/registry.hpp"

#ifdef DEM_VERIFY_MPI
#include "harness/ranks.hpp"
#include "mpi/session.hpp"
#endif

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <set>
#include <sstream>
#include <string>
#include <vector>

namespace {

std::string fmt(double v, int precision = 3, bool fixed = false) {
  std::ostringstream s;
  s.precision(precision);
  if (fixed) s << std::fixed;
  else s << std::scientific;
  s << v;
  return s.str();
}

std::string orderText(const dem::verify::QuantityResult& q) {
  if (!q.order) return dem::verify::toleranceKindName(q);
  std::string s = q.fittedOrder ? fmt(*q.fittedOrder, 3, true) : "n/a";
  return s + " [" + fmt(q.order->lo, 2, true) + "," + fmt(q.order->hi, 2, true) + "]";
}

// Tab-separated fields: tabs and newlines inside a field become spaces.
std::string tsv(std::string s) {
  for (char& ch : s)
    if (ch == '\t' || ch == '\n' || ch == '\r') ch = ' ';
  return s;
}

std::string csvField(std::string s) {
  for (char& ch : s)
    if (ch == ',' || ch == '\n' || ch == '\r') ch = ' ';
  return s;
}

int usage() {
  std::cerr << "usage: dem-verify [--out DIR] [--case NAME ...] [--gate-only] [--list]\n";
  return 2;
}

#ifdef DEM_VERIFY_MPI
// MPI when started by mpirun (Open MPI sets OMPI_COMM_WORLD_SIZE): every Scene::step on the ranks.
struct Ranks {
  dem::mpi::Session session;  // (finalised after the stepper is gone)
  bool active = false;
  int rank = 0, size = 1;
  std::unique_ptr<dem::verify::RanksStepper> stepper;
  Ranks(int& argc, char**& argv) : session(argc, argv), active(session.active), rank(session.rank), size(session.size) {
    if (!active) return;
    stepper = std::make_unique<dem::verify::RanksStepper>(MPI_COMM_WORLD);
    hook(true);
  }
  // Every scene's steps on the ranks (on), or each scene's own on every rank (off).
  void hook(bool on) {
    if (on) dem::Scene::setStepHook([s = stepper.get()](dem::Scene& scene) { s->step(scene); });
    else dem::Scene::setStepHook({});
  }
  ~Ranks() {
    if (!active) return;
    dem::Scene::setStepHook({});
    stepper.reset();
  }
  // Whether every rank's `text` is the same bytes.
  bool same(const std::string& text) const {
    const std::uint64_t mine = std::hash<std::string>{}(text);
    std::vector<std::uint64_t> all(static_cast<std::size_t>(size));
    MPI_Allgather(&mine, 1, MPI_UINT64_T, all.data(), 1, MPI_UINT64_T, MPI_COMM_WORLD);
    return std::all_of(all.begin(), all.end(), [&](std::uint64_t h) { return h == mine; });
  }
};
#endif

}  // namespace

int main(int argc, char* argv[]) {
#ifdef DEM_VERIFY_MPI
  Ranks ranks(argc, argv);
  const bool writer = ranks.rank == 0;
#else
  const bool writer = true;
#endif
  std::string out = "reports/out";
  std::set<std::string> only;
  bool list = false;
  auto options = dem::verify::evaluateOptionsFromEnvironment();
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    if (a == "--out" && i + 1 < argc) out = argv[++i];
    else if (a == "--case" && i + 1 < argc) only.insert(argv[++i]);
    else if (a == "--list") list = true;
    else if (a == "--gate-only") options.gateOnly = true;
    else if (a == "--help" || a == "-h") {
      usage();
      return 0;
    } else {
      std::cerr << "dem-verify: unknown argument '" << a << "'\n";
      return usage();
    }
  }

  const auto cases = dem::verify::allCases();
  if (list) {
    for (const auto& c : cases) std::cout << c.name << "  " << c.title << "\n";
    return 0;
  }
  for (const auto& name : only) {
    bool known = false;
    for (const auto& c : cases) known = known || c.name == name;
    if (!known) {
      std::cerr << "dem-verify: unknown case '" << name << "' (see --list)\n";
      return 2;
    }
  }

  // (under mpirun the first rank prints and writes; the others' files stay closed, their standard
  // output goes nowhere)
  if (!writer && !std::freopen("/dev/null", "w", stdout)) return 1;
  if (writer) std::filesystem::create_directories(out);
  const auto open = [&](const char* name) {
    std::ofstream f;
    if (writer) f.open(std::filesystem::path(out) / name);
    return f;
  };
  std::ofstream summary = open("summary.csv");
  summary << "case,quantity,error,tolerance,fitted_order,expected_order,order_lo,order_hi,pass,seconds,"
             "unit,fit_from,fit_floor,fitted_points,tolerance_kind,tolerance_note\n";
  summary.precision(10);
  std::ofstream casesTsv = open("cases.tsv");
  casesTsv << "case\ttitle\tlevels\tseconds\tpass\texception\n";
  std::ofstream seriesTsv = open("series.tsv");
  seriesTsv << "case\tseries\tfile\ttitle\txlabel\tylabel\tlogy\n";
  // every level's every error to the last bit (numbers.csv): what runs on any number of ranks
  // compare
  std::ostringstream numbers;
  numbers.precision(17);
  numbers << "case,level,quantity,error\n";

  std::vector<std::string> distributedCases, replicatedCases, ownCases;
  std::printf("%-24s %-30s %11s %11s %-20s %s\n", "case", "quantity", "error", "tolerance", "order [band]", "pass");
  int failures = 0, ran = 0;
  for (const auto& c : cases) {
    if (!only.empty() && !only.count(c.name)) continue;
    ++ran;
#ifdef DEM_VERIFY_MPI
    const auto before = ranks.active ? ranks.stepper->counts() : dem::verify::RanksStepper::Counts{};
    if (ranks.active && !c.onRanks) ranks.hook(false);
#endif
    const auto r = dem::verify::evaluate(c, options);
#ifdef DEM_VERIFY_MPI
    if (ranks.active) {  // which cases stepped on the ranks, which replicated
      ranks.hook(true);
      const auto& n = ranks.stepper->counts();
      if (!c.onRanks) ownCases.push_back(c.name);
      else if (n.replicated > before.replicated) replicatedCases.push_back(c.name);
      else if (n.distributed > before.distributed) distributedCases.push_back(c.name);
    }
#endif
    casesTsv << tsv(c.name) << "\t" << tsv(c.title) << "\t" << c.dts.size() << "\t" << r.seconds << "\t"
             << (r.pass ? 1 : 0) << "\t" << tsv(r.exception) << "\n";
    if (!r.exception.empty()) {
      std::printf("%-24s %-30s %s\n", c.name.c_str(), "(exception)", r.exception.c_str());
      summary << c.name << ",exception,,,,,,,0," << r.seconds << ",,,,,,\n";
      numbers << c.name << ",,exception," << csvField(r.exception) << "\n";
      ++failures;
      continue;
    }
    for (std::size_t level = 0; level < r.levels.size(); ++level)
      for (const auto& [quantity, error] : r.levels[level])
        numbers << c.name << "," << level << "," << quantity << "," << error << "\n";
    if (writer) dem::verify::writeCsv(r, out);
    for (const auto& sr : r.series)
      seriesTsv << tsv(c.name) << "\t" << tsv(sr.name) << "\t" << tsv(c.name + "__" + sr.name + ".csv") << "\t"
                << tsv(sr.title) << "\t" << tsv(sr.xLabel) << "\t" << tsv(sr.yLabel) << "\t" << (sr.logY ? 1 : 0)
                << "\n";
    for (const auto& q : r.quantities) {
      std::printf("%-24s %-30s %11s %11s %-20s %s\n", c.name.c_str(), q.quantity.c_str(), fmt(q.error).c_str(),
                  fmt(q.tolerance).c_str(), orderText(q).c_str(), q.pass ? "PASS" : ("FAIL: " + q.failure).c_str());
      summary << c.name << "," << q.quantity << "," << q.error << "," << q.tolerance << ","
              << (q.fittedOrder ? std::to_string(*q.fittedOrder) : "") << ","
              << (q.order ? std::to_string(q.order->expected) : "") << ","
              << (q.order ? std::to_string(q.order->lo) : "") << "," << (q.order ? std::to_string(q.order->hi) : "")
              << "," << (q.pass ? 1 : 0) << "," << r.seconds << "," << csvField(q.unit) << ","
              << (q.order ? std::to_string(q.order->fitFrom) : "") << "," << (q.order ? fmt(q.order->floor, 6) : "")
              << "," << q.fittedPoints << "," << dem::verify::toleranceKindName(q) << "," << csvField(q.toleranceNote)
              << "\n";
    }
    if (!r.pass) ++failures;
  }
  std::ofstream numbersCsv = open("numbers.csv");
  numbersCsv << numbers.str();
  std::printf("\n%d case(s), %d failed; CSV files in %s\n", ran, failures, out.c_str());
#ifdef DEM_VERIFY_MPI
  if (ranks.active) {
    const auto& n = ranks.stepper->counts();
    std::printf("%d rank(s): %llu steps on the ranks (scenes shared %llu times), %llu steps replicated\n", ranks.size,
                static_cast<unsigned long long>(n.distributed), static_cast<unsigned long long>(n.shared),
                static_cast<unsigned long long>(n.replicated));
    for (const auto& [why, steps] : n.reasons)
      std::printf("  replicated: %llu steps: %s\n", static_cast<unsigned long long>(steps), why.c_str());
    const auto names = [](const std::vector<std::string>& v) {
      std::string t;
      for (const auto& name : v) t += " " + name;
      return t;
    };
    std::printf("cases on the ranks (%zu):%s\n", distributedCases.size(), names(distributedCases).c_str());
    std::printf("cases replicated, at least in part (%zu):%s\n", replicatedCases.size(),
                names(replicatedCases).c_str());
    std::printf("cases of one scene's parts, replicated (%zu):%s\n", ownCases.size(), names(ownCases).c_str());
    if (!ranks.same(numbers.str())) {
      std::printf("dem-verify: the ranks' numbers differ\n");
      return 1;
    }
  }
#endif
  return failures == 0 ? 0 : 1;
}
