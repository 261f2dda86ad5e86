#pragma once
// Scene builders shared by verification cases, benchmarks and examples: what is timed is what is
// verified.

#include "scene.hpp"

namespace dem {

// One sphere (R = 0.1 m, density 2600 kg/m^3) at x0 with on-step velocity v0, gravity g, no damping.
Scene singleSphereScene(const Vec3& x0, const Vec3& v0, const Vec3& g, double dt);

// One free rigid body at the origin (mass 1 kg, radius 1 m, no gravity, no damping) with principal
// inertia I, orientation q0 (body -> space) and on-step body-frame angular velocity w0Body,
// integrated with the given rotation algorithm.
Scene rigidBodyScene(const Vec3& inertia, const Vec3& w0Body, const Quat& q0, double dt, RotationAlgorithm algorithm);

}  // namespace dem
