#include "verification_section.hpp"

#include "html.hpp"
#include "table.hpp"

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <limits>
#include <map>
#include <set>
#include <sstream>

namespace fs = std::filesystem;

namespace dem::report {

namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

bool startsWith(const std::string& s, const std::string& p) { return s.rfind(p, 0) == 0; }

std::string shortNumber(double v) {
  std::ostringstream s;
  s.precision(4);
  s << v;
  return s.str();
}

std::string withUnit(const std::string& label, const std::string& unit) {
  return unit.empty() ? label : label + " [" + unit + "]";
}

struct QuantityRow {
  std::string quantity, unit;
  double error = kNaN, tolerance = kNaN, fitted = kNaN, expected = kNaN, lo = kNaN, hi = kNaN, floor = 0;
  std::size_t fitFrom = 0;
  bool pass = false, hasOrder = false;
};

struct CaseInfo {
  std::string name, title;
  double seconds = kNaN;
  bool exception = false;
  std::vector<QuantityRow> rows;
};

// log(e_k / e_k+1) / log(dt_k / dt_k+1) for successive levels with positive errors.
std::vector<double> pairwiseOrders(const std::vector<double>& dts, const std::vector<double>& errs) {
  std::vector<double> out;
  for (std::size_t k = 0; k + 1 < dts.size() && k + 1 < errs.size(); ++k) {
    if (errs[k] > 0 && errs[k + 1] > 0 && dts[k] > 0 && dts[k + 1] > 0 && dts[k] != dts[k + 1])
      out.push_back(std::log(errs[k] / errs[k + 1]) / std::log(dts[k] / dts[k + 1]));
    else
      out.push_back(kNaN);
  }
  return out;
}

std::vector<CaseInfo> readCases(const fs::path& dir) {
  std::vector<CaseInfo> cases;
  const Table summary = readTable((dir / "summary.csv").string(), ',');
  std::map<std::string, std::string> titles;
  if (fs::exists(dir / "cases.tsv")) {
    const Table t = readTable((dir / "cases.tsv").string(), '\t');
    for (std::size_t r = 0; r < t.rows.size(); ++r) titles[t.field(r, "case")] = t.field(r, "title");
  }
  for (std::size_t r = 0; r < summary.rows.size(); ++r) {
    const std::string name = summary.field(r, "case");
    if (cases.empty() || cases.back().name != name) {
      cases.push_back({name, titles[name], parseNumber(summary.field(r, "seconds")).value_or(kNaN), false, {}});
    }
    QuantityRow q;
    q.quantity = summary.field(r, "quantity");
    if (q.quantity == "exception") cases.back().exception = true;
    q.unit = summary.field(r, "unit");
    q.error = parseNumber(summary.field(r, "error")).value_or(kNaN);
    q.tolerance = parseNumber(summary.field(r, "tolerance")).value_or(kNaN);
    q.fitted = parseNumber(summary.field(r, "fitted_order")).value_or(kNaN);
    const auto expected = parseNumber(summary.field(r, "expected_order"));
    q.hasOrder = expected.has_value();
    q.expected = expected.value_or(kNaN);
    q.lo = parseNumber(summary.field(r, "order_lo")).value_or(kNaN);
    q.hi = parseNumber(summary.field(r, "order_hi")).value_or(kNaN);
    q.floor = parseNumber(summary.field(r, "fit_floor")).value_or(0.0);
    q.fitFrom = static_cast<std::size_t>(parseNumber(summary.field(r, "fit_from")).value_or(0.0));
    q.pass = summary.field(r, "pass") == "1";
    cases.back().rows.push_back(q);
  }
  return cases;
}

// Least-squares intercept of log e = p log dt + b over the fitted points, for the fitted line.
double interceptFor(const std::vector<double>& dts, const std::vector<double>& errs, const QuantityRow& q,
                    double slope, std::vector<std::size_t>& used) {
  double sum = 0;
  used.clear();
  for (std::size_t k = q.fitFrom; k < dts.size() && k < errs.size(); ++k) {
    if (!(errs[k] > q.floor) || !std::isfinite(errs[k]) || !(dts[k] > 0)) continue;
    sum += std::log(errs[k]) - slope * std::log(dts[k]);
    used.push_back(k);
  }
  return used.empty() ? kNaN : sum / static_cast<double>(used.size());
}

Plot convergencePlot(const CaseInfo& c, const Table& levels, std::string& pairwiseHtml) {
  Plot p;
  p.title = c.name + ": error vs timestep";
  p.xLabel = "timestep dt [s]";
  std::set<std::string> units;
  for (const auto& q : c.rows) units.insert(q.unit);
  p.yLabel = units.size() == 1 && !units.begin()->empty() ? withUnit("error", *units.begin())
                                                         : "error (units as the case declares)";
  p.logX = p.logY = true;
  p.key = "outside right top";
  p.width = 1200;
  const std::vector<double> dts = levels.numbers("dt");
  if (!dts.empty()) {
    const auto [lo, hi] = std::minmax_element(dts.begin(), dts.end());
    if (*lo > 0) p.extra.push_back("set xrange [" + sci(*lo / 1.4, 6) + ":" + sci(*hi * 1.4, 6) + "]");
    std::string tics;  // a tic at every level, labelled with its dt
    for (double dt : dts)
      if (dt > 0) tics += (tics.empty() ? "" : ", ") + std::string("'") + shortNumber(dt) + "' " + sci(dt, 10);
    if (!tics.empty()) p.extra.push_back("set xtics (" + tics + ")");
  }
  int colour = 0;
  for (const auto& q : c.rows) {
    if (!levels.column(q.quantity)) continue;
    const std::vector<double> errs = levels.numbers(q.quantity);
    Line measured{q.quantity + (q.hasOrder ? "" : " (exact: round-off)"), "linespoints pt 7 ps 1.0 lw 2", colour, {}};
    for (std::size_t k = 0; k < dts.size(); ++k) measured.points.emplace_back(dts[k], errs[k]);
    p.lines.push_back(measured);
    if (q.hasOrder && std::isfinite(q.fitted)) {
      std::vector<std::size_t> used;
      const double b = interceptFor(dts, errs, q, q.fitted, used);
      if (std::isfinite(b) && !used.empty()) {
        Line fit{"  fitted slope " + fixed(q.fitted, 3), "lines lw 3 dt 2", colour, {}};
        for (std::size_t k : used) fit.points.emplace_back(dts[k], std::exp(b + q.fitted * std::log(dts[k])));
        p.lines.push_back(fit);
        // Reference slope through the finest fitted point, over the whole dt range, offset below.
        const std::size_t last = used.back();
        Line ref{"  reference slope " + fixed(q.expected, 2) + " (theory)", "lines lw 1.5 dt 3", -1, {}};
        for (double dt : {dts.front(), dts.back()})
          ref.points.emplace_back(dt, 0.5 * errs[last] * std::pow(dt / dts[last], q.expected));
        p.lines.push_back(ref);
      }
    } else if (q.tolerance > 0) {
      Line tol{"  tolerance", "lines lw 1 dt 4", colour, {}};
      for (double dt : dts) tol.points.emplace_back(dt, q.tolerance);  // exact quantities: constant bound
      p.lines.push_back(tol);
    }
    const auto po = pairwiseOrders(dts, errs);
    if (q.hasOrder && !po.empty()) {
      pairwiseHtml += "<li><code>" + esc(q.quantity) + "</code>: ";
      for (std::size_t k = 0; k < po.size(); ++k) pairwiseHtml += (k ? ", " : "") + fixed(po[k], 3);
      pairwiseHtml += "</li>";
    }
    ++colour;
  }
  return p;
}

}  // namespace

