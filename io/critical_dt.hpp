#pragma once
// Estimated critical timestep, for runaway reports (dem-run).
//   with contacts: Yade's global-stiffness rule dt = min_i sqrt(m_i / K_i), K_i = sum over the real
//                  contacts of body i of max(kn, ks) (conservative: for two equal spheres on one
//                  spring the leapfrog's exact limit is sqrt(2 m / k));
//   bodies without contacts: the p-wave estimate r sqrt(rho / E) (rho from m and r).
// Walls (infinite mass) and clump bodies (their members carry the contacts) do not limit dt; a clump
// member uses its clump's mass. Returns +inf for a scene without spheres.

#include "solver/scene.hpp"

namespace dem::io {

double estimateCriticalDt(const Scene& scene);

}  // namespace dem::io
