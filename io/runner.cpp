#include "runner.hpp"

#include "atomic_file.hpp"
#include "checkpoint.hpp"
#include "clump_report.hpp"
#include "contacts_output.hpp"
#include "csv_output.hpp"
#include "last_good_state.hpp"
#include "output_files.hpp"
#include "progress_bar.hpp"
#include "stop_condition.hpp"
#include "vtk_output.hpp"
#include "vtu_binary.hpp"

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <memory>
#include <new>
#include <sstream>

#ifdef _OPENMP
#include <omp.h>
#endif

namespace dem::io {

namespace {
void removeIfPresent(const std::string& path) {
  std::error_code ec;
  if (!std::filesystem::remove(path, ec) && ec)
    throw std::runtime_error(path + ": cannot remove a leftover temporary file: " + ec.message());
}

// Rule: a restart keeps the outputs' names (the CSV file, the VTK prefix) that the checkpoint records.
void checkOutputNames(const OutputSpec& o, const OutputState& recorded, const std::string& dir,
                      const std::string& ckpt) {
  const std::string pvds[] = {o.vtk.prefix + ".pvd", o.vtk.prefix + "_contacts.pvd", o.vtk.prefix + "_cell.pvd",
                              o.vtk.prefix + "_walls.pvd"};
  for (const OutputRecord& f : recorded.files) {
    const bool csv = f.kind == OutputRecord::Kind::Appended;
    if (csv ? !o.csv.interval || f.file == o.csv.file || (o.contacts.interval && f.file == o.contacts.file)
            : !o.vtk.interval || std::ranges::count(pvds, f.file) > 0)
      continue;
    throw OutputResumeError(
        dir + f.file + ": " + ckpt + " records this output, the scene names it " +
        (csv ? o.csv.file + " (outputs.csv.file)" +
                   (o.contacts.interval ? " and " + o.contacts.file + " (outputs.contacts.file)" : "")
             : pvds[0] + " (outputs.vtk.prefix)") +
        "; refusing to resume (output names may not change on a restart; --out into a new "
        "directory starts the outputs afresh)");
  }
}

// The CSV columns the scene asks for (the cell's only when the scene has a cell).
CsvSpec csvColumns(const CsvSpec& asked, const Scene& scene) {
  CsvSpec columns = asked;
  columns.cell = asked.cell && scene.cell.has_value();
  return columns;
}

// The OpenMP thread count n (> 0; 0: unchanged) while it lives, the previous count restored after.
class ThreadCount {
 public:
  explicit ThreadCount(int n) {
#ifdef _OPENMP
    previous_ = omp_get_max_threads();
    if (n > 0) omp_set_num_threads(n);
#else
    (void)n;
#endif
  }
  ~ThreadCount() {
#ifdef _OPENMP
    omp_set_num_threads(previous_);
#endif
  }
  ThreadCount(const ThreadCount&) = delete;
  ThreadCount& operator=(const ThreadCount&) = delete;

