#include "cases/registry.hpp"

namespace dem::verify {

std::vector<Case> allCases() {
  return {
      freeFallAdjustedCase(),
      freeFallUnadjustedCase(),
      dampedMotionCase(),
      dampedThrowCase(),
      energyFreeFallCase(),
      oscillatorDiscreteCase(),
      oscillatorContinuumCase(),
      oscillatorEnergyCase(),
      oscillatorStabilityCase(),
      dampedOscillatorCase(),
      quasiStaticSpringCase(),
  };
}

}  // namespace dem::verify
