#pragma once
// A verification case: one scenario, run at one or more timesteps, compared with its reference.
//
// The same Case object is evaluated by the Boost.Test gates (verification/cases_test.cpp) and by
// dem-verify (the report's table and CSV files); no case is written twice.
//
// A case runs at every timestep level in `dts` (halving, fixed physical end time) and returns named
// error figures per level. Each QuantitySpec bounds its error at every level (`tolerance(dt)`, from
// theory) and, when it declares an order, the least-squares slope of log(error) vs log(dt) over the
// levels in the asymptotic range (from level `fitFrom` on, error above the round-off floor) must
// fall inside the declared band; a quantity that declares an order needs >= kMinOrderLevels levels.
// Every tolerance is one of three kinds, and the report shows which (issue 19 item 8): a fitted
// order (the quantity declares an OrderSpec: its band is gated, the tolerance bounds each level),
// round-off (a multiple of machine epsilon; `roundOffTolerance(spec)`), or a theory bound (a discretisation,
// model or measurement bound named in the case's banner; `theoryBound("name", spec)`). A quantity without
// an order must declare one of the last two; evaluate() fails it otherwise.
//
// Plot hints (all optional, with defaults so that every case plots): a Series may name its axes
// (`xLabel`, `yLabel`, units in brackets) and ask for a log y axis; a QuantitySpec may give the
// unit of its error. The report (reports/dem_report.cpp) draws each Series with its first column
// on x and every other column as a line.

#include <functional>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace dem::verify {

// A table of numbers a case wants to keep (time series for plots, per-level details); one CSV file.
struct Series {
  std::string name;
  std::vector<std::string> columns;
  std::vector<std::vector<double>> rows;
  // Plot hints; empty: the report derives labels (and units it knows) from the column names.
  std::string title{};
  std::string xLabel{};  // e.g. "t [s]"
  std::string yLabel{};  // e.g. "z [m]"
  bool logY = false;
};

struct RunOutput {
  std::map<std::string, double> errors;  // quantity name -> measured error (>= 0)
  std::vector<Series> series;
};

struct OrderSpec {
  double expected = 2.0;
  double lo = 1.85, hi = 2.15;  // band for the fitted slope
  double floor = 0.0;           // levels whose error is below this are round-off and not fitted
  std::size_t fitFrom = 0;      // first level of the asymptotic range; coarser levels are not fitted
};

// A quantity that declares an order runs at no fewer levels than this (theory section 0.3).
inline constexpr std::size_t kMinOrderLevels = 4;

// What a tolerance is (see the header comment). A quantity with an order is reported as its order.
enum class ToleranceKind { Undeclared, RoundOff, Bound };

struct QuantitySpec {
  std::string name;
  std::function<double(double dt)> tolerance;  // bound on the error at this dt
  std::optional<OrderSpec> order;              // none: no slope is gated (round-off or a bound)
  std::string unit{};                           // unit of the error for plots ("m", "rad"; "" = 1)
  ToleranceKind kind = ToleranceKind::Undeclared;
  // RoundOff: how the tolerance counts eps when tolerance/eps is not it (e.g. "336 ulps of kn |x|");
  // empty: the report states tolerance / eps. Bound: the bound's short name, as in the banner.
  std::string toleranceNote{};
};

// Labels a quantity's tolerance as round-off: a multiple of machine epsilon (optionally described).
QuantitySpec roundOffTolerance(QuantitySpec spec, std::string multiple = {});
// Labels a quantity's tolerance as a theory bound and names it ("leapfrog energy (w dt)^2/4").
QuantitySpec theoryBound(std::string name, QuantitySpec spec);

struct Case {
  std::string name;   // identifier (CSV file name, Boost.Test name)
  std::string title;  // one line for the table
  std::vector<double> dts;  // timestep levels; {0.0} for cases without a timestep sweep
  std::vector<QuantitySpec> quantities;
  std::function<RunOutput(double dt)> run;
  std::size_t seriesLevel = 0;  // which level's time series are kept
  // false: the case checks the inner state of one scene's parts (its collider's lists, whether its
  // loops ran on threads), which on ranks each rank's own scene holds for its share; under mpirun
  // its scenes step themselves on every rank (dem_verify.cpp, harness/ranks.hpp)
  bool onRanks = true;
};

struct QuantityResult {
  std::string quantity;
  double error = 0.0;      // at the first (gate) level
  double tolerance = 0.0;  // at the first level
  double worstRatio = 0.0; // max over levels of error / tolerance
  std::vector<double> tolerances;  // the tolerance at every level
  std::optional<double> fittedOrder;
  std::size_t fittedPoints = 0;  // levels that entered the fit
  std::optional<OrderSpec> order;
  std::string unit;
  ToleranceKind kind = ToleranceKind::Undeclared;
  std::string toleranceNote;
  bool pass = false;
  std::string failure;  // why it failed, empty when it passed
};

struct CaseResult {
  std::string name, title;
  std::vector<double> dts;
  std::vector<std::map<std::string, double>> levels;  // errors per level
  std::vector<QuantityResult> quantities;
  std::vector<Series> series;
  double seconds = 0.0;
  bool pass = false;
  std::string exception;  // set when the case threw
};

// How much of a case to run. `gateOnly`: the first (gate) level only, every quantity's tolerance
// checked there and no order fit (the fit needs the timestep sweep). Every code path of the case
// runs once; the sanitizer tests use it (CTest preset asan), the release tests run the full sweep.
struct EvaluateOptions {
  bool gateOnly = false;
};

// Options from the environment: DEM_VERIFY_GATE_ONLY set and not "0" -> gateOnly.
EvaluateOptions evaluateOptionsFromEnvironment();

CaseResult evaluate(const Case& c, EvaluateOptions options = {});

// Least-squares slope of log(error) against log(dt) over the points from index `from` on whose
// error exceeds floor. Returns nullopt when fewer than two points remain.
std::optional<double> fitOrder(const std::vector<double>& dts, const std::vector<double>& errors, double floor,
                               std::size_t from = 0);

// Number of points fitOrder uses.
std::size_t fitPoints(const std::vector<double>& dts, const std::vector<double>& errors, double floor,
                      std::size_t from = 0);

// "order", "round-off", "bound" or "undeclared": the kind a quantity's tolerance is reported as.
std::string toleranceKindName(const QuantityResult& q);

// Geometric sequence dt0, dt0/2, ... (count levels).
std::vector<double> halvings(double dt0, int count);

// Writes <dir>/<case>.csv (dt, one column per quantity, then its tolerance at each level as the
// column <quantity>__tolerance) and <dir>/<case>__<series>.csv.
void writeCsv(const CaseResult& r, const std::string& dir);

}  // namespace dem::verify
