#include "team.hpp"

#include <algorithm>
#include <cmath>

namespace dem {

void BalancedRuns::prepare(std::size_t threads) {
  if (seconds_.size() == threads) return;
  bounds_.resize(threads + 1);
  for (std::size_t s = 0; s <= threads; ++s) bounds_[s] = static_cast<double>(s) / static_cast<double>(threads);
  seconds_.assign(threads, 0.0);
}

std::size_t BalancedRuns::at(std::size_t t, std::size_t n) const {
  return std::min(n, static_cast<std::size_t>(std::lround(bounds_[t] * static_cast<double>(n))));
}

void BalancedRuns::balance() {
  const std::size_t threads = seconds_.size();
  double total = 0.0;
  for (const double s : seconds_) total += s;
  if (threads < 2 || !(total > 0.0)) return;
  // the share at which the runs before it would have taken j / threads of the time
  std::vector<double> target = bounds_;
  double before = 0.0;  // the time of the runs before run t
  for (std::size_t t = 0, j = 1; t < threads; ++t) {
    for (; j < threads && total * static_cast<double>(j) <= (before + seconds_[t]) * static_cast<double>(threads);
         ++j) {
      const double into = total * static_cast<double>(j) / static_cast<double>(threads) - before;
      target[j] = bounds_[t] + (seconds_[t] > 0.0 ? (bounds_[t + 1] - bounds_[t]) * into / seconds_[t] : 0.0);
    }
    before += seconds_[t];
  }
  for (std::size_t j = 1; j < threads; ++j) bounds_[j] = 0.5 * (bounds_[j] + target[j]);
}

}  // namespace dem
