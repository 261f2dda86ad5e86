#include "progress_bar.hpp"

#include <algorithm>
#include <string>
#include <unistd.h>

namespace dem::io {

namespace {
std::string duration(double s) {
  char buf[32];
  if (!(s >= 0.0) || s > 1e8) return "?";
  if (s < 60) std::snprintf(buf, sizeof buf, "%.1fs", s);
  else if (s < 3600) std::snprintf(buf, sizeof buf, "%dm%02ds", int(s) / 60, int(s) % 60);
  else std::snprintf(buf, sizeof buf, "%dh%02dm", int(s) / 3600, int(s) % 3600 / 60);
  return buf;
}
}  // namespace

ProgressBar::ProgressBar(std::uint64_t firstStep, std::uint64_t lastStep, std::size_t nParticles, bool enabled)
    : first_(firstStep), last_(lastStep), n_(nParticles), enabled_(enabled), tty_(::isatty(2) != 0),
      start_(Clock::now()), lastDraw_(start_) {}

void ProgressBar::update(std::uint64_t step, double time) {
  if (!enabled_) return;
  if (tty_) {
    const auto now = Clock::now();
    if (now - lastDraw_ < std::chrono::milliseconds(200)) return;
    lastDraw_ = now;
    draw(step, time, false);
  } else {
    const std::uint64_t total = std::max<std::uint64_t>(1, last_ - first_);
    const int decile = static_cast<int>(10 * (step - first_) / total);
    if (decile == lastDecile_) return;
    lastDecile_ = decile;
    draw(step, time, false);
  }
}

void ProgressBar::finish(std::uint64_t step, double time) {
  if (!enabled_ || (!tty_ && lastDecile_ == 10 && step == last_)) return;
  draw(step, time, true);
}

void ProgressBar::draw(std::uint64_t step, double time, bool final) {
  const double wall = std::chrono::duration<double>(Clock::now() - start_).count();
  const double done = static_cast<double>(step - first_), total = static_cast<double>(last_ - first_);
  const double frac = total > 0 ? done / total : 1.0;
  const double rate = wall > 0 ? done * static_cast<double>(n_) / wall : 0.0;
  const double eta = done > 0 ? wall * (total - done) / done : -1.0;
  constexpr int kWidth = 24;
  const int filled = std::clamp(static_cast<int>(frac * kWidth), 0, kWidth);
  std::fprintf(stderr, "%s[%s%s] %3.0f%% step %llu/%llu  t=%.6g s  wall %s  %.3g particle-steps/s  ETA %s%s",
               tty_ ? "\r" : "", std::string(static_cast<std::size_t>(filled), '#').c_str(),
               std::string(static_cast<std::size_t>(kWidth - filled), ' ').c_str(), 100 * frac,
               static_cast<unsigned long long>(step), static_cast<unsigned long long>(last_), time,
               duration(wall).c_str(), rate, final ? "0s" : duration(eta).c_str(), tty_ && !final ? "\033[K" : "\n");
  std::fflush(stderr);
}

}  // namespace dem::io
