#include "cases/registry.hpp"

namespace dem::verify {

std::vector<Case> allCases() {
  return {
      freeFallAdjustedCase(),
      freeFallUnadjustedCase(),
      dampedMotionCase(),
      dampedThrowCase(),
      energyFreeFallCase(),
      normalImpactSphereSphereCase(),
      normalImpactSphereWallCase(),
      obliqueImpactSphereWallCase(),
      obliqueImpactSphereSphereCase(),
      slidingToRollingCase(),
      energyDepositionCase(),
  };
}

}  // namespace dem::verify
