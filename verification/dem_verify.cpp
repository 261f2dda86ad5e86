// dem-verify: runs every registered verification case, prints the table (case, quantity, error,
// tolerance, fitted order or the tolerance's kind, pass), writes one CSV per case and summary.csv
// (with each quantity's tolerance kind and the bound's name or eps count) under the output folder,
// and exits non-zero when any case fails. For the report (reports/dem_report.cpp) it also writes
// cases.tsv (case, title, levels, seconds, pass) and series.tsv (each Series' file and plot hints).
//
//   dem-verify [--out DIR] [--case NAME ...] [--list]
#include "cases/registry.hpp"

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <set>
#include <sstream>
#include <string>

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
  std::cerr << "usage: dem-verify [--out DIR] [--case NAME ...] [--list]\n";
  return 2;
}

}  // namespace

int main(int argc, char* argv[]) {
  std::string out = "reports/out";
  std::set<std::string> only;
  bool list = false;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    if (a == "--out" && i + 1 < argc) out = argv[++i];
    else if (a == "--case" && i + 1 < argc) only.insert(argv[++i]);
    else if (a == "--list") list = true;
    else if (a == "--help" || a == "-h") { usage(); return 0; }
    else { std::cerr << "dem-verify: unknown argument '" << a << "'\n"; return usage(); }
  }

  const auto cases = dem::verify::allCases();
  if (list) {
    for (const auto& c : cases) std::cout << c.name << "  " << c.title << "\n";
    return 0;
  }
  for (const auto& name : only) {
    bool known = false;
    for (const auto& c : cases) known = known || c.name == name;
    if (!known) { std::cerr << "dem-verify: unknown case '" << name << "' (see --list)\n"; return 2; }
  }

  std::filesystem::create_directories(out);
  std::ofstream summary(std::filesystem::path(out) / "summary.csv");
  summary << "case,quantity,error,tolerance,fitted_order,expected_order,order_lo,order_hi,pass,seconds,"
             "unit,fit_from,fit_floor,fitted_points,tolerance_kind,tolerance_note\n";
  summary.precision(10);
  std::ofstream casesTsv(std::filesystem::path(out) / "cases.tsv");
  casesTsv << "case\ttitle\tlevels\tseconds\tpass\texception\n";
  std::ofstream seriesTsv(std::filesystem::path(out) / "series.tsv");
  seriesTsv << "case\tseries\tfile\ttitle\txlabel\tylabel\tlogy\n";

  std::printf("%-24s %-30s %11s %11s %-20s %s\n", "case", "quantity", "error", "tolerance", "order [band]", "pass");
  int failures = 0, ran = 0;
  for (const auto& c : cases) {
    if (!only.empty() && !only.count(c.name)) continue;
    ++ran;
    const auto r = dem::verify::evaluate(c);
    casesTsv << tsv(c.name) << "\t" << tsv(c.title) << "\t" << c.dts.size() << "\t" << r.seconds << "\t"
             << (r.pass ? 1 : 0) << "\t" << tsv(r.exception) << "\n";
    if (!r.exception.empty()) {
      std::printf("%-24s %-30s %s\n", c.name.c_str(), "(exception)", r.exception.c_str());
      summary << c.name << ",exception,,,,,,,0," << r.seconds << ",,,,,,\n";
      ++failures;
      continue;
    }
    dem::verify::writeCsv(r, out);
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
  std::printf("\n%d case(s), %d failed; CSV files in %s\n", ran, failures, out.c_str());
  return failures == 0 ? 0 : 1;
}
