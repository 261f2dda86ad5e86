#pragma once
// `dem-run --restart`: the scene file against the checkpoint it resumes from.
//
// The checkpoint gives the state; the scene file must describe the same system. Refused (exit 2,
// RestartMismatch naming the first difference): another number of bodies; a body (by user id) with
// another shape, radius, mass, material, blocked axes or clump; other materials (count or any
// property); another contact law or gravity; a periodic cell in one and not the other, or another
// velocity gradient, homoDeform or flip. (The CSV's columns, i.e. outputs.csv.particles and
// outputs.csv.cell, and the outputs' file names are checked against the checkpoint's record of the
// output files: io/runner.hpp.)
//
// What may change, and is applied from the scene file (each change noted on stderr): dt (a number,
// or fromStiffness with another safety or interval, evaluated again at the next step), the Cundall
// damping (and dampGravity), the last step (engine.steps / --steps) and the output intervals. Unchanged settings keep
// the checkpoint's state exactly, so an unchanged restart stays bit-identical.

#include "checkpoint.hpp"
#include "solver/scene.hpp"

#include <string>
#include <vector>

namespace dem::io {

class RestartMismatch : public CheckpointError {
 public:
  using CheckpointError::CheckpointError;
};

// Throws RestartMismatch "SCENE: DIFFERENCE ... CHECKPOINT ...; refusing to restart".
void checkRestartScene(const Scene& fromFile, const Scene& checkpoint, const std::string& scenePath,
                       const std::string& checkpointPath);

// Applies dt, damping and dampGravity of the scene file to the checkpoint's scene where they differ; returns a
// note for each change. Also sets the spatial order (engine.spatialOrder, which the checkpoint does not hold;
// the results are the same bits either way) as the scene file does, without a note.
std::vector<std::string> applyRestartChanges(const Scene& fromFile, Scene& checkpoint);

}  // namespace dem::io
