#pragma once
// Every verification case, in the order of the report. Each factory lives in its own file under
// verification/cases/ (one scenario per file, opening with its banner).

#include "harness/case.hpp"

#include <vector>

namespace dem::verify {

Case freeFallAdjustedCase();
Case freeFallUnadjustedCase();
Case dampedMotionCase();
Case dampedThrowCase();
Case energyFreeFallCase();
Case normalImpactSphereSphereCase();
Case normalImpactSphereWallCase();
Case obliqueImpactSphereWallCase();
Case obliqueImpactSphereSphereCase();
Case slidingToRollingCase();
Case energyDepositionCase();
Case symmetricTopCase();
Case asymmetricTopCase();
Case dzhanibekovFlipCase();
Case finchamVariantDriftCase();
Case torqueDrivenTopCase();
Case sphericalThroughAsphericalCase();
Case clumpParallelAxisCase();
Case clumpGridInertiaCase();
Case clumpFreeFlightCase();
Case clumpBounceCase();
Case oscillatorDiscreteCase();
Case oscillatorContinuumCase();
Case oscillatorEnergyCase();
Case oscillatorStabilityCase();
Case criticalTimestepSphereWallCase();
Case criticalTimestepSphereSphereCase();
Case dampedOscillatorCase();
Case quasiStaticSpringCase();
Case cellNilpotentExactCase();
Case cellStretchConvergenceCase();
Case affineMotionCase();
Case energySimpleShearCase();
Case kineticEnergyMovingCellCase();
Case periodicColliderBruteForceCase();
Case periodicReplicatedContactsCase();
Case cellFlipInvarianceCase();
Case hertzImpactChungOoiCase();
Case restitutionLinearDashpotCase();
Case restitutionHertzDampedCase();
Case obliqueHertzMindlinCase();
Case criticalTimestepDampedCase();
Case criticalTimestepHertzCase();
Case criticalTimestepRotationCase();
Case columnModesCase();
Case columnLateralCase();
Case columnReleaseCase();
Case tangentialCycleCase();
Case tangentialObjectivityCase();
Case latticeLoveWeberCase();
Case latticeShearStressCase();
Case chainWavesCase();
Case hardSphereLimitCase();
Case facetRollingCase();
Case facetBoxCase();
Case facetEdgeVertexCase();
Case drumTorqueBalanceCase();
Case facetConvexEdgeCase();
// Only with dem::io (DEM_BUILD_IO).
Case stlRoundTripCase();
Case bitIdentityCase();

std::vector<Case> allCases();

}  // namespace dem::verify
