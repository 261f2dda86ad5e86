#pragma once
// The run loop of dem-run: steps a scene to the requested step with the outputs of the scene file
// (CSV, VTK + PVD, periodic checkpoints, final state), a progress bar, and runaway detection.
//
// Runaway: after each step the criteria of solver/runaway.hpp are checked (non-finite state;
// energy growth in a closed system) from the integrator's report (Scene::integrationReport), and a
// RunawayError thrown by Scene::step itself is caught the same way. The run keeps the last state
// that passed the checks (taken every `lastGoodInterval` steps) as a checkpoint in the hidden file
// ".last-good.ckpt.pending" of the output directory (pendingLastGoodFile(lastGoodFile), written
// without fsync; in memory when it cannot be written: io/last_good_state.hpp); on a runaway that
// file is synced and renamed to lastGoodFile, a VTK snapshot of it is written, and the report
// names the step, the particle, dt and the estimated critical dt (Scene::criticalTimestep,
// solver/timestep.hpp). The pending file is removed when the run ends otherwise (finished, a stop
// condition, a stop request, an exception that saves nothing).
//
// Other errors after the start (the solver's, e.g. a body's box spanning half the periodic cell; an
// output's write; memory) save that last good state the same way and throw RunError naming the step,
// the time and the file. An std::invalid_argument from the first step of the call is the input's
// (the scene is checked there) and passes through unchanged.
//
// Stop request (RunOptions::stop, io/stop_signal.hpp): checked after each step and its outputs; the
// run writes a checkpoint of that step (when outputs.checkpoint.interval asks for checkpoints),
// flushes, syncs and closes the outputs, and returns with RunOutcome::stopSignal set. A restart from
// that checkpoint gives the files of an uninterrupted run.

#include "checkpoint.hpp"
#include "run_spec.hpp"
#include "solver/runaway.hpp"
#include "solver/scene.hpp"

#include <atomic>
#include <functional>
#include <optional>
#include <stdexcept>
#include <string>

namespace dem::io {

// Outputs on a restart (resumed): with the checkpoint's output state (format version 4 on,
// resumeOutputs), every output file it records is checked against it and cut back to it (the CSV to
// its recorded length, each VTK collection to its recorded entries, snapshot files of later steps
// removed), so that the finished run's files are byte-identical to an uninterrupted run's; a file
// that is missing, shorter or different throws OutputResumeError (io/output_files.hpp), and an
// output the checkpoint does not record starts afresh; when none of the recorded files is in the
// output directory (a continuation into another directory) every output starts afresh there. Without it (versions 1-3) the CSV is
// appended to as it is on disk and the collections keep their entries up to the scene's time.
// At each checkpoint every output is flushed and synced before the checkpoint is written.
// Leftover temporary files (NAME.tmp) of the outputs are removed at the start.
struct RunOptions {
  bool resumed = false;                     // a restart from a checkpoint
  std::optional<OutputState> resumeOutputs;  // the checkpoint's output state (absent: format 1-3)
  std::string checkpointName;               // the checkpoint resumed from (for messages)
  std::uint64_t lastGoodInterval = 500;     // steps between copies of the state (the pending file)
  std::string lastGoodFile = kLastGoodFile;
  const std::atomic<int>* stop = nullptr;  // non-zero: stop cleanly after the current step
  // The steps that end the run keep the contacts' results (Scene::keepContactResults), for a caller
  // that reads the scene after the run. The other steps keep them only where the run's outputs and
  // checks read them (a copy of the last good state records that its step kept none: checkpoint.hpp).
  // dem-run reads nothing after the run: it clears this.
  bool contactResultsAfter = true;
  // A scene shared among MPI ranks (dem-run under mpirun: mpi/distributed_scene.hpp). `step`
  // advances it one step and leaves in `scene` the step count, the time and the ledger, and with
  // `whole` every body and contact (gathered) for the outputs and checks of that step; `gather`
  // does the latter without a step. Every rank runs runScene with the same spec and makes the same
  // calls; only the rank with `writes` writes files and the progress bar. Empty: the scene steps itself.
  std::function<void(Scene& scene, bool whole)> step;
  std::function<void(Scene& scene)> gather;
  bool writes = true;
  // A shared scene gathered on the writing rank only: its stop conditions are evaluated there, and
  // `shareStop` gives every rank that rank's answer (collective; argument: this rank's own).
  std::function<bool(bool)> shareStop;
};

struct RunOutcome {
  bool finished = false;
  std::string stopReason;                // set when a stop condition ended the run (io/stop_condition.hpp)
  std::uint64_t steps = 0;               // steps run by this call
  std::optional<RunawayError> runaway;   // set when the run stopped on a runaway
  std::uint64_t lastGoodStep = 0;        // step of the state written to lastGoodFile
  std::string lastGoodPath;
  std::string finalPath;                 // the final state file ("" : none)
  int stopSignal = 0;                    // the stop request's value (a signal number) when it stopped the run
  std::string stopCheckpoint;            // the checkpoint written when stopped ("" : none configured)
};

// An error after the run started; the message names the step, the time and where the last good
// state was saved (or why it could not be).
class RunError : public std::runtime_error {
 public:
  enum class Kind { Solver, Output, Memory };
  RunError(const std::string& what, Kind k) : std::runtime_error(what), kind(k) {}
  Kind kind;
};

// Runs `scene` until scene.stepCount == spec.steps (nothing when it is already there), or until a
// stop condition of spec.stop holds after a step (then the run ends there as at its last step). Output
// files go to spec.outputs.directory, which must exist. Throws std::runtime_error for I/O errors
// (naming the file and the system's reason), OutputResumeError when an output does not match the
// checkpoint's record of it, RunError for an error after the start. With spec.threads > 0 the run
// uses that many OpenMP threads (engine.threads), and the caller's count is restored after it.
RunOutcome runScene(Scene& scene, const RunSpec& spec, const RunOptions& options);

}  // namespace dem::io
