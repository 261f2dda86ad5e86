#pragma once
// Stop conditions of a run (engine.stop, and engine.duration with the automatic timestep): after
// a step, the first criterion of StopSpec (io/run_spec.hpp) that holds, as a sentence for the
// report ("unbalanced force 0.0098 < 0.01"), or nothing. The time criterion is checked after every
// step: time >= T (to within 1e-9 dt, as steps = ceil(duration / dt) for a fixed dt); the force and
// energy criteria after the steps that are multiples of StopSpec::interval (the same steps on a
// restart). The unbalanced force is nan without a contact: that criterion never holds then.

#include "run_spec.hpp"
#include "solver/scene.hpp"

#include <optional>
#include <string>

namespace dem::io {

std::optional<std::string> stopReason(const Scene& scene, const StopSpec& stop);
// Whether the time criterion holds (a run that starts there takes no step).
bool timeReached(const Scene& scene, const StopSpec& stop);

}  // namespace dem::io
