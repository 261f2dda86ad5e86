#include "benchmark_section.hpp"

#include "bench.hpp"
#include "html.hpp"

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <map>
#include <set>

namespace fs = std::filesystem;

namespace dem::report {

namespace {

std::string shareText(const BenchRun& r, const std::string& key) {
  const auto it = r.counters.find(key);
  return it == r.counters.end() ? "" : fixed(100 * it->second, 1) + " %";
}

// A benchmark name that may break after each '/' (family/N:1000/threads:2/real_time).
std::string breakAtSlashes(const std::string& name) {
  std::string out;
  for (char ch : esc(name)) out += ch == '/' ? std::string("/<wbr>") : std::string(1, ch);
  return out;
}

std::string itemName(const BenchRun& r) { return r.label.empty() ? "items" : r.label; }

std::string runTable(const std::vector<BenchRun>& runs) {
  bool hasContacts = false, hasShares = false, hasCoordination = false;
  for (const auto& r : runs) {
    hasContacts = hasContacts || r.counters.count("contacts_per_second") || r.counters.count("contacts");
    hasCoordination = hasCoordination || r.counters.count("contacts_per_sphere");
    hasShares = hasShares || r.counters.count("collider_share");
  }
  // In a box that scrolls sideways when the columns do not fit the page (names break at any character).
  std::string h =
      "<div class=\"scroll\"><table class=\"bench\"><thead><tr><th>benchmark</th><th>N</th><th>threads</th>"
      "<th>time / iteration</th><th>items/s</th><th>ns / item</th><th>item</th>";
  if (hasContacts) h += "<th>contacts</th><th>contacts/s</th>";
  if (hasCoordination) h += "<th>contacts / sphere</th>";
  if (hasShares) h += "<th>collider %</th><th>contacts %</th><th>integrator %</th>";
  h += "</tr></thead><tbody>\n";
  for (const auto& r : runs) {
    h += "<tr><td class=\"name\"><code>" + breakAtSlashes(r.name) + "</code></td>";
    h += "<td class=\"num\">" + (r.counters.count("particles") ? fixed(r.counter("particles"), 0) : "") + "</td>";
    h += "<td class=\"num\">" + (r.counters.count("omp_threads") ? fixed(r.counter("omp_threads"), 0) : "") + "</td>";
    h += "<td class=\"num\">" + duration(r.realTimeSeconds()) + "</td>";
    h += "<td class=\"num\">" + rate(r.itemsPerSecond) + "</td>";
    h += "<td class=\"num\">" + (r.itemsPerSecond > 0 ? fixed(1e9 / r.itemsPerSecond, 2) : "") + "</td>";
    h += "<td>" + esc(itemName(r)) + "</td>";
    if (hasContacts)
      h += "<td class=\"num\">" + (r.counters.count("contacts") ? fixed(r.counter("contacts"), 0) : "") +
           "</td><td class=\"num\">" + rate(r.counter("contacts_per_second")) + "</td>";
    if (hasCoordination)
      h += "<td class=\"num\">" +
           (r.counters.count("contacts_per_sphere") ? fixed(r.counter("contacts_per_sphere"), 2) : "") + "</td>";
    if (hasShares)
      h += "<td class=\"num\">" + shareText(r, "collider_share") + "</td><td class=\"num\">" +
           shareText(r, "contact_share") + "</td><td class=\"num\">" + shareText(r, "integrator_share") + "</td>";
    h += "</tr>\n";
  }
  return h + "</tbody></table></div>\n";
}

// Scaling plots of one family whose runs carry the `particles` counter.
std::string scalingPlots(const std::string& family, const std::vector<BenchRun>& runs, const fs::path& dir,
                         Plotter& plotter) {
  std::map<double, std::vector<std::pair<double, double>>> byThreads;  // threads -> (N, ns/item)
  std::map<double, std::vector<std::pair<double, double>>> byN;        // N -> (threads, ns/item)
  for (const auto& r : runs) {
    if (!(r.itemsPerSecond > 0) || !r.counters.count("particles")) continue;
    const double n = r.counter("particles"), threads = r.counter("omp_threads", 1), ns = 1e9 / r.itemsPerSecond;
    byThreads[threads].emplace_back(n, ns);
    byN[n].emplace_back(threads, ns);
  }
  if (byThreads.empty()) return {};
  std::string item = itemName(runs.front());
  if (item.size() > 1 && item.back() == 's') item.pop_back();  // "particle-steps" -> "time per particle-step"
  double nMin = 0, nMax = 0;
  for (const auto& [threads, pts] : byThreads)
    for (const auto& [n, ns] : pts) {
      nMin = nMin > 0 ? std::min(nMin, n) : n;
      nMax = std::max(nMax, n);
    }
  std::string html;
  Plot p;
  p.title = family + ": time per " + item + " vs N";
  p.xLabel = "particles N";
  p.yLabel = "time per " + item + " [ns]";
  p.logX = p.logY = true;
  p.key = "top right";
  if (nMin > 0) p.extra.push_back("set xrange [" + sci(nMin / 2, 6) + ":" + sci(nMax * 2, 6) + "]");
  int colour = 0;
  for (auto& [threads, pts] : byThreads) {
    std::sort(pts.begin(), pts.end());
    p.lines.push_back({fixed(threads, 0) + (threads == 1 ? " thread" : " threads"), "linespoints pt 7 ps 1.2 lw 2",
                       colour++, pts});
  }
  const std::string base = "plots/bench__" + slug(family) + "__vs_n";
  plotter.render(p, (dir / base).string());
  html += figure(base, p.title);
  if (byThreads.size() > 1) {
    Plot q;
    q.title = family + ": time per " + item + " vs threads";
    q.xLabel = "OpenMP threads";
    q.yLabel = "time per " + item + " [ns]";
    q.logY = true;
    q.key = "top right";
    q.extra.push_back("set xtics 1");
    colour = 0;
    for (auto& [n, pts] : byN) {
      std::sort(pts.begin(), pts.end());
      q.lines.push_back({"N = " + fixed(n, 0), "linespoints pt 7 ps 1.2 lw 2", colour++, pts});
    }
    const std::string b2 = "plots/bench__" + slug(family) + "__vs_threads";
    plotter.render(q, (dir / b2).string());
    html += figure(b2, q.title);
  }
  return html;
}

// For each family with particles: the largest N, items/s at each thread count.
std::string headline(const std::vector<BenchRun>& runs) {
  std::map<std::string, double> largest;
  for (const auto& r : runs)
    if (r.counters.count("particles")) largest[r.family] = std::max(largest[r.family], r.counter("particles"));
  if (largest.empty()) return {};
  std::string h =
      "<div class=\"scroll\"><table class=\"bench\"><thead><tr><th>benchmark family</th><th>N</th><th>threads</th>"
      "<th>rate</th><th>item</th></tr></thead><tbody>\n";
  for (const auto& r : runs) {
    if (!r.counters.count("particles") || r.counter("particles") != largest[r.family]) continue;
    h += "<tr><td>" + esc(r.family) + "</td><td class=\"num\">" + fixed(r.counter("particles"), 0) +
         "</td><td class=\"num\">" + fixed(r.counter("omp_threads", 1), 0) + "</td><td class=\"num\">" +
         rate(r.itemsPerSecond) + "</td><td>" + esc(itemName(r)) + "</td></tr>\n";
  }
  return h + "</tbody></table></div>\n";
}

}  // namespace

BenchmarkSection benchmarkSection(const std::string& dirName, Plotter& plotter) {
  BenchmarkSection s;
  const fs::path dir(dirName);
  fs::create_directories(dir / "plots");
  std::vector<fs::path> jsons;
  if (fs::exists(dir))
    for (const auto& e : fs::directory_iterator(dir))
      if (e.path().extension() == ".json") jsons.push_back(e.path());
  std::sort(jsons.begin(), jsons.end());
  s.html = "<h2 id=\"benchmarks\">Benchmarks</h2>\n";
  if (jsons.empty()) {
    s.html += "<p>No benchmark results (<code>*.json</code>) in this folder: run the main job without "
              "<code>--no-bench</code>.</p>\n";
    return s;
  }
  s.html += "<p>Google Benchmark, release build; every figure is wall-clock time per iteration with the warm-up "
            "outside the timed region. <em>items/s</em> counts what the benchmark processes per second "
            "(the <em>item</em> column: particle-steps for the integrator and the whole step, contacts for the "
            "contact loop). Stage shares are the solver's own timers over the same steps.</p>\n";
  std::vector<BenchRun> all;
  std::string tables, plots;
  for (const auto& path : jsons) {
    BenchFile f;
    try {
      f = readBenchmarks(path.string());
    } catch (const std::exception& e) {
      tables += "<p class=\"fail\">" + esc(e.what()) + "</p>\n";
      continue;
    }
    s.files.push_back(path.filename().string());
    const std::string fn = path.filename().string();
    tables += "<h3>" + esc(fn) + "</h3>\n<p class=\"small\">host " + esc(f.context["host_name"]) + ", " +
              esc(f.context["num_cpus"]) + " CPUs, benchmark library " + esc(f.context["library_build_type"]) +
              " build, run " + esc(f.context["date"]) + " (<a href=\"" + esc(fn) + "\">JSON</a>)</p>\n";
    tables += runTable(f.runs);
    all.insert(all.end(), f.runs.begin(), f.runs.end());
  }
  std::vector<std::string> families;
  for (const auto& r : all)
    if (std::find(families.begin(), families.end(), r.family) == families.end()) families.push_back(r.family);
  for (const auto& fam : families) {
    std::vector<BenchRun> runs;
    std::copy_if(all.begin(), all.end(), std::back_inserter(runs), [&](const BenchRun& r) { return r.family == fam; });
    plots += scalingPlots(fam, runs, dir, plotter);
  }
  const std::string head = headline(all);
  if (!head.empty()) s.html += "<h3>Headline: the largest N of each benchmark</h3>\n" + head;
  s.html += plots + tables;
  return s;
}

}  // namespace dem::report
