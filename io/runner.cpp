#include "runner.hpp"

#include "checkpoint.hpp"
#include "csv_output.hpp"
#include "progress_bar.hpp"
#include "vtk_output.hpp"

#include <algorithm>
#include <memory>
#include <sstream>

namespace dem::io {

RunOutcome runScene(Scene& scene, const RunSpec& spec, const RunOptions& options) {
  const OutputSpec& o = spec.outputs;
  const std::string dir = o.directory + "/";
  RunOutcome out;
  std::unique_ptr<CsvOutput> csv;
  if (o.csv.interval) csv = std::make_unique<CsvOutput>(dir + o.csv.file, o.csv.particles, options.resumed,
                                                   o.csv.cell && scene.cell.has_value());
  std::unique_ptr<VtkOutput> vtk;
  if (o.vtk.interval) {
    vtk = std::make_unique<VtkOutput>(o.directory, o.vtk.prefix, o.vtk.contacts);
    if (options.resumed) vtk->resume(scene);
    vtk->write(scene);
  }
  const std::uint64_t first = scene.stepCount, last = std::max(spec.steps, first);
  ProgressBar bar(first, last, scene.particles.size(), o.progress);
  Scene good = scene;
  while (scene.stepCount < last) {
    if (scene.stepCount % options.lastGoodInterval == 0 && scene.stepCount != good.stepCount) good = scene;
    try {
      scene.step();  // throws RunawayError (solver/runaway.hpp)
    } catch (const RunawayError& e) {
      out.runaway.emplace(e.what(), e.step, e.particle, scene.dt(), e.dtCritical);
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
