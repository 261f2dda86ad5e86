#include "integrator.hpp"

#include "rotation.hpp"

#include <algorithm>
#include <cmath>

namespace dem {

namespace {

// One linear (or angular) leapfrog kick for a particle, per component, with damping and blocked axes.
// Returns the new mid-step velocity; writes the on-step velocity estimate and the damping force.
struct Kick {
  Vec3 vNew;      // v(t+dt/2)
  Vec3 vOnStep;   // v(t) estimate with the applied acceleration (deforming cell: fluctuation part)
  Vec3 dampForce; // D = -lambda sgn(...) F, per component (zero on blocked axes)
  Vec3 vFluctPrev = Vec3::Zero(), vFluctNew = Vec3::Zero();  // deforming cell only: fluctuation parts of v(t-dt/2), v(t+dt/2)
};

// first: the particle has not been integrated yet (stored velocity is the user's on-step v(0)).
// adjust: apply the first-step adjustment on this step.
inline Kick kick(const Vec3& v, const Vec3& F, double invMass, double dt, double lambda, bool first,
                 bool adjust, std::uint8_t blockedAxes) {
  Kick k;
  for (int w = 0; w < 3; ++w) {
    const double a = F[w] * invMass;
    if (blockedAxes & (1u << w)) {
      k.vNew[w] = v[w];
      k.vOnStep[w] = v[w];
      k.dampForce[w] = 0.0;
      continue;
    }
    // On-step velocity estimate inside the sign of seed eq. (34). On an adjusted first step the
    // stored v is v(0) and v(-dt/2) = v(0) - a_d dt/2, so the estimate v(-dt/2) + a dt/2 equals
    // v(0) + lambda s a dt/2; taking s = +1 here is self-consistent in every case (if it yields
    // s = -1, then v(0) opposes F by more than lambda |a| dt/2 and s = -1 is consistent too).
    const double vEst = (first && adjust) ? v[w] + lambda * a * dt / 2 : v[w] + a * dt / 2;
    const double s = signum(F[w] * vEst);
    const double aDamped = a * (1.0 - lambda * s);
    k.dampForce[w] = -lambda * s * F[w];
    if (first && adjust) {
      k.vOnStep[w] = v[w];
      k.vNew[w] = v[w] + aDamped * dt / 2;
    } else {
      k.vOnStep[w] = v[w] + aDamped * dt / 2;
      k.vNew[w] = v[w] + aDamped * dt;
    }
  }
  return k;
}

// Linear kick in a deforming cell (seed "Motion in uniformly deforming space", solver/cell.hpp):
// damping, blocked axes and the energy estimate act on the fluctuation velocity
//   v_f(t-dt/2) = v(t-dt/2) - L_{n-1/2} (x_n - v(t-dt/2) dt/2)      (field at the mid-step position)
// (on a particle's first step the stored v is on-step: v_f = v - L_{n-1/2} x_n); the new total velocity
// is the seed's update
//   v(t+dt/2) = ImLL4hInv [ LmL x_n + IpLL4h v(t-dt/2) + a dt ]
// (its dt/2 form from v(0) on an adjusted first step). A particle on the affine field of a steady L,
// started by Scene::startOnAffineField, has v_f = 0 exactly.
inline Kick homoDeformVelocity(const HomoDeform& h, const Vec3& v, const Vec3& x, const Vec3& F, double invMass,
                               double dt, double lambda, bool first, bool adjust, std::uint8_t blockedAxes) {
  const bool half = first && adjust;
  const Vec3 vf = v - h.lPrev * (first ? x : Vec3(x - 0.5 * dt * v));
  Kick k = kick(vf, F, invMass, dt, lambda, first, adjust, blockedAxes);
  const Vec3 aDt = k.vNew - vf;  // damped acceleration times dt (dt/2 on an adjusted first step)
  const Vec3 vNew = half ? Vec3(h.imll4hInvHalf * (h.lml * x + h.ipll4hHalf * v + aDt))
                         : Vec3(h.imll4hInv * (h.lml * x + h.ipll4h * v + aDt));
  k.vFluctPrev = vf;
  k.vFluctNew = k.vNew;
  k.vNew = vNew;
  for (int w = 0; w < 3; ++w)
    if (blockedAxes & (1u << w)) k.vNew[w] = v[w];
  return k;
}

// Angular kick of a spherical body in a deforming cell: damping and energy on the fluctuation
// w - w_L; w(t+dt/2) = w(t-dt/2) + dt T/I + w_L(L_{n+1/2}) - w_L(L_{n-1/2}) (seed "Angular velocity",
// with the sign of w_L from theory 4.3).
inline Kick mediumSpinKick(const HomoDeform& h, const Vec3& w, const Vec3& T, double invI, double dt, double lambda,
                           bool first, bool adjust, std::uint8_t blockedAxes) {
  const Vec3 wf = w - h.spinPrev;
  Kick k = kick(wf, T, invI, dt, lambda, first, adjust, blockedAxes);
  k.vFluctPrev = wf;
  k.vFluctNew = k.vNew;
  k.vNew = k.vNew + h.spinPrev + h.deltaSpin;
  for (int a = 0; a < 3; ++a)
    if (blockedAxes & (1u << a)) k.vNew[a] = w[a];
  return k;
}

// Aspherical rotation (solver/rotation.hpp). Damping follows Yade's NewtonIntegrator for aspherical
// bodies (cundallDamp1st on the torque): per space component, T_w *= 1 - lambda sgn(T_w w_w) with the
// stored mid-step angular velocity w(t - dt/2) (the user's w(0) on the first step), i.e. the seed's
// first form of Cundall's damping, not the on-step estimate of eq. (34) used for spherical bodies.
struct AsphericalRotation {
  RotationOutput out;
  Vec3 dampTorque = Vec3::Zero();
};

inline AsphericalRotation rotateAsphericalDamped(const Particles& p, std::size_t i, double dt, double lambda,
                                                 bool first, bool adjust, RotationAlgorithm algorithm) {
  AsphericalRotation r;
  Vec3 T = p.torque[i];
  for (int w = 0; w < 3; ++w) {
    r.dampTorque[w] = -lambda * signum(T[w] * p.angVel[i][w]) * T[w];
    T[w] += r.dampTorque[w];
  }
  RotationInput in;
  in.ori = p.ori[i];
  in.angVel = p.angVel[i];
  in.angMom = p.angMom[i];
  in.inertia = p.inertia[i];
  in.torque = T;
  in.dt = dt;
  in.first = first;
  in.adjust = adjust;
  r.out = rotateAspherical(algorithm, in);
  return r;
}

// Runaway check folded into the integration pass: a NaN or inf anywhere makes the sum non-finite.
inline void noteNonFinite(const Particles& p, std::size_t i, IntegratorScratch::Sums& sums) {
  if (!std::isfinite(p.pos[i].sum() + p.vel[i].sum() + p.angVel[i].sum()) && sums.firstNonFinite == IntegratorScratch::npos)
    sums.firstNonFinite = i;
}

// The common case in one piece: a free spherical body (no blocked axis, already integrated, outside a
// deforming cell). The same arithmetic as the general path below (kick with first = false and no
// blocked axis), without its branches: the bits are the same.
inline void integrateFreeSphere(Particles& p, std::size_t i, const Vec3& gravity, double dt, double lambda,
                                IntegratorScratch::Sums& sums) {
  const double m = p.mass[i];
  const Kick lin = kick(p.vel[i], p.force[i], 1.0 / m, dt, lambda, false, false, 0);
  const double ek = 0.5 * m * lin.vOnStep.squaredNorm();
  sums.kinetic += ek;
  for (int w = 0; w < 3; ++w) sums.gravity -= m * gravity[w] * p.pos[i][w];
  sums.dampingNow -= 0.5 * dt * lin.dampForce.dot(p.vel[i]);
  sums.dampingPending -= 0.5 * dt * lin.dampForce.dot(lin.vNew);
  p.vel[i] = lin.vNew;
  p.pos[i] += dt * lin.vNew;  // seed eq. (28)

  const double I = p.inertia[i][0];
  const Kick rot = kick(p.angVel[i], p.torque[i], 1.0 / I, dt, lambda, false, false, 0);
  const double er = 0.5 * I * rot.vOnStep.squaredNorm();
  sums.dampingNow -= 0.5 * dt * rot.dampForce.dot(p.angVel[i]);
  sums.dampingPending -= 0.5 * dt * rot.dampForce.dot(rot.vNew);
  p.angVel[i] = rot.vNew;
  p.angMom[i] = I * rot.vNew;
  p.ori[i] = (rotationQuat(rot.vNew * dt) * p.ori[i]).normalized();  // seed: q(t+dt) = Quaternion(w dt) q(t)
  sums.rotational += er;
  if (ek + er > sums.maxKinetic) {
    sums.maxKinetic = ek + er;
    sums.fastest = i;
  }
}

}  // namespace

void integrate(Particles& p, const Vec3& gravity, double dt, const IntegratorSettings& settings,
               EnergyLedger& ledger, IntegratorScratch& scratch, const HomoDeform* homo) {
  const std::size_t n = p.size();
  const std::size_t nBlocks = (n + kEnergyBlock - 1) / kEnergyBlock;
  scratch.blocks.assign(nBlocks, IntegratorScratch::Sums{});
  const double lambda = settings.damping;

#pragma omp parallel for schedule(static) if (nBlocks > 1)
  for (std::size_t b = 0; b < nBlocks; ++b) {
    IntegratorScratch::Sums sums;
    const std::size_t end = std::min(n, (b + 1) * kEnergyBlock);
    for (std::size_t i = b * kEnergyBlock; i < end; ++i) {
      if (p.clump[i] != kNoClump) continue;  // clump members move with their clump (solver/clump.hpp)
      const bool first = p.velMidstep[i] == 0;
      if (!homo && !first && p.blocked[i] == 0 && !p.isAspherical(i)) {
        integrateFreeSphere(p, i, gravity, dt, lambda, sums);
        noteNonFinite(p, i, sums);
        continue;
      }
      const bool adjust = settings.adjVel0;
      const std::uint8_t blocked = p.blocked[i];
      const double m = p.mass[i];

      // Translation, seed eq. (28) with damping eq. (34); in a deforming cell the kick acts on the
      // fluctuation velocity and the field's change is added by homoDeformVelocity.
      const Kick lin = homo ? homoDeformVelocity(*homo, p.vel[i], p.pos[i], p.force[i], 1.0 / m, dt, lambda, first,
                                                 adjust, blocked)
                            : kick(p.vel[i], p.force[i], 1.0 / m, dt, lambda, first, adjust, blocked);
      // Energy at t_n; damping work: trapezoid halves on each side of t_n.
      const double ek = 0.5 * m * lin.vOnStep.squaredNorm();
      if (homo) sums.kineticTotal += 0.5 * m * (lin.vOnStep + homo->lNow * p.pos[i]).squaredNorm();
      sums.kinetic += ek;
      if (blocked)
        for (int w = 0; w < 6; ++w)
          if ((blocked & (1u << w)) && (w < 3 ? p.vel[i][w] : p.angVel[i][w - 3]) != 0.0) sums.driven = true;
      for (int w = 0; w < 3; ++w)
        if (!(blocked & (1u << w))) sums.gravity -= m * gravity[w] * p.pos[i][w];
      if (!first) sums.dampingNow -= 0.5 * dt * lin.dampForce.dot(homo ? lin.vFluctPrev : p.vel[i]);
      sums.dampingPending -= 0.5 * dt * lin.dampForce.dot(homo ? lin.vFluctNew : lin.vNew);
      p.vel[i] = lin.vNew;
      p.pos[i] += dt * lin.vNew;  // seed eq. (28)

      double er = 0.0;
      const bool aspherical = p.isAspherical(i);
      if (aspherical && !(blocked & dof::rotation)) {
        // Aspherical node: Euler's equations (Scene::validate rejects partially blocked rotations).
        const AsphericalRotation r = rotateAsphericalDamped(p, i, dt, lambda, first, adjust, settings.rotation);
        er = rotationalEnergy(r.out.angVelBodyOnStep, p.inertia[i]);
        if (!first) sums.dampingNow -= 0.5 * dt * r.dampTorque.dot(p.angVel[i]);
        sums.dampingPending -= 0.5 * dt * r.dampTorque.dot(r.out.angVel);
        p.angVel[i] = r.out.angVel;
        p.angMom[i] = r.out.angMom;
        p.ori[i] = r.out.ori;
      } else {
        // Rotation of a spherical node (or of a body whose rotations are all prescribed): angular
        // acceleration T / I11.
        const double I = p.inertia[i][0];
        const std::uint8_t blockedRot = static_cast<std::uint8_t>(blocked >> 3);
        const bool spin = homo && !aspherical;  // aspherical: W treated as zero (seed)
        Kick rot = spin ? mediumSpinKick(*homo, p.angVel[i], p.torque[i], 1.0 / I, dt, lambda, first, adjust, blockedRot)
                        : kick(p.angVel[i], p.torque[i], 1.0 / I, dt, lambda, first, adjust, blockedRot);
        er = aspherical ? rotationalEnergy(p.ori[i].conjugate() * rot.vOnStep, p.inertia[i])
                               : 0.5 * I * rot.vOnStep.squaredNorm();
        if (!first) sums.dampingNow -= 0.5 * dt * rot.dampForce.dot(spin ? rot.vFluctPrev : p.angVel[i]);
        sums.dampingPending -= 0.5 * dt * rot.dampForce.dot(spin ? rot.vFluctNew : rot.vNew);
        p.angVel[i] = rot.vNew;
        p.angMom[i] = aspherical ? Vec3(p.ori[i] * p.inertia[i].cwiseProduct(p.ori[i].conjugate() * rot.vNew))
                                        : Vec3(I * rot.vNew);
        p.ori[i] = (rotationQuat(rot.vNew * dt) * p.ori[i]).normalized();
      }
      sums.rotational += er;
      if (ek + er > sums.maxKinetic) {
        sums.maxKinetic = ek + er;
        sums.fastest = i;
      }
      p.velMidstep[i] = 1;
      noteNonFinite(p, i, sums);
    }
    scratch.blocks[b] = sums;
  }

  IntegratorScratch::Sums total;
  for (const auto& s : scratch.blocks) {
    if (s.maxKinetic > total.maxKinetic) {
      total.maxKinetic = s.maxKinetic;
      total.fastest = s.fastest;
    }
    if (total.firstNonFinite == IntegratorScratch::npos) total.firstNonFinite = s.firstNonFinite;
    total.driven = total.driven || s.driven;
    total.kinetic += s.kinetic;
    total.kineticTotal += s.kineticTotal;
    total.rotational += s.rotational;
    total.gravity += s.gravity;
    total.dampingNow += s.dampingNow;
    total.dampingPending += s.dampingPending;
  }
  ledger.kinetic = total.kinetic;
  ledger.kineticTotal = total.kineticTotal;
  ledger.rotational = total.rotational;
  ledger.gravity = total.gravity;
  ledger.dampingDissipated += ledger.dampingPending + total.dampingNow;
  ledger.dampingPending = total.dampingPending;
  scratch.fastest = total.fastest;
  scratch.firstNonFinite = total.firstNonFinite;
  scratch.driven = total.driven;
}

}  // namespace dem
