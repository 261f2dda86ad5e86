#pragma once
// Cundall's linear law with Coulomb friction (seed "Cundall's stress evaluation",
// Yade Law2_ScGeom_FrictPhys_CundallStrack), as a pure function of the contact physics and the
// displacements of the geometry stage (contact_geometry.hpp for the signs):
//   F_N   = kn u_N                (local x; negative = repulsive, since u_N < 0 in compression)
//   F_T^t = ks u_T                (trial shear force, local y, z)
//   F_T   = F_T^t |F_N| tan(phi)/|F_T^t|  if |F_T^t| > |F_N| tan(phi), else F_T^t
// When the cap is active the stored shear displacement is reduced to u_T = F_T/ks, so the spring
// does not keep growing while sliding. The force is the force on particle 1 (particle 2 receives
// its opposite).
// Energies: elastic = kn u_N^2/2 + |F_T|^2/(2 ks) = kn u_N^2/2 + ks |u_T|^2/2 at t_n (u_T after the
// return). Dissipation of this step: the work of the
// shear force over the step (trapezoid, (F_T,n-1 + F_T,n)/2 . du) minus the change of the stored
// shear energy, which reduces to the slip times the mean force:
//   W_slip = (F_T^t - F_T,n) . (F_T,n-1 + F_T,n) / (2 ks)     (zero while sticking or frictionless)
// This is the convention of the energy ledger (energy.hpp: trapezoidal work terms at t_n).

#include "contact_kernel.hpp"
#include "materials.hpp"
#include "math.hpp"

namespace dem {

struct CundallResult {
  Vec3 forceLocal;      // (F_N, F_T,y, F_T,z), on particle 1, local coordinates
  double uTy = 0.0, uTz = 0.0;  // shear displacement after the Coulomb return
  double elastic = 0.0;
  double dissipated = 0.0;
};

// u: (u_N, u_T,y, u_T,z) with u_N < 0 (a real contact), u_T the trial shear displacement after this
// step's increment; uPrevY, uPrevZ: the stored shear displacement of the previous step (zero for a
// new contact), i.e. F_T,n-1 = ks u_prev.
inline CundallResult cundallLaw(const ContactPhysics& ph, const Vec3& u, double uPrevY, double uPrevZ) {
  const CundallOut<double> o = cundall(ph.kn, ph.ks, ph.tanPhi, u[0], u[1], u[2], uPrevY, uPrevZ);
  CundallResult r;
  r.forceLocal = Vec3(o.fN, o.fY, o.fZ);
  r.uTy = o.uY;
  r.uTz = o.uZ;
  r.elastic = o.elastic;
  r.dissipated = o.dissipated;
  return r;
}

}  // namespace dem
