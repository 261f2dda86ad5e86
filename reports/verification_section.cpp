#include "verification_section.hpp"

#include "html.hpp"
#include "table.hpp"

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <iomanip>
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

// Tick label of a timestep: short ("6.25e-4", "0.01"), so that the labels of halvings do not overlap.
std::string tickNumber(double v) {
  std::ostringstream s;
  s.precision(3);
  if (v != 0 && (std::abs(v) < 1e-3 || std::abs(v) >= 1e4)) s << std::scientific;
  s << v;
  std::string t = s.str();
  const auto e = t.find('e');
  if (e != std::string::npos) {  // 6.250e-04 -> 6.25e-4
    std::string mant = t.substr(0, e), ex = t.substr(e + 1);
    while (mant.find('.') != std::string::npos && (mant.back() == '0' || mant.back() == '.')) mant.pop_back();
    const bool neg = !ex.empty() && ex[0] == '-';
    if (!ex.empty() && (ex[0] == '-' || ex[0] == '+')) ex.erase(0, 1);
    while (ex.size() > 1 && ex[0] == '0') ex.erase(0, 1);
    t = mant + "e" + (neg ? "-" : "") + ex;
  }
  return t;
}

struct QuantityRow {
  std::string quantity, unit;
  std::string kind, note;  // tolerance kind ("order", "round-off", "bound"), the bound's name or eps count
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
    q.kind = summary.field(r, "tolerance_kind");
    if (q.kind.empty()) q.kind = q.hasOrder ? "order" : "undeclared";  // summary.csv of an older dem-verify
    q.note = summary.field(r, "tolerance_note");
    cases.back().rows.push_back(q);
  }
  return cases;
}

// A name that may break after its underscores (long quantity names in a narrow column).
std::string breakable(const std::string& name) {
  std::string out;
  for (char ch : esc(name)) out += ch == '_' ? std::string("_<wbr>") : std::string(1, ch);
  return out;
}

// A round-off tolerance at least this large belongs to an error already divided by its round-off bound
// or counted in eps (ulps): tolerance / eps would say nothing.
constexpr double kNormalised = 1e-3;

// Tolerance as a multiple of machine epsilon, e.g. "64 eps", "4.5e3 eps".
std::string epsMultiple(double tolerance) {
  const double m = tolerance / std::numeric_limits<double>::epsilon();
  if (!(m > 0)) return "0 eps";
  std::ostringstream s;
  if (m < 1e5) {
    s << std::fixed << std::setprecision(m < 10 ? 1 : 0) << m;
  } else {  // two significant digits: 1e7, 4.5e12
    int e = static_cast<int>(std::floor(std::log10(m)));
    double mant = std::round(m / std::pow(10.0, e) * 10) / 10;
    if (mant >= 10) {  // 9.99e6 rounds to 1e7
      mant /= 10;
      ++e;
    }
    s << std::setprecision(2) << mant << "e" << e;
  }
  std::string t = s.str();
  if (t.size() > 2 && t.compare(t.size() - 2, 2, ".0") == 0) t.erase(t.size() - 2);
  return t + " eps";
}

// What the tolerance is, in words: "order 2 in [1.85, 2.15]", "round-off: 64 eps", "theory bound: NAME".
std::string kindText(const QuantityRow& q) {
  if (q.kind == "order")
    return "order " + shortNumber(q.expected) + " in [" + fixed(q.lo, 2) + ", " + fixed(q.hi, 2) + "]";
  if (q.kind == "round-off") {
    if (q.tolerance == 0) return "round-off: exact (0)";
    if (q.note.empty()) return "round-off: " + epsMultiple(q.tolerance);
    // The case's count of eps; with its value here unless the error is normalised by it (tolerance ~ 1).
    return "round-off: " + q.note + (q.tolerance < kNormalised ? " = " + epsMultiple(q.tolerance) : "");
  }
  if (q.kind == "bound") return "theory bound: " + (q.note.empty() ? std::string("(unnamed)") : q.note);
  return "not declared";
}