 private:
  int previous_ = 1;
};

// A stop request after step n: the checkpoint of step n (when the scene asks for checkpoints; it is
// already written when n is a checkpoint step), the CSV synced first and closed after.
void stopCleanly(const Scene& scene, const OutputSpec& o, CsvOutput* csv, ContactsOutput* contacts,
                 const OutputState& outputs, RunOutcome& out) {
  if (csv) csv->sync();
  if (contacts) contacts->sync();
  if (o.checkpointInterval) {
    out.stopCheckpoint = o.directory + "/" + o.checkpointFile;
    if (scene.stepCount % o.checkpointInterval != 0) saveCheckpoint(scene, out.stopCheckpoint, outputs);
  }
  if (csv) csv->close();
  if (contacts) contacts->close();
}

}  // namespace

RunOutcome runScene(Scene& scene, const RunSpec& spec, const RunOptions& options) {
  const ThreadCount threads(spec.threads);
  const OutputSpec& o = spec.outputs;
  const std::string dir = o.directory + "/";
  RunOutcome out;
  const OutputState* restore = options.resumed && options.resumeOutputs ? &*options.resumeOutputs : nullptr;
  const std::string ckptName = options.checkpointName.empty() ? std::string("the checkpoint") : options.checkpointName;
  bool fresh = !options.resumed;
  const bool writes = options.writes;  // (the other ranks of a shared scene only step with it)
  if (!writes) restore = nullptr;
  if (restore && !restore->files.empty()) {
    // None of the recorded files in the output directory: a continuation into a new directory,
    // whose outputs start afresh. (One of them there: each is checked, a missing one refused.)
    bool any = false;
    for (const OutputRecord& f : restore->files) any = any || std::filesystem::exists(dir + f.file);
    if (!any) {
      std::fprintf(stderr,
                   "dem-run: note: none of the output files %s records is in %s: the outputs start afresh there\n",
                   ckptName.c_str(), o.directory.c_str());
      restore = nullptr;
      fresh = true;
    }
  }
  if (restore) checkOutputNames(o, *restore, dir, ckptName);
  for (const std::string* name : {&o.checkpointFile, &o.finalState, &options.lastGoodFile})
    if (writes && !name->empty()) removeIfPresent(dir + *name + ".tmp");
  if (restore) {
    // Every recorded file this run writes is checked before any is cut back: a refusal leaves them all as they were.
    std::vector<std::string> active;
    if (o.csv.interval) active.push_back(o.csv.file);
    if (o.contacts.interval) active.push_back(o.contacts.file);
    if (o.vtk.interval) {
      active.push_back(o.vtk.prefix + ".pvd");
      if (o.vtk.contacts) active.push_back(o.vtk.prefix + "_contacts.pvd");
      if (scene.cell) active.push_back(o.vtk.prefix + "_cell.pvd");
      if (hasBoundaries(scene)) active.push_back(o.vtk.prefix + "_walls.pvd");
    }
    for (const OutputRecord& f : restore->files) {
      if (std::find(active.begin(), active.end(), f.file) == active.end()) continue;
      const std::string bytes = verifiedPrefix(dir + f.file, f, ckptName);
      if (o.csv.interval && f.file == o.csv.file)
        CsvOutput::checkHeader(dir + f.file, bytes, CsvOutput::header(csvColumns(o.csv, scene)), ckptName);
    }
  }
  if (writes && fresh && scene.stepCount == 0 && !scene.clumps.list.empty())
    writeFileAtomically(dir + kClumpTableFile, clumpTable(scene));  // the clumps as loaded
  std::unique_ptr<CsvOutput> csv;
  if (o.csv.interval && writes) {
    const OutputRecord* rec = restore ? restore->find(o.csv.file) : nullptr;
    if (rec && rec->kind != OutputRecord::Kind::Appended)
      throw OutputResumeError(dir + o.csv.file + ": " + ckptName +
                              " records it as another kind of output; refusing to resume");
    csv = std::make_unique<CsvOutput>(dir + o.csv.file, csvColumns(o.csv, scene), !fresh && !restore, rec, ckptName);
    if (fresh && scene.stepCount == 0) csv->write(scene);  // the initial state
  }
  std::unique_ptr<ContactsOutput> contactsCsv;
  if (o.contacts.interval && writes) {
    const OutputRecord* rec = restore ? restore->find(o.contacts.file) : nullptr;
    if (rec && rec->kind != OutputRecord::Kind::Appended)
      throw OutputResumeError(dir + o.contacts.file + ": " + ckptName +
                              " records it as another kind of output; refusing to resume");
    contactsCsv = std::make_unique<ContactsOutput>(dir + o.contacts.file, !fresh && !restore, rec, ckptName);
  }
  std::unique_ptr<VtkOutput> vtk;
  if (o.vtk.interval && writes) {
    vtk = std::make_unique<VtkOutput>(o.directory, o.vtk.prefix, o.vtk.contacts, o.vtk.binary,
                                      o.vtk.binary && o.vtk.compress && vtkZlibAvailable());
    vtk->removeTemporaries();
    bool restored = false;
    if (restore) restored = vtk->restore(scene, *restore, ckptName);
    else if (!fresh) vtk->resume(scene);
    // (restored: the snapshots up to the checkpoint's step are there, as the interrupted run wrote them)
    if (!restored) vtk->write(scene);
  }
  const auto outputState = [&] {
    OutputState st;
    if (csv) st.files.push_back(csv->record(o.csv.file));
    if (contactsCsv) st.files.push_back(contactsCsv->record(o.contacts.file));
    if (vtk) vtk->records(st.files);
    return st;
  };
  const std::uint64_t first = scene.stepCount, last = std::max(spec.steps, first);
  StopSpec stop = spec.stop;  // a duration with dt from the estimate is a time criterion
  if (spec.duration) stop.time = stop.time ? std::min(*stop.time, *spec.duration) : *spec.duration;
  ProgressBar bar(first, last, scene.particles.size(), o.progress && writes);
  // The last good state as a checkpoint in a hidden file of the output directory (or in memory
  // when that cannot be written), not as a copy of the scene.
  // (another rank of a shared scene keeps nothing; its object names a file of its own, which it
  // never writes, so that removing it at the end leaves the first rank's alone)
  LastGoodState good(dir, writes ? options.lastGoodFile : options.lastGoodFile + ".other-rank");
  const auto keepGood = [&] {
    if (writes) good.keep(scene, outputState());
  };
  keepGood();
  // Saves the last good state after an error (best effort: the error may be the disk's or memory's)
  // and throws RunError naming the step, the time and the file.
  const auto fail = [&](const std::exception& e, RunError::Kind kind) {
    std::ostringstream m;
    m.precision(9);
    m << (kind == RunError::Kind::Output ? "writing the outputs of step " : "at step ") << scene.stepCount
      << " (t = " << scene.time << " s): " << (kind == RunError::Kind::Memory ? "out of memory" : e.what()) << "; ";
    out.lastGoodStep = good.step();
    out.lastGoodPath = good.path();
    try {
      if (csv) csv->sync();
      if (contactsCsv) contactsCsv->sync();
    } catch (const std::exception&) {
      // (the CSV's own error; the state is saved all the same, and a restart checks the CSV against it)
    }
    try {
      if (!writes) throw std::runtime_error("saved by the first rank");
      good.save();
      m << "the last good state (step " << good.step() << ", t = " << good.time() << " s) is in " << out.lastGoodPath;
    } catch (const std::exception& again) {
      m << "the last good state (step " << good.step() << ") could not be saved: " << again.what();
      out.lastGoodPath.clear();
    }
    bar.finish(scene.stepCount, scene.time);
    throw RunError(m.str(), kind);
  };
  // A shared scene gathers its whole state for the steps whose outputs or checks read it (the same
  // steps on every rank: from the spec alone); the others leave it with the step count, time and ledger.
  const auto unbalancedForceDue = [&](std::uint64_t n) {
    return stop.unbalancedForce && stop.interval != 0 && n % stop.interval == 0;
  };
  // (the copies of the last good state read every body but no contact's results: a checkpoint
  // records whether the step kept them, io/checkpoint.hpp)
  const auto resultsAfter = [&](std::uint64_t n) {
    const auto due = [n](std::uint64_t interval) { return interval != 0 && n % interval == 0; };
    return due(o.csv.interval) || due(o.contacts.interval) || due(o.vtk.interval) || due(o.checkpointInterval) ||
           unbalancedForceDue(n) || (options.stop && options.stop->load() != 0);
  };
  const auto wholeAfter = [&](std::uint64_t n) {
    return resultsAfter(n) || (options.lastGoodInterval != 0 && n % options.lastGoodInterval == 0);
  };
  // The steps the run may end with, where its final outputs (snapshot, final state) or the caller
  // (RunOptions::contactResultsAfter) read the whole state; the time after a step is known before
  // it only while dt is fixed (the automatic dt may grow: every step of a run with a stop time
  // then), and is taken from 8 steps before the stop time.
  const bool endReads = options.contactResultsAfter || vtk || (writes && !o.finalState.empty());
  const auto mayEndAfter = [&](std::uint64_t n) {
    if (!endReads) return false;
    const bool checked = (stop.unbalancedForce || stop.kineticEnergy) && stop.interval != 0 && n % stop.interval == 0;
    const bool timed = stop.time && (scene.dtSafety() > 0.0 || scene.time + 8.0 * scene.dt() >= *stop.time);
    return n >= last || checked || timed;
  };
  // The contacts' results are kept (Scene::keepContactResults) at the steps whose outputs, checks
  // or end read them; the other steps write them nowhere. The scene's setting is restored after.
  struct ResultsSetting {
    Scene& scene;
    const bool was = scene.keepsContactResults();
    ~ResultsSetting() { scene.keepContactResults(was); }
  } resultsSetting{scene};
  while (scene.stepCount < last && !timeReached(scene, stop)) {
    if (scene.stepCount % options.lastGoodInterval == 0 && scene.stepCount != good.step()) keepGood();
    try {
      if (options.step) {
        options.step(scene, wholeAfter(scene.stepCount + 1));
      } else {
        const std::uint64_t n = scene.stepCount + 1;
        scene.keepContactResults(resultsAfter(n) || mayEndAfter(n));
        scene.step();  // throws RunawayError (solver/runaway.hpp)
      }
    } catch (const RunawayError& e) {
      out.runaway.emplace(e.what(), e.step, e.particle, scene.dt(), e.dtCritical);
      out.lastGoodStep = good.step();
      out.lastGoodPath = good.path();
      if (csv) csv->sync();
      if (contactsCsv) contactsCsv->sync();
      if (writes) good.save();
      if (vtk) vtk->write(good.load());
      if (csv) csv->close();
      if (contactsCsv) contactsCsv->close();
      bar.finish(scene.stepCount, scene.time);
      return out;
    } catch (const std::bad_alloc& e) {
      fail(e, RunError::Kind::Memory);
    } catch (const std::exception& e) {
      if (out.steps == 0 && dynamic_cast<const std::invalid_argument*>(&e)) throw;  // the input's (checked at step 1)
      fail(e, RunError::Kind::Solver);
    }
    ++out.steps;
    const std::uint64_t n = scene.stepCount;
    try {
      if (csv && n % o.csv.interval == 0) csv->write(scene);
      if (contactsCsv && n % o.contacts.interval == 0) contactsCsv->write(scene);
      if (vtk && n % o.vtk.interval == 0) vtk->write(scene);
      if (writes && o.checkpointInterval && n % o.checkpointInterval == 0) {
        // every output on the disk first (the VTK files are synced as they are written)
        if (csv) csv->sync();
        if (contactsCsv) contactsCsv->sync();
        saveCheckpoint(scene, dir + o.checkpointFile, outputState());
      }
    } catch (const std::bad_alloc& e) {
      fail(e, RunError::Kind::Memory);
    } catch (const std::exception& e) {
      fail(e, RunError::Kind::Output);
    }
    bar.update(n, scene.time);
    // (a stop request that came during a step without the contacts' results: one step more, with them)
    if (options.stop && options.stop->load() != 0 && scene.stepCount < last && scene.contacts.resultColumns()) {
      if (writes) stopCleanly(scene, o, csv.get(), contactsCsv.get(), outputState(), out);
      out.stopSignal = options.stop->load();
      bar.finish(scene.stepCount, scene.time);
      return out;
    }
    if (stop.any()) {
      // (the time and the ledger are the same on every rank; the unbalanced force reads the whole scene)
      const bool shared = options.shareStop && unbalancedForceDue(n);
      std::optional<std::string> why = writes || !shared ? stopReason(scene, stop) : std::nullopt;
      if (shared && options.shareStop(why.has_value()) && !why) why = "a stop condition (the writing rank's)";
      if (why) {
        out.stopReason = *why;
        break;
      }
    }
  }
  bar.finish(scene.stepCount, scene.time);
  if (options.gather) options.gather(scene);  // (the final outputs read everything)
  try {
    if (vtk) vtk->write(scene);
    if (csv) csv->sync();
    if (contactsCsv) contactsCsv->sync();
    const OutputState finalOutputs = outputState();
    if (csv) csv->close();
    if (contactsCsv) contactsCsv->close();
    if (!o.finalState.empty()) {
      out.finalPath = dir + o.finalState;
      if (writes) saveCheckpoint(scene, out.finalPath, finalOutputs);
    }
  } catch (const std::bad_alloc& e) {
    fail(e, RunError::Kind::Memory);
  } catch (const std::exception& e) {
    fail(e, RunError::Kind::Output);
  }
  out.finished = true;
  return out;
}

}  // namespace dem::io
