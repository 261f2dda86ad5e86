#pragma once
// Scene builders shared by verification cases, benchmarks and examples: what is timed is what is
// verified.

#include "scene.hpp"

namespace dem {

// One sphere (R = 0.1 m, density 2600 kg/m^3) at x0 with on-step velocity v0, gravity g, no damping.
Scene singleSphereScene(const Vec3& x0, const Vec3& v0, const Vec3& g, double dt);

}  // namespace dem
