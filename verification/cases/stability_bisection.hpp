#pragma once
// Bisection on dt for the stability limit with a growth detector G(dt) (verification theory 2.3:
// G > 1.1 is unstable), between 0.9 and 1.1 of a reference dt_cr; 30 halvings of the bracket.

#include "harness/case.hpp"

#include <functional>
#include <string>

namespace dem::verify {

struct StabilityBisection {
  double limit = 0.0;      // midpoint of the final bracket
  bool bracketed = false;  // G(0.9 dtRef) <= 1.1 and G(1.1 dtRef) > 1.1
  Series history;          // iteration, dt/dtRef, G
};

inline StabilityBisection bisectStabilityLimit(const std::function<double(double)>& growth, double dtRef,
                                               const std::string& name) {
  StabilityBisection b;
  b.history = {name + "_bisection", {"iteration", "dt_over_dt_cr", "growth"}, {}};
  double lo = 0.9 * dtRef, hi = 1.1 * dtRef;
  b.bracketed = growth(lo) <= 1.1 && growth(hi) > 1.1;
  for (int it = 0; it < 30; ++it) {
    const double mid = 0.5 * (lo + hi), G = growth(mid);
    b.history.rows.push_back({static_cast<double>(it), mid / dtRef, G});
    (G > 1.1 ? hi : lo) = mid;
  }
  b.limit = 0.5 * (lo + hi);
  return b;
}

// The quantities of a stability-limit case for one variant (name prefix `tag`): the growth factor
// just below and above the limit, the bisection's accuracy, the estimate against its closed form
// (round-off tolerance `estimateTol`) and the estimate's safety (estimate / limit <= `overLimitTol`).
inline void addStabilityQuantities(Case& c, const std::string& tag, double estimateTol, double overLimitTol) {
  const auto q = [&c, &tag](const char* name, double tol, const char* bound) {  // bound nullptr: round-off
    const QuantitySpec spec{tag + name, [tol](double) { return tol; }, std::nullopt};
    c.quantities.push_back(bound ? theoryBound(bound, spec) : roundOffTolerance(spec));
  };
  q("growth_at_0_99", 1.1, "stable: G < 1.1 at 0.99 dt_cr (theory 8)");
  q("inverse_growth_at_1_01", 1.0, "unstable: G > 1.1 at 1.01 dt_cr (theory 8)");
  q("bisected_limit_rel", 1e-3, "bisection to 1e-3 of dt_cr (theory 8)");
  q("estimate_rel", estimateTol, nullptr);
  q("estimate_over_limit", overLimitTol, "a safe estimate: estimate <= limit (theory 8)");
}

}  // namespace dem::verify
