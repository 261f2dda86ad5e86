#pragma once
// The runner's last good state (io/runner.hpp): the state of the last step that passed the runaway
// checks, kept every RunOptions::lastGoodInterval steps and saved as a checkpoint when the run fails.
//
// It is streamed as a checkpoint into a hidden file of the output directory,
// pendingLastGoodFile(name) (".last-good.ckpt.pending"), without fsync (into the page cache: cheap,
// and no memory of the process) and without its seal (the checksum: hashing the 10 MB of a 10^4
// sphere bed byte by byte took a third of each copy's time, every 500 steps). A failure appends
// the seal (sealCheckpointFile: the file read back in pieces), syncs the file and renames it to
// the last-good file (atomic): nothing is serialised at the failure, so a run out of memory saves
// its state too. The
// pending file is removed when the object goes (the run ended, stopped or threw).
//
// When the pending file cannot be written (a full disk, a read-only directory), the state is kept
// in memory as checkpoint bytes for the rest of the run (one note on stderr), as it was before it
// went to disk: a run that cannot write there still runs, and a failure then writes the bytes.

#include "checkpoint.hpp"

#include <cstdint>
#include <string>

namespace dem::io {

class LastGoodState {
 public:
  // `directory` ends with '/'; the state is saved to directory + fileName.
  LastGoodState(const std::string& directory, const std::string& fileName);
  ~LastGoodState();  // removes the pending file
  LastGoodState(const LastGoodState&) = delete;
  LastGoodState& operator=(const LastGoodState&) = delete;

  // Keeps the scene's state (with the outputs' state at its step) in place of the one kept before.
  void keep(const Scene& scene, const OutputState& outputs);
  std::uint64_t step() const { return step_; }
  double time() const { return time_; }
  const std::string& path() const { return path_; }  // where save() puts it
  // Saves the kept state to path() atomically; throws std::runtime_error naming the file.
  void save();
  // The kept state read back from path() (after save()).
  Scene load() const;

 private:
  bool keepOnDisk(const Scene& scene, const OutputState& outputs);
  void removePending() const;

  std::string pending_, path_;
  bool inMemory_ = false;  // the pending file could not be written: the state is in bytes_
  std::string bytes_;      // (unsealed checkpoint bytes: checkpointBytes)
  std::uint64_t step_ = 0;
  double time_ = 0.0;
};

}  // namespace dem::io
