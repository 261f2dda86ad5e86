#pragma once
// JSON scene files (format: io/scene.schema.json; examples in examples/).
//
// Bodies get particle ids in this order: walls, explicit particles, generated spheres (generators in
// order), aspherical bodies, then one clump body per clump. Every value is checked; every problem
// throws SceneError naming the file, the JSON path and what was expected. Unknown keys are errors.
// A periodic scene ("cell") has no walls, and every body's box must be narrower than half the cell;
// with a velocity gradient its particles start on the affine field unless "startOnAffineField" is
// false. engine.dt is a number or {"fromStiffness": {"safety", "interval"}}.

#include "generators.hpp"
#include "json_errors.hpp"
#include "run_spec.hpp"
#include "solver/scene.hpp"

#include <string>
#include <vector>

namespace dem::io {

struct LoadOptions {
  std::size_t maxParticles = 10'000'000;  // more generated or listed bodies than this is an error
  // Bounds on the work the loader may do (the fuzz target lowers them): grid cells x members of a
  // clump's grid inertia, and candidate spheres of one random packing.
  double maxClumpGridWork = 1e10;
  std::uint64_t maxPackingAttempts = 1'000'000'000;
  // Largest size distribution table file (randomPacking radius {"distribution": "table"}) read.
  std::size_t maxSizeTableBytes = 16u << 20;
  // Largest STL file (meshes[].stl) read; not a regular file is an error too.
  std::size_t maxStlBytes = std::size_t{4} << 30;
};

struct LoadedScene {
  Scene scene;
  RunSpec run;
  std::vector<std::string> materialNames;  // index = Scene::materials index
  std::vector<PackingReport> packings;     // one per randomPacking generator, in order
};

// Reads and parses `path` (an unreadable file or a JSON syntax error is a SceneError too).
LoadedScene loadSceneFile(const std::string& path, const LoadOptions& options = {});
// Parses `text`; `fileName` is used in messages and to resolve relative paths (size tables).
LoadedScene loadSceneText(const std::string& text, const std::string& fileName, const LoadOptions& options = {});

}  // namespace dem::io