std::string unitOf(const std::string& column) {
  std::string c = column;
  for (const std::string suffix : {"_ref", "_exact", "_num", "_analytic", "_envelope"})
    if (c.size() > suffix.size() && c.compare(c.size() - suffix.size(), suffix.size(), suffix) == 0)
      c = c.substr(0, c.size() - suffix.size());
  static const std::map<std::string, std::string> exact = {
      {"t", "s"}, {"time", "s"}, {"x", "m"}, {"y", "m"}, {"z", "m"}, {"height", "m"}, {"amplitude", "m"},
      {"overlap", "m"}, {"kinetic", "J"}, {"rotational", "J"}, {"gravity", "J"}, {"damping", "J"},
      {"total", "J"}, {"elastic", "J"}, {"friction", "J"}, {"potential", "J"}, {"angle", "rad"},
      {"force", "N"}, {"fn", "N"}, {"ft", "N"}, {"omega", "rad/s"}, {"dt", "s"}};
  if (const auto it = exact.find(c); it != exact.end()) return it->second;
  if (startsWith(c, "vx") || startsWith(c, "vy") || startsWith(c, "vz") || startsWith(c, "vel") || startsWith(c, "v_"))
    return "m/s";
  if (startsWith(c, "omega") || startsWith(c, "w_") || startsWith(c, "angvel")) return "rad/s";
  if (startsWith(c, "angle") || startsWith(c, "theta") || startsWith(c, "phi")) return "rad";
  if (startsWith(c, "energy") || startsWith(c, "e_")) return "J";
  if (startsWith(c, "force") || startsWith(c, "f_")) return "N";
  if (startsWith(c, "pos") || startsWith(c, "x_") || startsWith(c, "z_")) return "m";
  return "";
}

