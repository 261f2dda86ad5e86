// libFuzzer target for the scene loader (scripts/fuzz.sh builds and runs it): any input must either
// load or throw dem::io::SceneError; any other exception, crash, hang or sanitizer report is a bug.
// The work bounds are lowered so that a single input stays fast.
#include "io/scene_loader.hpp"

#include <cstddef>
#include <cstdint>
#include <string>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  dem::io::LoadOptions options;
  options.maxParticles = 5000;
  options.maxClumpGridWork = 2e6;
  options.maxPackingAttempts = 200000;
  options.maxSizeTableBytes = 1u << 16;
  options.maxStlBytes = 1u << 16;
  try {
    const dem::io::LoadedScene s =
        dem::io::loadSceneText(std::string(reinterpret_cast<const char*>(data), size), "fuzz.json", options);
    (void)s;
  } catch (const dem::io::SceneError&) {
  }
  return 0;
}
