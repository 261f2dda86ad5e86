#include "runner.hpp"

#include "checkpoint.hpp"
#include "critical_dt.hpp"
#include "csv_output.hpp"
#include "progress_bar.hpp"
#include "vtk_output.hpp"

#include <algorithm>
#include <memory>
#include <sstream>

namespace dem::io {

namespace {

// |g| sum_i m_i R_i over the spheres that move (solver/runaway.hpp, the lift scale).
double liftScale(const Scene& s) {
  const Particles& p = s.particles;
  double sum = 0.0;
  for (std::size_t i = 0; i < p.size(); ++i)
    if (!p.isWall(i) && !p.isClump[i]) sum += p.mass[i] * p.radius[i];
  return s.gravity.norm() * sum;
}

// The runaway criteria after a step; throws RunawayError (dtCritical filled in by the caller).
void checkStep(const Scene& s, RunawayMonitor& monitor, double lift) {
  const IntegratorScratch& r = s.integrationReport();
  const bool nonFinite = r.firstNonFinite != IntegratorScratch::npos;
  const bool closed = !s.externalForces && !r.driven;
  const auto verdict = monitor.check(s.energy, lift, closed, nonFinite, s.particles.size());
  if (verdict == RunawayMonitor::Verdict::Ok) return;
  const std::uint64_t step = s.stepCount - 1;
  std::ostringstream msg;
  std::size_t particle = 0;
  if (verdict == RunawayMonitor::Verdict::NonFinite) {
    particle = r.firstNonFinite;
    msg << "non-finite position or velocity of particle " << particle;
  } else {
    particle = r.fastest == IntegratorScratch::npos ? 0 : r.fastest;
    msg.precision(6);
    msg << "the energy grew by " << monitor.gain() << " J (bound " << monitor.bound()
        << " J) in a closed system; fastest particle " << particle;
  }
  throw RunawayError(msg.str(), step, particle, s.dt(), 0.0);
}

}  // namespace

RunOutcome runScene(Scene& scene, const RunSpec& spec, const RunOptions& options) {
  const OutputSpec& o = spec.outputs;
  const std::string dir = o.directory + "/";
  RunOutcome out;
  std::unique_ptr<CsvOutput> csv;
  if (o.csv.interval) csv = std::make_unique<CsvOutput>(dir + o.csv.file, o.csv.particles, options.resumed);
  std::unique_ptr<VtkOutput> vtk;
  if (o.vtk.interval) {
    vtk = std::make_unique<VtkOutput>(o.directory, o.vtk.prefix, o.vtk.contacts);
    if (options.resumed) vtk->resume(scene);
    vtk->write(scene);
  }
  const std::uint64_t first = scene.stepCount, last = std::max(spec.steps, first);
  ProgressBar bar(first, last, scene.particles.size(), o.progress);
  RunawayMonitor monitor;
  const double lift = liftScale(scene);
  Scene good = scene;
  while (scene.stepCount < last) {
    if (scene.stepCount % options.lastGoodInterval == 0 && scene.stepCount != good.stepCount) good = scene;
    try {
      scene.step();
      checkStep(scene, monitor, lift);
    } catch (const RunawayError& e) {
      out.runaway.emplace(e.what(), e.step, e.particle, scene.dt(), std::min(estimateCriticalDt(good), estimateCriticalDt(scene)));
      out.lastGoodStep = good.stepCount;
      out.lastGoodPath = dir + options.lastGoodFile;
      saveCheckpoint(good, out.lastGoodPath);
      if (vtk) vtk->write(good);
      if (csv) csv->flush();
      bar.finish(scene.stepCount, scene.time);
      return out;
    }
    ++out.steps;
    const std::uint64_t n = scene.stepCount;
    if (csv && n % o.csv.interval == 0) csv->write(scene);
    if (vtk && n % o.vtk.interval == 0) vtk->write(scene);
    if (o.checkpointInterval && n % o.checkpointInterval == 0) saveCheckpoint(scene, dir + o.checkpointFile);
    bar.update(n, scene.time);
  }
  bar.finish(scene.stepCount, scene.time);
  if (vtk) vtk->write(scene);
  if (csv) csv->flush();
  if (!o.finalState.empty()) {
    out.finalPath = dir + o.finalState;
    saveCheckpoint(scene, out.finalPath);
  }
  out.finished = true;
  return out;
}

}  // namespace dem::io
