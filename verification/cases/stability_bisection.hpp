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

}  // namespace dem::verify
