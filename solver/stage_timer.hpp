#pragma once
// Optional wall-clock timers of the stages of a step (fields, collider, contact loop, integrator),
// for the benchmarks and the report's "share of the step". Off by default: a disabled StageClock
// costs one branch per stage and reads no clock.

#include <chrono>
#include <cstdint>

namespace dem {

// Seconds spent in each stage, summed over `steps` steps since the last reset.
struct StageTimes {
  double fields = 0.0;      // gravity, user force field
  double collider = 0.0;    // collider update (when it runs)
  double contacts = 0.0;    // contact geometry, law and force gather
  double integrator = 0.0;  // leapfrog, damping, rotation, energy terms
  std::uint64_t steps = 0;

  double total() const { return fields + collider + contacts + integrator; }
  // Fraction of the timed step spent in a stage (0 when nothing was timed).
  double share(double stage) const { return total() > 0.0 ? stage / total() : 0.0; }
};

// Laps of one step: each lap() adds the time since the previous lap (or construction) to a stage.
class StageClock {
 public:
  explicit StageClock(bool enabled) : enabled_(enabled) {
    if (enabled_) last_ = Clock::now();
  }
  void lap(double& stage) {
    if (!enabled_) return;
    const auto now = Clock::now();
    stage += std::chrono::duration<double>(now - last_).count();
    last_ = now;
  }

 private:
  using Clock = std::chrono::steady_clock;
  bool enabled_;
  Clock::time_point last_{};
};

}  // namespace dem
