#pragma once
// What a scene file asks dem-run to do besides building the scene: how long to run, on how many
// threads, and which outputs to write (io/scene.schema.json, "engine" and "outputs").

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace dem::io {

struct CsvSpec {
  std::string file = "series.csv";
  std::uint64_t interval = 0;          // steps between rows; 0: no CSV
  std::vector<std::size_t> particles;  // particle ids whose pos / vel / angVel are written
  bool cell = false;                   // periodic scenes: cell work, H and the stress
  bool boundary = false;               // the ledger's boundary work (prescribed motions)
  bool micromechanics = false;         // unbalanced force, coordination numbers
  std::vector<std::size_t> walls;      // wall ids whose force and torque are written
  std::size_t meshCount = 0;           // meshes 0 .. meshCount-1: force and torque written (csv.meshes)
  enum class Packing { None, Box, Cell } packing = Packing::None;  // the packing fraction column
  std::array<double, 3> packingMin{}, packingMax{};                // Packing::Box: the box
};

// Per-contact rows (io/contacts_output.hpp) at their own interval.
struct ContactsCsvSpec {
  std::string file = "contacts.csv";
  std::uint64_t interval = 0;  // steps between snapshots of the contacts; 0: none
};

struct VtkSpec {
  std::string prefix = "particles";  // PREFIX_NNNNNN.vtu and PREFIX.pvd (contacts: PREFIX_contacts...)
  std::uint64_t interval = 0;        // steps between snapshots; 0: no VTK
  bool contacts = false;             // also write real contacts as lines with their normal force
  bool binary = true;                // appended raw binary; false: ASCII
  bool compress = true;              // binary: zlib-compressed when the build has zlib
};

// The state before a runaway (io/runner.hpp, RunOptions::lastGoodFile).
inline constexpr const char* kLastGoodFile = "last-good.ckpt";
// The hidden file that holds the last good state while the run goes on (io/last_good_state.hpp):
// ".last-good.ckpt.pending", renamed to the last-good file when the run fails, removed when it ends.
inline std::string pendingLastGoodFile(const std::string& lastGoodFile) { return "." + lastGoodFile + ".pending"; }

// Output file names are checked at scene load: no two outputs may share a file (nor a file and
// another's temporary NAME.tmp, nor a file and a name of the VTK series PREFIX..._NNNNNNNNN.vtu).
struct OutputSpec {
  std::string directory = ".";  // relative paths are taken from the current directory
  bool progress = true;         // progress bar on stderr
  CsvSpec csv;
  VtkSpec vtk;
  ContactsCsvSpec contacts;
  std::string finalState = "final.ckpt";       // checkpoint written at the end ("" : none)
  std::string checkpointFile = "restart.ckpt";  // periodic checkpoint
  std::uint64_t checkpointInterval = 0;         // steps; 0: none
};

// The largest step count of a scene file; a run with a stop condition and no steps runs to it.
inline constexpr std::uint64_t kMaxRunSteps = 1'000'000'000'000ull;

// engine.stop and engine.duration with the automatic timestep (io/stop_condition.hpp): the run
// ends at the first step where one of the set criteria holds (RunSpec::steps stays the last step).
struct StopSpec {
  std::optional<double> unbalancedForce;  // Yade's unbalanced force below this (solver/unbalanced_force.hpp)
  std::optional<double> kineticEnergy;    // kinetic + rotational energy (J, the ledger's) below this
  std::optional<double> time;             // simulated time (s) reached
  std::uint64_t interval = 1;             // the force and energy criteria are checked every interval steps
  bool any() const { return unbalancedForce || kineticEnergy || time; }
};

struct RunSpec {
  std::uint64_t steps = 0;  // the last step (steps are counted from the scene's start)
  StopSpec stop;
  // engine.duration with dt from the estimate: the run stops at the first step whose time reaches
  // it (steps is then the largest count); dem-run --steps clears it.
  std::optional<double> duration;
  int threads = 0;          // OpenMP threads; 0: the OpenMP default
  OutputSpec outputs;
};

}  // namespace dem::io
