// dem-report: reads what dem-verify and the benchmarks wrote into one folder (summary.csv,
// <case>.csv, <case>__<series>.csv, cases.tsv, series.tsv, *.json, peers.csv), draws the plots with gnuplot
// (PNG and SVG under plots/) and writes index.html, a page self-contained apart from its images.
//
//   dem-report [--dir DIR]          (default reports/out)
#include "benchmark_section.hpp"
#include "html.hpp"
#include "machine.hpp"
#include "plot.hpp"
#include "verification_section.hpp"

#include <algorithm>
#include <exception>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <string>
#include <vector>

namespace fs = std::filesystem;
using namespace dem::report;

namespace {

const char* const kStyle = R"(
body { font-family: "DejaVu Sans", Arial, sans-serif; margin: 1.5em auto; max-width: 1100px; color: #222; line-height: 1.4; }
h1 { font-size: 1.6em; } h2 { border-bottom: 1px solid #ccc; padding-bottom: .2em; margin-top: 2em; }
table { border-collapse: collapse; margin: .8em 0; font-size: .92em; }
th, td { border: 1px solid #ccc; padding: .25em .5em; vertical-align: top; }
th { background: #f0f0f0; } td.num { text-align: right; font-variant-numeric: tabular-nums; white-space: nowrap; }
tr.pass td.verdict { color: #1a7f37; font-weight: bold; } tr.fail td.verdict { font-weight: bold; } tr.fail { background: #ffecec; }
tr.fail td { color: #b00020; } .fail { color: #b00020; font-weight: bold; } .ok { color: #1a7f37; font-weight: bold; }
.small { font-size: .85em; color: #555; margin: .2em 0; } ul.small { margin-top: 0; }
figure { margin: 1em 0; } figure img { max-width: 100%; height: auto; border: 1px solid #ddd; }
figcaption { font-size: .85em; color: #555; } code { background: #f6f6f6; padding: 0 .2em; }
#report-check { font-size: .8em; color: #777; }
#verification-table { width: 100%; } #verification-table td.quantity { min-width: 11em; }
#verification-table td.kind { font-size: .85em; min-width: 14em; }
#machine-table th { white-space: nowrap; text-align: left; } .kind.order { color: #0b4f8a; } .kind.roundoff { color: #2f6b2f; }
.kind.bound { color: #7a3e00; } .kind.undeclared { color: #b00020; font-weight: bold; }
td.flags code { overflow-wrap: anywhere; font-size: .9em; }
div.scroll { max-width: 100%; overflow-x: auto; } table.bench { font-size: .8em; }
table.bench th, table.bench td { padding: .2em .3em; } table.bench td.name { min-width: 13em; }
nav a { margin-right: 1em; }
)";

// Filled in by the page itself once everything has loaded; the headless-Chromium test reads it.
const char* const kCheckScript = R"(
<script>
window.addEventListener('load', function () {
  var imgs = Array.prototype.slice.call(document.images);
  var missing = imgs.filter(function (i) { return !(i.complete && i.naturalWidth > 0); });
  var rows = document.querySelectorAll('#verification-table tbody tr').length;
  var el = document.getElementById('report-check');
  el.textContent = 'report-check: images=' + imgs.length + ' missing=' + missing.length +
    ' verification_rows=' + rows + (missing.length ? ' missing_files=' +
    missing.map(function (i) { return i.getAttribute('src'); }).join(';') : '') + ' end';
});
</script>
)";

std::string filesSection(const fs::path& dir) {
  std::vector<std::string> names;
  for (const auto& e : fs::directory_iterator(dir)) {
    const std::string ext = e.path().extension().string();
    if (e.is_regular_file() && (ext == ".csv" || ext == ".tsv" || ext == ".json" || ext == ".png"))
      names.push_back(e.path().filename().string());
  }
  std::sort(names.begin(), names.end());
  std::string h = "<h2 id=\"files\">Data files</h2>\n<p>The CSV/TSV/JSON files this page was made from "
                  "(plots: <code>plots/</code>, PNG and SVG).</p>\n<ul class=\"files\">";
  for (const auto& n : names) h += "<li><a href=\"" + esc(n) + "\">" + esc(n) + "</a></li>";
  return h + "</ul>\n";
}

int usage() {
  std::cerr << "usage: dem-report [--dir DIR]   (reads and writes DIR, default reports/out)\n";
  return 2;
}

}  // namespace

int main(int argc, char* argv[]) {
  std::string dir = "reports/out";
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    if (a == "--dir" && i + 1 < argc) dir = argv[++i];
    else if (a == "--help" || a == "-h") { usage(); return 0; }
    else { std::cerr << "dem-report: unknown argument '" << a << "'\n"; return usage(); }
  }
  try {
    if (!fs::is_directory(dir)) {
      std::cerr << "dem-report: " << dir << " is not a folder; run dem-verify --out " << dir << " first\n";
      return 1;
    }
    std::string verificationHtml, benchHtml;
    VerificationSection v;
    {
      Plotter plotter;  // one gnuplot process; its destructor waits until every plot is written
      v = verificationSection(dir, plotter);
      benchHtml = benchmarkSection(dir, plotter).html;
    }
    const MachineInfo m = machineInfo();

    std::string h = "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
                    "<title>dem: verification and benchmark report</title><style>";
    h += kStyle;
    h += "</style></head><body>\n<h1>dem: verification and benchmark report</h1>\n";
    h += "<nav><a href=\"#machine\">machine</a><a href=\"#verification\">verification</a>"
         "<a href=\"#convergence\">convergence</a><a href=\"#series\">time series</a>"
         "<a href=\"#benchmarks\">benchmarks</a><a href=\"#files\">data files</a>";
    // The API reference (Doxygen, target docs) when the main job copied it next to the report.
    const bool hasApi = fs::exists(fs::path(dir) / "api" / "index.html");
    if (hasApi) h += "<a href=\"api/index.html\">API reference</a>";
    h += "</nav>\n";
    h += "<h2 id=\"machine\">Machine and build</h2>\n<table id=\"machine-table\">";
    for (const auto& [k, val] : m.items) {
      // The compile flags in full (every one counts for the figures below), as code that wraps.
      if (k == "compile flags")
        h += "<tr><th>" + esc(k) + "</th><td class=\"flags\"><code>" + esc(val) + "</code></td></tr>";
      else
        h +=
            "<tr><th>" + esc(k) + "</th><td>" + esc(val.size() > 160 ? val.substr(0, 157) + "..." : val) + "</td></tr>";
    }
    h += "</table>\n";
    h += "<h2 id=\"verification\">Verification</h2>\n";
    h += "<p class=\"" + std::string(v.failed ? "fail" : "ok") + "\">" + std::to_string(v.cases) + " case(s), " +
         std::to_string(v.quantities) + " quantities, " + std::to_string(v.failed) + " case(s) failed.</p>\n";
    h += "<p>How to read it: each case runs at several timesteps (halving); <em>error</em> and "
         "<em>tolerance</em> are those of the first (largest) dt, and the tolerance, from theory, is checked "
         "at every level. <em>fitted order</em> is the least-squares slope of log(error) vs log(dt) over the "
         "asymptotic range. <em>What the tolerance is</em> names one of three kinds: <span class=\"kind order\">"
         "order p in [lo, hi]</span>: a fitted order, passing when the slope lies in the band (the tolerance, "
         "a bound from theory, is checked at every level as well); <span class=\"kind roundoff\">round-off: "
         "n eps</span>: the scheme reproduces the reference exactly and only rounding remains, the tolerance "
         "stated as a multiple of machine epsilon (2.2e-16; <em>exact (0)</em>: counts and bytes that must "
         "agree); <span class=\"kind bound\">theory bound: name</span>: a discretisation, model or "
         "measurement bound from theory, named as in the case's banner (<code>verification/cases/</code>).</p>\n";
    h += v.tableHtml + v.plotsHtml + benchHtml + filesSection(dir);
    if (hasApi)
      h += "<p class=\"small\">The C++ API reference, generated from the headers of solver/ and io/ by "
           "Doxygen: <a href=\"api/index.html\">api/index.html</a>.</p>\n";
    if (fs::exists(fs::path(dir) / "screenshot.png"))
      h += "<p class=\"small\">A headless-Chromium screenshot of this page: <a href=\"screenshot.png\">"
           "screenshot.png</a>.</p>\n";
    h += "<p id=\"report-check\">report-check: pending</p>\n";
    h += kCheckScript;
    h += "</body></html>\n";
    std::ofstream out(fs::path(dir) / "index.html");
    out << h;
    if (!out) throw std::runtime_error("cannot write " + (fs::path(dir) / "index.html").string());
    std::cout << "dem-report: " << (fs::path(dir) / "index.html").string() << " (" << v.cases << " cases, "
              << v.failed << " failed)\n";
  } catch (const std::exception& e) {
    std::cerr << "dem-report: " << e.what() << "\n";
    return 1;
  }
  return 0;
}
