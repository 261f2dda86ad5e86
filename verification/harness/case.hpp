#pragma once
// A verification case: one scenario, run at one or more timesteps, compared with its reference.
//
// The same Case object is evaluated by the Boost.Test gates (verification/cases_test.cpp) and by
// dem-verify (the report's table and CSV files); no case is written twice.
//
// A case runs at every timestep level in `dts` (halving, fixed physical end time) and returns named
// error figures per level. Each QuantitySpec bounds its error at every level (`tolerance(dt)`, from
// theory) and, when it declares an order, the least-squares slope of log(error) vs log(dt) over the
// levels above the round-off floor must fall inside the declared band. Quantities exact to
// round-off declare no order and are reported as exact.

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
};

struct RunOutput {
  std::map<std::string, double> errors;  // quantity name -> measured error (>= 0)
  std::vector<Series> series;
};

struct OrderSpec {
  double expected = 2.0;
  double lo = 1.85, hi = 2.15;  // band for the fitted slope
  double floor = 0.0;           // levels whose error is below this are round-off and not fitted
};

struct QuantitySpec {
  std::string name;
  std::function<double(double dt)> tolerance;  // bound on the error at this dt
  std::optional<OrderSpec> order;               // none: exact (round-off) or not asymptotic
};

struct Case {
  std::string name;   // identifier (CSV file name, Boost.Test name)
  std::string title;  // one line for the table
  std::vector<double> dts;  // timestep levels; {0.0} for cases without a timestep sweep
  std::vector<QuantitySpec> quantities;
  std::function<RunOutput(double dt)> run;
  std::size_t seriesLevel = 0;  // which level's time series are kept
};

struct QuantityResult {
  std::string quantity;
  double error = 0.0;      // at the first (gate) level
  double tolerance = 0.0;  // at the first level
  double worstRatio = 0.0; // max over levels of error / tolerance
  std::optional<double> fittedOrder;
  std::optional<OrderSpec> order;
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

CaseResult evaluate(const Case& c);

// Least-squares slope of log(error) against log(dt) over the points whose error exceeds floor.
// Returns nullopt when fewer than two points remain.
std::optional<double> fitOrder(const std::vector<double>& dts, const std::vector<double>& errors, double floor);

// Geometric sequence dt0, dt0/2, ... (count levels).
std::vector<double> halvings(double dt0, int count);

// Writes <dir>/<case>.csv (dt and one column per quantity) and <dir>/<case>__<series>.csv.
void writeCsv(const CaseResult& r, const std::string& dir);

}  // namespace dem::verify