// Short legend form of the kind.
std::string kindLegend(const QuantityRow& q) {
  if (q.kind == "order")
    return std::isfinite(q.fitted) ? "fitted " + fixed(q.fitted, 2) + ", theory " + shortNumber(q.expected)
                                   : "order " + shortNumber(q.expected);
  if (q.kind == "round-off")
    return q.tolerance == 0            ? "exact"
           : q.tolerance < kNormalised ? "round-off " + epsMultiple(q.tolerance)
                                       : "round-off";
  if (q.kind == "bound") return "theory bound";
  return "kind not declared";
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
  p.width = 1200;
  const std::vector<double> dts = levels.numbers("dt");
  if (!dts.empty()) {
    const auto [lo, hi] = std::minmax_element(dts.begin(), dts.end());
    if (*lo > 0) p.extra.push_back("set xrange [" + sci(*lo / 1.4, 6) + ":" + sci(*hi * 1.4, 6) + "]");
    std::string tics;  // a tic at every level, labelled with its dt
    for (double dt : dts)
      if (dt > 0) tics += (tics.empty() ? "" : ", ") + std::string("'") + tickNumber(dt) + "' " + sci(dt, 10);
    if (!tics.empty()) p.extra.push_back("set xtics (" + tics + ")");
  }
  // The line styles once, in grey (each quantity then has one legend entry, in its own colour).
  p.lines.push_back({"measured error", "linespoints pt 7 ps 1.0 lw 2", -1, {}, true});
  p.lines.push_back({"least-squares fit (its slope in the entry)", "lines lw 3 dt 2", -1, {}, true});
  p.lines.push_back({"slope theory predicts, below the finest fitted point", "lines lw 1.5 dt 3", -1, {}, true});
  p.lines.push_back({"tolerance at each dt (no order)", "lines lw 1.5 dt 4", -1, {}, true});
  int colour = 0;
  for (const auto& q : c.rows) {
    if (!levels.column(q.quantity)) continue;
    const std::vector<double> errs = levels.numbers(q.quantity);
    Line measured{q.quantity + " (" + kindLegend(q) + ")",
                  "linespoints pt " + std::to_string(pointType(colour)) + " ps 1.0 lw 2",
                  colour,
                  {}};
    for (std::size_t k = 0; k < dts.size(); ++k) measured.points.emplace_back(dts[k], errs[k]);
    // An error that is zero at every level has no point on log axes: its legend entry says so.
    if (std::none_of(errs.begin(), errs.end(), [](double e) { return e > 0 && std::isfinite(e); })) {
      measured.title = q.quantity + " (" + kindLegend(q) + "; error 0 at every dt, not drawn)";
      measured.keyOnly = true;
    }
    p.lines.push_back(measured);
    if (q.hasOrder && std::isfinite(q.fitted)) {
      std::vector<std::size_t> used;
      const double b = interceptFor(dts, errs, q, q.fitted, used);
      if (std::isfinite(b) && !used.empty()) {
        Line fit{"", "lines lw 3 dt 2", colour, {}};
        for (std::size_t k : used) fit.points.emplace_back(dts[k], std::exp(b + q.fitted * std::log(dts[k])));
        p.lines.push_back(fit);
        // Reference slope through the finest fitted point, over the whole dt range, offset below; in
        // the quantity's colour, so that each fit has its reference next to it.
        const std::size_t last = used.back();
        Line ref{"", "lines lw 1.5 dt 3", colour, {}};
        for (double dt : {dts.front(), dts.back()})
          ref.points.emplace_back(dt, 0.5 * errs[last] * std::pow(dt / dts[last], q.expected));
        p.lines.push_back(ref);
      }
    } else if (!q.hasOrder) {
      // The tolerance at each level (column <quantity>__tolerance; constant when an older dem-verify
      // wrote only the first level's).
      Line tol{"", "lines lw 1.5 dt 4", colour, {}};
      if (levels.column(q.quantity + "__tolerance")) {
        const std::vector<double> tols = levels.numbers(q.quantity + "__tolerance");
        for (std::size_t k = 0; k < dts.size() && k < tols.size(); ++k) tol.points.emplace_back(dts[k], tols[k]);
      } else if (q.tolerance > 0) {
        for (double dt : dts) tol.points.emplace_back(dt, q.tolerance);
      }
      if (dts.size() == 1 && !tol.points.empty()) tol.style = "points pt 1 ps 2.5 lw 2";  // one level: a cross
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
  keyBelow(p);
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

// The column a reference column belongs to: "z_ref" -> "z" when the table has "z" (also _exact,
// _analytic, _envelope, _theory, _continuum), else the one column "z_..." if there is exactly one;
// any other column is its own.
std::string referenceBase(const std::string& y, const Table& t) {
  for (const std::string suffix : {"_ref", "_exact", "_analytic", "_envelope", "_theory", "_continuum"}) {
    if (y.size() > suffix.size() && y.compare(y.size() - suffix.size(), suffix.size(), suffix) == 0) {
      const std::string base = y.substr(0, y.size() - suffix.size());
      if (t.column(base)) return base;
      // "vz_ref" of "vz_mid": the one other column named base_something.
      std::string only;
      int found = 0;
      for (const auto& c : t.columns)
        if (c != y && startsWith(c, base + "_")) {
          only = c;
          ++found;
        }
      if (found == 1) return only;
    }
  }
  return y;
}

std::string seriesPlots(const fs::path& dir, const SeriesInfo& s, Plotter& plotter) {
  const Table t = readTable((dir / s.file).string(), ',');
  if (t.columns.size() < 2 || t.rows.empty()) return {};
  const std::string x = t.columns.front();
  const std::vector<double> xs = t.numbers(x);
  // Each column followed by its reference columns (legend pairs), in the table's order otherwise.
  std::vector<std::string> ys;
  for (auto it = t.columns.begin() + 1; it != t.columns.end(); ++it) {
    if (referenceBase(*it, t) != *it) continue;
    ys.push_back(*it);
    for (auto r = t.columns.begin() + 1; r != t.columns.end(); ++r)
      if (*r != *it && referenceBase(*r, t) == *it) ys.push_back(*r);
  }
  Plot p;
  p.title = s.title.empty() ? s.caseName + ": " + s.name : s.title;
  p.xLabel = s.xLabel.empty() ? withUnit(x, unitOf(x)) : s.xLabel;
  p.yLabel = s.yLabel.empty() ? joinedLabel(ys) : s.yLabel;
  p.logY = s.logY;
  // One colour per quantity: a reference column (c_ref, c_exact, c_envelope, ...) takes the colour of
  // its column c, dashed, so that each reference line matches what it is the reference of.
  std::map<std::string, int> colours;
  for (const auto& y : ys) {
    const std::string base = referenceBase(y, t);
    if (!colours.count(base)) {
      const int next = static_cast<int>(colours.size());
      colours[base] = next;
    }
    const std::vector<double> v = t.numbers(y);
    const bool ref = base != y || y.find("envelope") != std::string::npos;
    Line l{y, ref ? "lines lw 2 dt 2" : "lines lw 2", colours[base], {}};
    for (std::size_t k = 0; k < xs.size(); ++k) l.points.emplace_back(xs[k], v[k]);
    l.points = decimate(l.points, 2000);
    p.lines.push_back(std::move(l));
  }
  keyBelow(p);
  const std::string base = "plots/" + slug(s.caseName + "__" + s.name);
  plotter.render(p, (dir / base).string());
  std::string html = figure(base, p.title);

  // A column and its reference (c, c_ref): their difference, which is usually what one wants to see.
  Plot d;
  d.title = p.title + ": deviation from the reference";
  d.xLabel = p.xLabel;
  std::vector<std::string> diffNames;
  for (const auto& y : ys) {
    if (!t.column(y + "_ref")) continue;
    const std::vector<double> a = t.numbers(y), b = t.numbers(y + "_ref");
    Line l{y + " - " + y + "_ref", "lines lw 2", colours[y], {}};
    for (std::size_t k = 0; k < xs.size(); ++k) l.points.emplace_back(xs[k], a[k] - b[k]);
    l.points = decimate(l.points, 2000);
    d.lines.push_back(std::move(l));
    diffNames.push_back(y + " - " + y + "_ref");
  }
  if (!d.lines.empty()) {
    keyBelow(d);
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
      const std::vector<double> dts = levels.numbers("dt");
      convergence += "<div class=\"case\"><h3 id=\"case-" + esc(slug(c.name)) + "\">" + esc(c.name) + "</h3>";
      if (!c.title.empty()) convergence += "<p>" + esc(c.title) + "</p>";
      if (std::any_of(dts.begin(), dts.end(), [](double dt) { return dt > 0; })) {
        const Plot p = convergencePlot(c, levels, pairwise);
        const std::string base = "plots/" + slug(c.name) + "__convergence";
        plotter.render(p, (dir / base).string());
        convergence += figure(base, c.name + ": error vs dt (log-log)");
      } else {  // one level without a timestep (dt = 0): nothing to draw against dt
        convergence +=
            "<p class=\"small\">No timestep sweep (one level): the errors and tolerances are in the "
            "table above.</p>";
      }
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
      rows += "<td class=\"quantity\"><code>" + breakable(q.quantity) + "</code></td>";
      if (c.exception) {
        rows += "<td colspan=\"4\">threw an exception (see dem-verify output)</td>";
      } else {
        rows += "<td class=\"num\">" + sci(q.error) + (q.unit.empty() ? "" : " " + esc(q.unit)) + "</td>";
        rows += "<td class=\"num\">" + sci(q.tolerance) + "</td>";
        const std::string kindClass = q.kind == "order"       ? "order"
                                      : q.kind == "round-off" ? "roundoff"
                                      : q.kind == "bound"     ? "bound"
                                                              : "undeclared";
        rows += "<td class=\"kind " + kindClass + "\">" + esc(kindText(q)) + "</td>";
        rows += "<td class=\"num\">" + (q.hasOrder ? fixed(q.fitted, 3) : std::string("&mdash;")) + "</td>";
      }
      rows += std::string("<td class=\"verdict\">") + (q.pass ? "PASS" : "FAIL") + "</td>";
      if (k == 0)
        rows += "<td rowspan=\"" + std::to_string(c.rows.size()) + "\" class=\"num\">" + fixed(c.seconds, 3) + "</td>";
      rows += "</tr>\n";
    }
  }
  v.tableHtml =
      "<table id=\"verification-table\"><thead><tr><th>case</th><th>quantity</th><th>error at the "
      "first dt</th><th>tolerance there</th><th>what the tolerance is</th><th>fitted order</th><th>pass</th>"
      "<th>time [s]</th></tr></thead><tbody>\n" +
      rows + "</tbody></table>\n";

  std::string series;
  for (const auto& s : readSeries(dir, cases)) series += seriesPlots(dir, s, plotter);
  v.plotsHtml =
      "<h2 id=\"convergence\">Convergence</h2>\n<p>Each plot shows every quantity of a case against "
      "the timestep on log-log axes, each quantity in its own colour and marker: measured errors "
      "(points), for a quantity with an order the least-squares fit over the asymptotic range (thick "
      "dashed, its slope in the legend) and the slope theory predicts (dotted, in the same colour, "
      "drawn below the finest fitted point); for a quantity without an order (round-off or a theory "
      "bound) its tolerance at each timestep (dash-dotted, same colour). The legend names each "
      "quantity's kind of tolerance.</p>\n" +
      convergence + "<h2 id=\"series\">Time series</h2>\n" + series;
  return v;
}

}  // namespace dem::report