namespace {

std::string joinedLabel(const std::vector<std::string>& names) {
  std::set<std::string> units;
  for (const auto& n : names) units.insert(unitOf(n));
  std::string label;
  for (std::size_t k = 0; k < names.size() && k < 4; ++k) label += (k ? ", " : "") + names[k];
  if (names.size() > 4) label += ", ...";
  if (units.size() == 1) return withUnit(label, *units.begin());
  return label;
}

struct SeriesInfo {
  std::string caseName, name, file, title, xLabel, yLabel;
  bool logY = false;
};

std::vector<SeriesInfo> readSeries(const fs::path& dir, const std::vector<CaseInfo>& cases) {
  std::vector<SeriesInfo> out;
  if (fs::exists(dir / "series.tsv")) {
    const Table t = readTable((dir / "series.tsv").string(), '\t');
    for (std::size_t r = 0; r < t.rows.size(); ++r)
      out.push_back({t.field(r, "case"), t.field(r, "series"), t.field(r, "file"), t.field(r, "title"),
                     t.field(r, "xlabel"), t.field(r, "ylabel"), t.field(r, "logy") == "1"});
    return out;
  }
  // Without series.tsv: every <case>__<series>.csv of a known case.
  std::vector<fs::path> files;
  for (const auto& e : fs::directory_iterator(dir)) files.push_back(e.path());
  std::sort(files.begin(), files.end());
  for (const auto& c : cases)
    for (const auto& f : files) {
      const std::string fn = f.filename().string(), prefix = c.name + "__";
      if (startsWith(fn, prefix) && f.extension() == ".csv")
        out.push_back({c.name, fn.substr(prefix.size(), fn.size() - prefix.size() - 4), fn, "", "", "", false});
    }
  return out;
}

std::string seriesPlots(const fs::path& dir, const SeriesInfo& s, Plotter& plotter) {
  const Table t = readTable((dir / s.file).string(), ',');
  if (t.columns.size() < 2 || t.rows.empty()) return {};
  const std::string x = t.columns.front();
  const std::vector<double> xs = t.numbers(x);
  std::vector<std::string> ys(t.columns.begin() + 1, t.columns.end());
  Plot p;
  p.title = s.title.empty() ? s.caseName + ": " + s.name : s.title;
  p.xLabel = s.xLabel.empty() ? withUnit(x, unitOf(x)) : s.xLabel;
  p.yLabel = s.yLabel.empty() ? joinedLabel(ys) : s.yLabel;
  p.logY = s.logY;
  p.key = "outside right top";
  int colour = 0;
  for (const auto& y : ys) {
    const std::vector<double> v = t.numbers(y);
    const bool ref = y.find("_ref") != std::string::npos || y.find("envelope") != std::string::npos;
    Line l{y, ref ? "lines lw 2 dt 2" : "lines lw 2", colour++, {}};
    for (std::size_t k = 0; k < xs.size(); ++k) l.points.emplace_back(xs[k], v[k]);
    l.points = decimate(l.points, 2000);
    p.lines.push_back(std::move(l));
  }
  const std::string base = "plots/" + slug(s.caseName + "__" + s.name);
  plotter.render(p, (dir / base).string());
  std::string html = figure(base, p.title);

  // A column and its reference (c, c_ref): their difference, which is usually what one wants to see.
  Plot d;
  d.title = p.title + ": deviation from the reference";
  d.xLabel = p.xLabel;
  d.key = "outside right top";
  std::vector<std::string> diffNames;
  colour = 0;
  for (const auto& y : ys) {
    if (!t.column(y + "_ref")) continue;
    const std::vector<double> a = t.numbers(y), b = t.numbers(y + "_ref");
    Line l{y + " - " + y + "_ref", "lines lw 2", colour++, {}};
    for (std::size_t k = 0; k < xs.size(); ++k) l.points.emplace_back(xs[k], a[k] - b[k]);
    l.points = decimate(l.points, 2000);
    d.lines.push_back(std::move(l));
    diffNames.push_back(y + " - " + y + "_ref");
  }
  if (!d.lines.empty()) {
    d.yLabel = diffNames.size() == 1 ? withUnit(diffNames[0], unitOf(ys[0])) : "deviation";
    plotter.render(d, (dir / (base + "__deviation")).string());
    html += figure(base + "__deviation", d.title);
  }
  return html;
}

}  // namespace

