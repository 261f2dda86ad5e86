#pragma once
// The report's verification part: the table (case, quantity, error, tolerance, what the tolerance
// is: a fitted order and its band, round-off as a multiple of eps, or a named theory bound; fitted
// order, pass), one log-log convergence plot per case with a timestep sweep (each quantity in its own
// colour, its fit, reference slope or tolerance in the same colour), and a plot per time series (a
// reference column in the colour of its column). Generic over the
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
