#pragma once
// A test scene shared by the series tests (series_measures.cpp, stop_conditions.cpp): a bed of 40
// spheres poured into an open box of five walls (0.04 x 0.04 m), damped to rest.

#include <string>

namespace dem::io::test {

// The scene with `engine` (keys after dt, gravity and damping, e.g. "steps": 20000) and `outputs`
// (the outputs object's keys after progress and final).
inline std::string boxBedScene(const std::string& engine, const std::string& outputs) {
  return R"({
  "materials": [{"name": "m", "density": 2600, "young": 1e7, "friction": 0.4}],
  "walls": [{"point": [0, 0, 0], "normal": [0, 0, 1], "material": "m"},
            {"point": [0, 0, 0], "normal": [1, 0, 0], "material": "m"},
            {"point": [0.04, 0, 0], "normal": [-1, 0, 0], "material": "m"},
            {"point": [0, 0, 0], "normal": [0, 1, 0], "material": "m"},
            {"point": [0, 0.04, 0], "normal": [0, -1, 0], "material": "m"}],
  "generators": [{"type": "randomPacking", "min": [0, 0, 0], "max": [0.04, 0.04, 0.05], "count": 40,
                  "radius": {"distribution": "uniform", "min": 0.004, "max": 0.006}, "seed": 3, "material": "m"}],
  "engine": {"dt": 4e-5, "gravity": [0, 0, -9.81], "damping": 0.7, )" +
         engine + R"(},
  "outputs": {"progress": false, "final": null, )" +
         outputs + R"(}
})";
}

}  // namespace dem::io::test