VerificationSection verificationSection(const std::string& dirName, Plotter& plotter) {
  VerificationSection v;
  const fs::path dir(dirName);
  fs::create_directories(dir / "plots");
  std::string rows;
  if (!fs::exists(dir / "summary.csv")) {
    v.tableHtml = "<p class=\"fail\">No summary.csv in " + esc(dirName) +
                  ": run <code>dem-verify --out " + esc(dirName) + "</code> first.</p>"
                  "<table id=\"verification-table\"><tbody></tbody></table>";
    return v;
  }
  const auto cases = readCases(dir);
  std::string convergence;
  for (const auto& c : cases) {
    ++v.cases;
    const bool casePass = std::all_of(c.rows.begin(), c.rows.end(), [](const QuantityRow& q) { return q.pass; });
    if (!casePass) ++v.failed;
    std::string pairwise;
    const fs::path levelsFile = dir / (c.name + ".csv");
    if (!c.exception && fs::exists(levelsFile)) {
      const Table levels = readTable(levelsFile.string(), ',');
      const Plot p = convergencePlot(c, levels, pairwise);
      const std::string base = "plots/" + slug(c.name) + "__convergence";
      plotter.render(p, (dir / base).string());
      convergence += "<div class=\"case\"><h3 id=\"case-" + esc(slug(c.name)) + "\">" + esc(c.name) + "</h3>";
      if (!c.title.empty()) convergence += "<p>" + esc(c.title) + "</p>";
      convergence += figure(base, c.name + ": error vs dt (log-log)");
      if (!pairwise.empty())
        convergence += "<p class=\"small\">Order between successive halvings: </p><ul class=\"small\">" + pairwise + "</ul>";
      convergence += "</div>\n";
    }
    for (std::size_t k = 0; k < c.rows.size(); ++k) {
      const QuantityRow& q = c.rows[k];
      ++v.quantities;
      rows += "<tr class=\"" + std::string(q.pass ? "pass" : "fail") + "\">";
      if (k == 0)
        rows += "<td rowspan=\"" + std::to_string(c.rows.size()) + "\"><a href=\"#case-" + esc(slug(c.name)) +
                "\">" + esc(c.name) + "</a><div class=\"small\">" + esc(c.title) + "</div></td>";
      rows += "<td><code>" + esc(q.quantity) + "</code></td>";
      if (c.exception) {
        rows += "<td colspan=\"4\">threw an exception (see dem-verify output)</td>";
      } else {
        rows += "<td class=\"num\">" + sci(q.error) + (q.unit.empty() ? "" : " " + esc(q.unit)) + "</td>";
        rows += "<td class=\"num\">" + sci(q.tolerance) + "</td>";
        rows += "<td class=\"num\">" + (q.hasOrder ? fixed(q.fitted, 3) : std::string("exact")) + "</td>";
        rows += "<td class=\"num\">" +
                (q.hasOrder ? fixed(q.expected, 2) + " [" + fixed(q.lo, 2) + ", " + fixed(q.hi, 2) + "]"
                            : std::string("round-off")) +
                "</td>";
      }
      rows += std::string("<td class=\"verdict\">") + (q.pass ? "PASS" : "FAIL") + "</td>";
      if (k == 0)
        rows += "<td rowspan=\"" + std::to_string(c.rows.size()) + "\" class=\"num\">" + fixed(c.seconds, 3) + "</td>";
      rows += "</tr>\n";
    }
  }
  v.tableHtml =
      "<table id=\"verification-table\"><thead><tr><th>case</th><th>quantity</th><th>error at the "
      "first dt</th><th>tolerance there</th><th>fitted order</th><th>expected [band]</th><th>pass</th>"
      "<th>time [s]</th></tr></thead><tbody>\n" + rows + "</tbody></table>\n";

  std::string series;
  for (const auto& s : readSeries(dir, cases)) series += seriesPlots(dir, s, plotter);
  v.plotsHtml = "<h2 id=\"convergence\">Convergence</h2>\n<p>Each plot shows every quantity of a case against "
                "the timestep on log-log axes: measured errors (points), the least-squares fit over the "
                "asymptotic range (thick dashed, its slope in the legend) and the slope theory predicts (grey "
                "dotted, drawn below the finest fitted point). Quantities exact to round-off have no slope; "
                "their tolerance is drawn instead.</p>\n" +
                convergence + "<h2 id=\"series\">Time series</h2>\n" + series;
  return v;
}

}  // namespace dem::report
