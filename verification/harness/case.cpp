#include "case.hpp"

#include <chrono>
#include <cstdlib>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <limits>
#include <sstream>
#include <stdexcept>

namespace dem::verify {

QuantitySpec roundOffTolerance(QuantitySpec spec, std::string multiple) {
  spec.kind = ToleranceKind::RoundOff;
  spec.toleranceNote = std::move(multiple);
  return spec;
}

QuantitySpec theoryBound(std::string name, QuantitySpec spec) {
  spec.kind = ToleranceKind::Bound;
  spec.toleranceNote = std::move(name);
  return spec;
}

std::string toleranceKindName(const QuantityResult& q) {
  if (q.order) return "order";
  switch (q.kind) {
    case ToleranceKind::RoundOff:
      return "round-off";
    case ToleranceKind::Bound:
      return "bound";
    case ToleranceKind::Undeclared:
      break;
  }
  return "undeclared";
}

std::vector<double> halvings(double dt0, int count) {
  std::vector<double> out;
  for (int k = 0; k < count; ++k) out.push_back(dt0 / std::pow(2.0, k));
  return out;
}

namespace {
bool fitted(const std::vector<double>& dts, const std::vector<double>& errors, double floor, std::size_t from,
            std::size_t k) {
  return k >= from && k < errors.size() && errors[k] > floor && std::isfinite(errors[k]) && dts[k] > 0.0;
}
}  // namespace

std::size_t fitPoints(const std::vector<double>& dts, const std::vector<double>& errors, double floor,
                      std::size_t from) {
  std::size_t n = 0;
  for (std::size_t k = 0; k < dts.size(); ++k) n += fitted(dts, errors, floor, from, k) ? 1 : 0;
  return n;
}

std::optional<double> fitOrder(const std::vector<double>& dts, const std::vector<double>& errors, double floor,
                               std::size_t from) {
  double sx = 0, sy = 0, sxx = 0, sxy = 0;
  int n = 0;
  for (std::size_t k = 0; k < dts.size(); ++k) {
    if (!fitted(dts, errors, floor, from, k)) continue;
    const double x = std::log(dts[k]), y = std::log(errors[k]);
    sx += x; sy += y; sxx += x * x; sxy += x * y;
    ++n;
  }
  if (n < 2) return std::nullopt;
  const double denom = n * sxx - sx * sx;
  if (denom == 0.0) return std::nullopt;
  return (n * sxy - sx * sy) / denom;
}

namespace {

std::string fmt(double v) {
  std::ostringstream s;
  s.precision(4);
  s << v;
  return s.str();
}

void judge(QuantityResult& q, const QuantitySpec& spec, const std::vector<double>& dts,
           const std::vector<double>& errs, bool withOrder) {
  q.pass = true;
  if (!spec.order && spec.kind == ToleranceKind::Undeclared) {
    q.pass = false;
    q.failure = "no order and no tolerance kind: declare it with roundOffTolerance(...) or theoryBound(\"name\", ...)";
  }
  if (spec.kind == ToleranceKind::Bound && spec.toleranceNote.empty()) {
    q.pass = false;
    q.failure = "a theory bound without a name";
  }
  for (std::size_t k = 0; k < dts.size(); ++k) {
    const double tol = spec.tolerance(dts[k]);
    q.tolerances.push_back(tol);
    const double e = errs[k];
    if (!std::isfinite(e) || e > tol) {
      q.pass = false;
      q.failure = "error " + fmt(e) + " > tolerance " + fmt(tol) + " at dt = " + fmt(dts[k]);
    }
    const double ratio = tol > 0 ? e / tol : (e == 0.0 ? 0.0 : std::numeric_limits<double>::infinity());
    q.worstRatio = std::max(q.worstRatio, std::isfinite(e) ? ratio : std::numeric_limits<double>::infinity());
  }
  if (!spec.order || !withOrder) return;
  if (dts.size() < kMinOrderLevels) {
    q.pass = false;
    q.failure = "declares order " + fmt(spec.order->expected) + " but runs at " + std::to_string(dts.size()) +
                " level(s); an order needs >= " + std::to_string(kMinOrderLevels) + " halvings";
    return;
  }
  q.fittedOrder = fitOrder(dts, errs, spec.order->floor, spec.order->fitFrom);
  q.fittedPoints = fitPoints(dts, errs, spec.order->floor, spec.order->fitFrom);
  if (!q.fittedOrder) {
    q.pass = false;
    q.failure = "fewer than two levels from level " + std::to_string(spec.order->fitFrom) +
                " above the round-off floor " + fmt(spec.order->floor) + ": no order";
  } else if (*q.fittedOrder < spec.order->lo || *q.fittedOrder > spec.order->hi) {
    q.pass = false;
    q.failure = "fitted order " + fmt(*q.fittedOrder) + " outside [" + fmt(spec.order->lo) + ", " +
                fmt(spec.order->hi) + "]";
  }
}

}  // namespace

EvaluateOptions evaluateOptionsFromEnvironment() {
  EvaluateOptions o;
  const char* v = std::getenv("DEM_VERIFY_GATE_ONLY");
  o.gateOnly = v != nullptr && *v != '\0' && std::string(v) != "0";
  return o;
}

CaseResult evaluate(const Case& c, EvaluateOptions options) {
  CaseResult r;
  r.name = c.name;
  r.title = c.title;
  r.dts = c.dts;
  if (options.gateOnly && r.dts.size() > 1) r.dts.erase(r.dts.begin() + 1, r.dts.end());
  const auto t0 = std::chrono::steady_clock::now();
  try {
    for (std::size_t k = 0; k < r.dts.size(); ++k) {
      RunOutput out = c.run(r.dts[k]);
      r.levels.push_back(out.errors);
      if (k == c.seriesLevel) r.series = std::move(out.series);
    }
  } catch (const std::exception& e) {
    r.exception = e.what();
  }
  r.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  r.pass = r.exception.empty();
  if (!r.pass) return r;

  for (const auto& spec : c.quantities) {
    QuantityResult q;
    q.quantity = spec.name;
    q.order = spec.order;
    q.unit = spec.unit;
    q.kind = spec.kind;
    q.toleranceNote = spec.toleranceNote;
    std::vector<double> errs;
    for (const auto& level : r.levels) {
      auto it = level.find(spec.name);
      errs.push_back(it == level.end() ? std::numeric_limits<double>::quiet_NaN() : it->second);
    }
    q.error = errs.front();
    q.tolerance = spec.tolerance(r.dts.front());
    judge(q, spec, r.dts, errs, !options.gateOnly);
    r.pass = r.pass && q.pass;
    r.quantities.push_back(std::move(q));
  }
  return r;
}

namespace {
void writeTable(const std::filesystem::path& path, const std::vector<std::string>& columns,
                const std::vector<std::vector<double>>& rows) {
  std::ofstream f(path);
  if (!f) throw std::runtime_error("cannot write " + path.string());
  f.precision(17);
  for (std::size_t j = 0; j < columns.size(); ++j) f << (j ? "," : "") << columns[j];
  f << "\n";
  for (const auto& row : rows) {
    for (std::size_t j = 0; j < row.size(); ++j) f << (j ? "," : "") << row[j];
    f << "\n";
  }
}
}  // namespace

void writeCsv(const CaseResult& r, const std::string& dir) {
  std::filesystem::create_directories(dir);
  std::vector<std::string> columns{"dt"};
  for (const auto& q : r.quantities) columns.push_back(q.quantity);
  for (const auto& q : r.quantities) columns.push_back(q.quantity + "__tolerance");
  std::vector<std::vector<double>> rows;
  for (std::size_t k = 0; k < r.levels.size(); ++k) {
    std::vector<double> row{r.dts[k]};
    for (const auto& q : r.quantities) {
      auto it = r.levels[k].find(q.quantity);
      row.push_back(it == r.levels[k].end() ? std::numeric_limits<double>::quiet_NaN() : it->second);
    }
    for (const auto& q : r.quantities)
      row.push_back(k < q.tolerances.size() ? q.tolerances[k] : std::numeric_limits<double>::quiet_NaN());
    rows.push_back(std::move(row));
  }
  writeTable(std::filesystem::path(dir) / (r.name + ".csv"), columns, rows);
  for (const auto& s : r.series)
    writeTable(std::filesystem::path(dir) / (r.name + "__" + s.name + ".csv"), s.columns, s.rows);
}

}  // namespace dem::verify
