#pragma once
// The run loop of dem-run: steps a scene to the requested step with the outputs of the scene file
// (CSV, VTK + PVD, periodic checkpoints, final state), a progress bar, and runaway detection.
//
// Runaway: after each step the criteria of solver/runaway.hpp are checked (non-finite state;
// energy growth in a closed system) from the integrator's report (Scene::integrationReport), and a
// RunawayError thrown by Scene::step itself is caught the same way. The run keeps an in-memory copy
// of the last state that passed the checks (taken every `lastGoodInterval` steps); on a runaway it
// writes that copy as a checkpoint (lastGoodFile) and a VTK snapshot, and reports the step, the
// particle, dt and the estimated critical dt (Scene::criticalTimestep, solver/timestep.hpp).

#include "run_spec.hpp"
#include "solver/runaway.hpp"
#include "solver/scene.hpp"

#include <optional>
#include <string>

namespace dem::io {

struct RunOptions {
  bool resumed = false;                 // a restart: append to the CSV instead of replacing it
  std::uint64_t lastGoodInterval = 100;  // steps between in-memory copies of the state
  std::string lastGoodFile = "last-good.ckpt";
};

struct RunOutcome {
  bool finished = false;
  std::uint64_t steps = 0;               // steps run by this call
  std::optional<RunawayError> runaway;   // set when the run stopped on a runaway
  std::uint64_t lastGoodStep = 0;        // step of the state written to lastGoodFile
  std::string lastGoodPath;
  std::string finalPath;                 // the final state file ("" : none)
};

// Runs `scene` until scene.stepCount == spec.steps (nothing when it is already there). Output
// files go to spec.outputs.directory, which must exist. Throws std::runtime_error for I/O errors.
RunOutcome runScene(Scene& scene, const RunSpec& spec, const RunOptions& options);

}  // namespace dem::io
