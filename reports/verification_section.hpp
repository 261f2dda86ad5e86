#pragma once
// The report's verification part: the table (case, quantity, error, tolerance, fitted vs expected
// order, pass), one log-log convergence plot per case, and a plot per time series. Generic over the
// files dem-verify writes (summary.csv, <case>.csv, <case>__<series>.csv, cases.tsv, series.tsv),
// so that new cases appear without changes here.

#include "plot.hpp"

#include <string>

namespace dem::report {

struct VerificationSection {
  std::string tableHtml;   // the verification table (empty tbody when there is no summary.csv)
  std::string plotsHtml;   // convergence and time-series figures
  int cases = 0, quantities = 0, failed = 0;
};

// Reads from dir, writes plots under dir/plots/.
VerificationSection verificationSection(const std::string& dir, Plotter& plotter);

// Unit of a series column from its name ("t" -> "s", "z_ref" -> "m", "kinetic" -> "J"); "" if unknown.
std::string unitOf(const std::string& column);

}  // namespace dem::report
