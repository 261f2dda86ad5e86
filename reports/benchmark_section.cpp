#include "benchmark_section.hpp"

#include "bench.hpp"
#include "html.hpp"
#include "table.hpp"

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

// Every benchmark table: in a box that scrolls sideways when the columns do not fit the page.
// headRows: the <tr> rows of its head; then the body's rows, then kBenchTableEnd.
std::string benchTableStart(const std::string& headRows, const std::string& id = {}) {
  return "<div class=\"scroll\"><table class=\"bench\"" + (id.empty() ? "" : " id=\"" + esc(id) + "\"") + "><thead>" +
         headRows + "</thead><tbody>\n";
}
const char* const kBenchTableEnd = "</tbody></table></div>\n";

std::string headRow(const std::vector<std::string>& cells) {
  std::string h = "<tr>";
  for (const auto& c : cells) h += "<th>" + c + "</th>";
  return h + "</tr>";
}

std::string runTable(const std::vector<BenchRun>& runs) {
  bool hasContacts = false, hasShares = false, hasCoordination = false;
  for (const auto& r : runs) {
    hasContacts = hasContacts || r.counters.count("contacts_per_second") || r.counters.count("contacts");
    hasCoordination = hasCoordination || r.counters.count("contacts_per_sphere");
    hasShares = hasShares || r.counters.count("collider_share");
  }
  // Names break after each '/'.
  std::vector<std::string> head = {"benchmark", "N", "threads", "time / iteration", "items/s", "ns / item", "item"};
  if (hasContacts) head.insert(head.end(), {"contacts", "contacts/s"});
  if (hasCoordination) head.push_back("contacts / sphere");
  if (hasShares) head.insert(head.end(), {"collider %", "contacts %", "integrator %"});
  std::string h = benchTableStart(headRow(head));
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
  return h + kBenchTableEnd;
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
  std::string h = benchTableStart(headRow({"benchmark family", "N", "threads", "rate", "item"}));
  for (const auto& r : runs) {
    if (!r.counters.count("particles") || r.counter("particles") != largest[r.family]) continue;
    h += "<tr><td>" + esc(r.family) + "</td><td class=\"num\">" + fixed(r.counter("particles"), 0) +
         "</td><td class=\"num\">" + fixed(r.counter("omp_threads", 1), 0) + "</td><td class=\"num\">" +
         rate(r.itemsPerSecond) + "</td><td>" + esc(itemName(r)) + "</td></tr>\n";
  }
  return h + kBenchTableEnd;
}

