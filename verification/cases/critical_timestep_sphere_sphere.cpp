// Case: oscillator critical timestep on a real contact, two masses (verification theory 2.3-2.5).
// Scenario:  two equal free spheres (R = 0.01 m, 2600 kg/m^3) on the oblique line (2,-1,2)/3,
//            pressed together by a constant central load along their line of centres
//            (Scene::externalForces) to a static
//            overlap of 0.1 R, the relative coordinate started 0.05 R from equilibrium at rest
//            (adjusted start): two masses on the linear spring kn = E R (equal spheres),
//            omega^2 = kn/m* = 2 kn/m, dt_cr = 2/omega = sqrt(2 m/kn) (cases/contact_oscillator.hpp).
// Reference: relative coordinate xi_n = A cos(n theta), sin(theta/2) = omega dt/2, exact for the
//            scheme; frequency (2/dt) asin(omega dt/2); limit 2/omega by bisection (theory 2.3
//            detector, a RunawayError counts as unstable); global-stiffness estimate sqrt(2 m/kn),
//            equal to the limit (ratio 1: the seed's "two masses in opposite motion" is exactly this
//            mode; the largest eigenvalue of K = kn n n^T + ks (I - n n^T) is kn for any normal,
//            whereas the seed's diagonal terms would give 1.34 dt_cr for this oblique normal);
//            p-wave dt_cr/dt_p = sqrt(8 pi/3) = 2.894 (theory 2.5, pi' = 1, two free spheres).
// Tolerance: as critical_timestep_sphere_wall (round-off 1e-10 A and 1e-9; G < 1.1 at 0.99 and
//            > 1.1 at 1.01 dt_cr, the unilateral contact capping the growth; bisection 1e-3;
//            estimator ratios 1e-12; estimate / bisected limit 1.1e-3). The load is external, so
//            the runaway monitor's energy criterion is off here; an unstable run is bounded by
//            the contact opening and is detected by G.
// Finding: with a load of fixed direction (a "dead" load) instead, the pressed pair buckles: the
//            rolling mode (no shear displacement) has only the geometric stiffness -F/d of the
//            contact force turning with the line of centres, so round-off grows like
//            exp(sqrt(F/(d m*)) t) (measured ~1.4 per step at 0.99 dt_cr, G ~ 3.5e5, also with
//            ks = 0); physical, not a scheme instability, hence the central load.
#include "cases/contact_oscillator.hpp"
#include "cases/registry.hpp"

namespace dem::verify {

Case criticalTimestepSphereSphereCase() {
  Case c;
  c.name = "critical_timestep_sphere_sphere";
  c.title = "critical timestep on a real contact: two free spheres (two masses), limit 2/omega, estimators";
  addCriticalTimestepQuantities(c);
  CriticalTimestepSpec spec;
  spec.osc.kind = ContactOscillator::Kind::TwoSpheres;
  spec.estimateRatio = 1.0;
  c.run = [spec](double) { return runCriticalTimestep(spec); };
  return c;
}

}  // namespace dem::verify
