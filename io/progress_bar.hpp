#pragma once
// Progress bar on stderr: steps, simulated time, wall time, particle-steps per second and ETA.
// On a terminal one line is redrawn at most 5 times a second; otherwise (a log file) a line is
// printed at every 10 % of the run.

#include <chrono>
#include <cstdint>
#include <cstdio>

namespace dem::io {

class ProgressBar {
 public:
  // Steps firstStep .. lastStep; nParticles bodies per step.
  ProgressBar(std::uint64_t firstStep, std::uint64_t lastStep, std::size_t nParticles, bool enabled);
  void update(std::uint64_t step, double time);
  void finish(std::uint64_t step, double time);

 private:
  using Clock = std::chrono::steady_clock;
  std::uint64_t first_, last_;
  std::size_t n_;
  bool enabled_, tty_;
  Clock::time_point start_, lastDraw_;
  int lastDecile_ = -1;
  void draw(std::uint64_t step, double time, bool final);
};

}  // namespace dem::io
