#include "last_good_state.hpp"

#include "atomic_file.hpp"
#include "buffered_file.hpp"
#include "run_spec.hpp"

#include <cstdio>
#include <filesystem>
#include <stdexcept>

namespace dem::io {

LastGoodState::LastGoodState(const std::string& directory, const std::string& fileName)
    : pending_(directory + pendingLastGoodFile(fileName)), path_(directory + fileName) {}

LastGoodState::~LastGoodState() { removePending(); }

void LastGoodState::keep(const Scene& scene, const OutputState& outputs) {
  if (inMemory_ || !keepOnDisk(scene, outputs)) {
    inMemory_ = true;
    checkpointBytes(scene, outputs, bytes_);  // (in place: one buffer)
  }
  step_ = scene.stepCount;
  time_ = scene.time;
}

// Streams the state into the pending file; false (the file removed, a note on stderr) when that fails.
bool LastGoodState::keepOnDisk(const Scene& scene, const OutputState& outputs) {
  try {
    BufferedFile file(pending_, false);  // (sealed only if it is saved: the hash of 10 MB at 10^4
                                         // spheres took a third of each copy's time)
    streamCheckpoint(scene, outputs, file, false);
    file.close();
    return true;
  } catch (const std::runtime_error& e) {
    removePending();  // (a partial file: it would only fill the disk)
    std::fprintf(stderr, "dem-run: note: %s; the last good state is kept in memory instead\n", e.what());
    return false;
  }
}

void LastGoodState::save() {
  if (inMemory_) {
    sealCheckpoint(bytes_);
    writeFileAtomically(path_, bytes_);
  } else {
    sealCheckpointFile(pending_);
    syncAndRename(pending_, path_);
  }
}

Scene LastGoodState::load() const { return loadCheckpoint(path_); }

void LastGoodState::removePending() const {
  std::error_code ec;
  std::filesystem::remove(pending_, ec);  // (best effort: absent after save(), or never written)
}

}  // namespace dem::io
