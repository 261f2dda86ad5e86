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
      symmetricTopCase(),
      asymmetricTopCase(),
      dzhanibekovFlipCase(),
      finchamVariantDriftCase(),
      torqueDrivenTopCase(),
      sphericalThroughAsphericalCase(),
      clumpParallelAxisCase(),
      clumpGridInertiaCase(),
      clumpFreeFlightCase(),
      clumpBounceCase(),
      oscillatorDiscreteCase(),
      oscillatorContinuumCase(),
      oscillatorEnergyCase(),
      oscillatorStabilityCase(),
      criticalTimestepSphereWallCase(),
      criticalTimestepSphereSphereCase(),
      dampedOscillatorCase(),
      quasiStaticSpringCase(),
      cellNilpotentExactCase(),
      cellStretchConvergenceCase(),
      affineMotionCase(),
      energySimpleShearCase(),
      kineticEnergyMovingCellCase(),
      periodicColliderBruteForceCase(),
      periodicReplicatedContactsCase(),
      cellFlipInvarianceCase(),
      hertzImpactChungOoiCase(),
      restitutionLinearDashpotCase(),
      restitutionHertzDampedCase(),
      obliqueHertzMindlinCase(),
      criticalTimestepDampedCase(),
      criticalTimestepHertzCase(),
      criticalTimestepRotationCase(),
      columnModesCase(),
      columnLateralCase(),
      tangentialCycleCase(),
      tangentialObjectivityCase(),
      latticeLoveWeberCase(),
      latticeShearStressCase(),
      chainWavesCase(),
      hardSphereLimitCase(),
      facetRollingCase(),
      facetBoxCase(),
      facetEdgeVertexCase(),
      drumTorqueBalanceCase(),
#ifdef DEM_VERIFY_HAS_IO
      bitIdentityCase(),  // last: verification/CMakeLists.txt appends it when dem::io is built
#endif
  };
}

}  // namespace dem::verify