// The peer benchmark's peers.csv (benchmarks/peers/run_peers.py): dem-run beside LIGGGHTS on the
// settled bed, one row per N and scene. Empty without the file.
std::string peerComparison(const fs::path& dir) {
  const fs::path file = dir / "peers.csv";
  if (!fs::exists(file)) return {};
  std::string h = "<h3 id=\"peers\">Peer comparison (LIGGGHTS)</h3>\n";
  Table t;
  try {
    t = readTable(file.string(), ',');
  } catch (const std::exception& e) {
    return h + "<p class=\"fail\">" + esc(e.what()) + "</p>\n";
  }
  h += "<p>The settled bed of issue 18 (<code>benchmarks/peers/</code>; docs/performance.md, \"Beside "
       "LIGGGHTS\") run by dem-run and by LIGGGHTS, both on one core, interleaved. Time per step = "
       "(t(long) &minus; t(short)) / (long &minus; short) from the wall time of two runs (loading cancels); "
       "<em>s / particle-step</em> is the median over the repetitions, <em>contact-steps/s</em> counts each "
       "code's own overlapping pairs (a check run), <em>kB / particle</em> is the peak resident set over N, "
       "<em>start-up</em> the rest of the short run's time (loading the files, the set-up, the first neighbour "
       "search). "
       "LIGGGHTS has no Cundall damping: its contacts get a light viscous normal damping (ratio 0.1) "
       "instead; its neighbour skin r lists the pairs within 3 r, as dem-run's Verlet distance 0.5 r. "
       "<em>ratio</em>: LIGGGHTS time / dem-run time per repetition (above 1: dem-run is faster).</p>\n";
  const std::vector<std::string> perCode = {"s / particle-step", "particle-steps/s", "contact-steps/s", "kB / particle",
                                            "start-up"};
  std::string groups =
      "<tr><th rowspan=\"2\">N</th><th rowspan=\"2\">scene</th><th colspan=\"5\">dem-run</th>"
      "<th colspan=\"5\">LIGGGHTS</th><th colspan=\"3\">ratio LIGGGHTS / dem-run</th>"
      "<th rowspan=\"2\">physics check</th></tr>";
  std::vector<std::string> sub = perCode;
  sub.insert(sub.end(), perCode.begin(), perCode.end());
  sub.insert(sub.end(), {"min", "median", "max"});
  h += benchTableStart(groups + headRow(sub), "peer-table");
  const auto num = [&](std::size_t r, const std::string& col) {
    return parseNumber(t.field(r, col)).value_or(std::nan(""));
  };
  const auto cell = [](const std::string& text) { return "<td class=\"num\">" + text + "</td>"; };
  std::vector<std::string> commands, notes;
  for (std::size_t r = 0; r < t.rows.size(); ++r) {
    h += "<tr>" + cell(fixed(num(r, "N"), 0)) + "<td>" + esc(t.field(r, "scene")) + "</td>";
    for (const std::string code : {"dem", "lig"}) {
      const double contactRate = num(r, code + "_contact_steps_per_s");
      h += cell(sci(num(r, code + "_s_per_particle_step"), 2)) + cell(rate(num(r, code + "_particle_steps_per_s"))) +
           cell(std::isnan(contactRate) ? "" : rate(contactRate)) + cell(fixed(num(r, code + "_kB_per_particle"), 2)) +
           cell(duration(num(r, code + "_startup_s")));
    }
    h += cell(fixed(num(r, "ratio_min"), 2)) + cell(fixed(num(r, "ratio_median"), 2)) +
         cell(fixed(num(r, "ratio_max"), 2));
    const std::string check = t.field(r, "check");
    const std::string verdict = check == "ok" ? " class=\"ok\"" : check == "not run" ? "" : " class=\"fail\"";
    h += "<td" + verdict + ">" + esc(check) + "</td></tr>\n";
    for (const std::string col : {"dem_command", "lig_command"})
      if (std::find(commands.begin(), commands.end(), t.field(r, col)) == commands.end())
        commands.push_back(t.field(r, col));
    notes.push_back(fixed(num(r, "N"), 0) + " " + t.field(r, "scene") + ": steps " + t.field(r, "steps") + ", " +
                    t.field(r, "reps") + " repetitions, load average " + t.field(r, "load_min") + "-" +
                    t.field(r, "load_max") + ", " + t.field(r, "date"));
  }
  h += kBenchTableEnd;
  h += "<p class=\"small\">";
  for (const auto& n : notes) h += esc(n) + "; ";
  h += esc(t.rows.empty() ? std::string() : t.field(0, "liggghts_version")) +
       ". Every run: <a href=\"peers-runs.csv\">peers-runs.csv</a>; the table: <a href=\"peers.csv\">peers.csv</a>."
       "</p>\n<p class=\"small\">Commands (S: the steps):</p><ul class=\"small\">";
  for (const auto& c : commands) h += "<li><code>" + esc(c) + "</code></li>";
  return h + "</ul>\n";
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
  const std::string peers = peerComparison(dir);
  if (jsons.empty()) {
    s.html +=
        "<p>No benchmark results (<code>*.json</code>) in this folder: run the main job without "
        "<code>--no-bench</code>.</p>\n" +
        peers;
    return s;
  }
  s.html +=
      "<p>Google Benchmark, release build; every figure is wall-clock time per iteration with the warm-up "
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
  s.html += peers + plots + tables;
  return s;
}

}  // namespace dem::report
