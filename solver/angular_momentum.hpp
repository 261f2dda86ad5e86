#pragma once
// The angular momentum of a body about its own centre, global axes, at the time level of its
// angular velocity (mid-step once integrated): L = R diag(I) R^T w, R the rotation of its
// orientation. Integrated bodies keep it (Particles::angMom); clump members are not integrated
// and get it from their angular velocity (their clump's). A clump body's value is the clump's
// angular momentum about its centroid (the members' orbital terms are in its inertia).

#include "particles.hpp"

namespace dem {

Vec3 angularMomentum(const Particles& p, std::size_t i);

}  // namespace dem
