#include "integrator.hpp"

#include "lanes.hpp"
#include "rotation.hpp"
#include "team.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstring>

namespace dem {

namespace {

// sum of v_w^2 over the axes w (bits 0-2 of `blocked`) that are not blocked
inline double freeSquaredNorm(const Vec3& v, std::uint8_t blocked) {
  double sum = 0.0;
  for (int w = 0; w < 3; ++w)
    if (!(blocked & (1u << w))) sum += v[w] * v[w];
  return sum;
}

// One linear (or angular) leapfrog kick for a particle, per component, with damping and blocked axes.
// Returns the new mid-step velocity; writes the on-step velocity estimate and the damping force.
struct Kick {
  Vec3 vNew;       // v(t+dt/2)
  Vec3 vOnStep;    // v(t) estimate with the applied acceleration (deforming cell: fluctuation part)
  Vec3 dampForce;  // D = -lambda sgn(...) F, per component (zero on blocked axes)
  Vec3 vFluctPrev = Vec3::Zero(),
       vFluctNew = Vec3::Zero();  // deforming cell only: fluctuation parts of v(t-dt/2), v(t+dt/2)
};

// first: the particle has not been integrated yet (stored velocity is the user's on-step v(0)).
// adjust: apply the first-step adjustment on this step.
// undamped: a part of F left out of the damping (m g with dampGravity off: Yade's
// NewtonIntegrator.dampGravity = False); then only F_d = F - undamped is damped:
//   a_damped = a - lambda s F_d / m,  s = sgn(F_d v_est).
inline Kick kick(const Vec3& v, const Vec3& F, double invMass, double dt, double lambda, bool first, bool adjust,
                 std::uint8_t blockedAxes, const Vec3* undamped = nullptr) {
  Kick k;
  for (int w = 0; w < 3; ++w) {
    const double a = F[w] * invMass;
    if (blockedAxes & (1u << w)) {
      k.vNew[w] = v[w];
      k.vOnStep[w] = v[w];
      k.dampForce[w] = 0.0;
      continue;
    }
    const double fd = undamped ? F[w] - (*undamped)[w] : F[w];  // the damped force
    // On-step velocity estimate inside the sign of seed eq. (34). On an adjusted first step the
    // stored v is v(0) and v(-dt/2) = v(0) - a_d dt/2, so the estimate v(-dt/2) + a dt/2 equals
    // v(0) + lambda s a dt/2; taking s = +1 here is self-consistent in every case (if it yields
    // s = -1, then v(0) opposes F by more than lambda |a| dt/2 and s = -1 is consistent too).
    const double vEst = !(first && adjust) ? v[w] + a * (0.5 * dt)
                        : undamped         ? v[w] + lambda * (fd * invMass) * dt / 2
                                           : v[w] + lambda * a * dt / 2;
    const double s = signum(fd * vEst);
    const double aDamped = undamped ? a - (lambda * s) * fd * invMass : a * (1.0 - lambda * s);
    k.dampForce[w] = -((lambda * s) * fd);
    if (first && adjust) {
      k.vOnStep[w] = v[w];
      k.vNew[w] = v[w] + aDamped * dt / 2;
    } else {
      k.vOnStep[w] = v[w] + 0.5 * (aDamped * dt);
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
                               double dt, double lambda, bool first, bool adjust, std::uint8_t blockedAxes,
                               const Vec3* undamped) {
  const bool half = first && adjust;
  const Vec3 vf = v - h.lPrev * (first ? x : Vec3(x - 0.5 * dt * v));
  Kick k = kick(vf, F, invMass, dt, lambda, first, adjust, blockedAxes, undamped);
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
inline bool nonFinite(const Particles& p, std::size_t i) {
  return !std::isfinite(p.pos[i].sum() + p.vel[i].sum() + p.angVel[i].sum());
}

// The common case: free spherical bodies (no blocked axis, already integrated, outside a deforming
// cell), written once for T = double (one sphere) and T = Lanes (kLanes consecutive spheres). The
// same formulas as the general path below (kick with first = false and no blocked axis, seed eqs.
// (28) and (34)), without its branches.
template <class T>
struct FreeSphere {
  V3<T> pos, vel, force, angVel, torque;
  Q4<T> ori;
  T mass, inertia;
};

// Energy terms of one free sphere at t_n, added to the block's sums in particle order.
template <class T>
struct FreeSphereTerms {
  T kinetic, rotational;
  V3<T> gravity;  // m g_w x_w, subtracted component by component
  T dampingNow, dampingPending;
  T halfAngle;  // of this step's rotation (rotationQuatSmall is used below 0.02)
};

inline double signumOf(double x) { return signum(x); }
inline Lanes signumOf(const Lanes& x) {
  return select(x > 0.0, Lanes(1.0), Lanes(0.0)) - select(x < 0.0, Lanes(1.0), Lanes(0.0));
}

// seed eq. (34): one component of a damped leapfrog kick (the on-step estimate inside the sign).
template <class T>
[[gnu::always_inline]] inline void kickComponent(const T& v, const T& F, const T& invMass, double dt, double lambda,
                                                 T& vNew, T& vOnStep, T& damp) {
  // (x * (dt/2) and (x * dt) / 2 are the same number: halving is exact)
  const T a = F * invMass;
  const T vEst = v + a * (0.5 * dt);
  const T s = signumOf(F * vEst);
  const T ls = lambda * s;
  const T aDamped = a * (1.0 - ls);
  damp = -(ls * F);
  const T aDt = aDamped * dt;
  vOnStep = v + 0.5 * aDt;
  vNew = v + aDt;
}

// The three components of a kick and the damping terms of the energy ledger at t_n (trapezoid
// halves on each side of t_n), as the general path books them.
template <class T>
struct Kick3 {
  V3<T> vNew, vOnStep, damp;
  T dampingNow, dampingPending;
};

template <class T>
[[gnu::always_inline]] inline Kick3<T> kick3(const V3<T>& v, const V3<T>& F, const T& invMass, double dt,
                                             double lambda) {
  Kick3<T> k;
  kickComponent(v.x, F.x, invMass, dt, lambda, k.vNew.x, k.vOnStep.x, k.damp.x);
  kickComponent(v.y, F.y, invMass, dt, lambda, k.vNew.y, k.vOnStep.y, k.damp.y);
  kickComponent(v.z, F.z, invMass, dt, lambda, k.vNew.z, k.vOnStep.z, k.damp.z);
  k.dampingNow = 0.5 * dt * dot(k.damp, v);
  k.dampingPending = 0.5 * dt * dot(k.damp, k.vNew);
  return k;
}

template <class T>
[[gnu::always_inline]] inline FreeSphereTerms<T> stepFreeSphere(FreeSphere<T>& b, const Vec3& gravity, double dt,
                                                                double lambda) {
  using std::sqrt;
  FreeSphereTerms<T> e;
  const Kick3<T> lin = kick3(b.vel, b.force, T(1.0 / b.mass), dt, lambda);
  e.kinetic = 0.5 * b.mass * dot(lin.vOnStep, lin.vOnStep);
  e.gravity = {b.mass * gravity[0] * b.pos.x, b.mass * gravity[1] * b.pos.y, b.mass * gravity[2] * b.pos.z};
  b.vel = lin.vNew;
  b.pos = b.pos + T(dt) * lin.vNew;  // seed eq. (28)

  const Kick3<T> rot = kick3(b.angVel, b.torque, T(1.0 / b.inertia), dt, lambda);
  e.rotational = 0.5 * b.inertia * dot(rot.vOnStep, rot.vOnStep);
  e.dampingNow = lin.dampingNow + rot.dampingNow;
  e.dampingPending = lin.dampingPending + rot.dampingPending;
  b.angVel = rot.vNew;
  const V3<T>& wNew = rot.vNew;
  // seed: q(t+dt) = Quaternion(w dt) q(t), normalised; the small-angle quaternion here, and for
  // w dt = 0 the identity (rotationQuat's: a sphere that does not spin, as in free fall, stays on
  // this path); larger angles by rotationQuat after the call (halfAngle tells which).
  const V3<T> phi = T(dt) * wNew;
  const T angle = sqrt(dot(phi, phi));
  e.halfAngle = 0.5 * angle;
  const auto still = angle == 0.0;
  const Q4<T> small = rotationQuatSmall(phi, angle);  // (NaN where still: not selected)
  const T zero(0.0);
  const Q4<T> r{select(still, T(1.0), small.w), select(still, zero, small.x), select(still, zero, small.y),
                select(still, zero, small.z)};
  const Q4<T> q = r * b.ori;
  const T inv = 1.0 / sqrt(q.w * q.w + q.x * q.x + q.y * q.y + q.z * q.z);
  b.ori = {inv * q.w, inv * q.x, inv * q.y, inv * q.z};
  return e;
}

// The orientation update of a sphere whose rotation falls outside rotationQuatSmall's range.
inline Q4<double> rotatedLarge(const Vec3& w, const Quat& ori, double dt) {
  const Quat r = rotationQuat(w * dt);
  const Q4<double> q = q4(r) * q4(ori);
  const double inv = 1.0 / std::sqrt(q.w * q.w + q.x * q.x + q.y * q.y + q.z * q.z);
  return {inv * q.w, inv * q.x, inv * q.y, inv * q.z};
}

// One sphere's terms as the ledger sums them (the general path's signs).
inline IntegratorScratch::Terms freeSphereTerms(double kinetic, double rotational, const Vec3& gravity,
                                                double dampingNow, double dampingPending) {
  IntegratorScratch::Terms t;
  t.kinetic = kinetic;
  t.rotational = rotational;
  for (int w = 0; w < 3; ++w) t.gravity -= gravity[w];
  t.dampingNow = -dampingNow;
  t.dampingPending = -dampingPending;
  return t;
}

// Body j's flags allow the fast path: not a clump's, velocities at mid-step, no axis blocked, a
// sphere's inertia (!isAspherical); combined without branches (asked for every body at every step).
inline bool freeFlags(const Particles& p, std::size_t j) {
  const Vec3& I = p.inertia[j];
  return (p.clump[j] == kNoClump) & (p.velMidstep[j] != 0) & (p.blocked[j] == 0) & (I[0] == I[1]) & (I[1] == I[2]);
}

// The fast path damps the whole force: with dampGravity off (and damping) every body takes the general path.
inline bool freeSphere(const Particles& p, std::size_t i, const HomoDeform* homo, bool fastPath) {
  return fastPath && !homo && freeFlags(p, i);
}

// Whether the kLanes bodies from i are all free spheres (freeSphere of each), with one branch for
// the group (one branch per flag and body was a tenth of the integration in a dilute scene).
inline bool freeSpheres(const Particles& p, std::size_t i, const HomoDeform* homo, bool fastPath) {
  if (!fastPath || homo) return false;
  bool all = true;
  for (std::size_t j = i; j < i + kLanes; ++j) all &= freeFlags(p, j);
  return all;
}

// A sphere with every degree of freedom blocked, outside a deforming cell (a fixed floor's spheres):
// the general path below leaves its velocities as they are, moves it with them and books no
// energy (blocked axes are outside the ledger).
inline bool fixedSphere(const Particles& p, std::size_t i, const HomoDeform* homo) {
  return !homo && p.blocked[i] == dof::all && !p.isAspherical(i);
}

// Adds the energy terms of t (a body's terms or a block's sums) to the sums.
template <class T>
inline void addEnergies(IntegratorScratch::Sums& sums, const T& t) {
  sums.kinetic += t.kinetic;
  sums.kineticTotal += t.kineticTotal;
  sums.rotational += t.rotational;
  sums.gravity += t.gravity;
  sums.dampingNow += t.dampingNow;
  sums.dampingPending += t.dampingPending;
}

// Adds body i's terms to the sums (the fastest body: the first of equal ones).
inline void addTerms(const Particles& p, IntegratorScratch::Sums& sums, std::size_t i,
                     const IntegratorScratch::Terms& t) {
  addEnergies(sums, t);
  if (t.kinetic + t.rotational > sums.maxKinetic && p.clump[i] == kNoClump && !p.isFacet(i)) {
    sums.maxKinetic = t.kinetic + t.rotational;
    sums.fastest = i;
  }
  if (t.nonFinite && sums.firstNonFinite == IntegratorScratch::npos) sums.firstNonFinite = i;
}

// Where the integrator puts each body's terms: added to the block's sums at once while every body
// is in the slot of its user id (slot order is then user-id order), else to terms[i] for sumTerms.
// (perBody: always to terms[i - first], for sums over some of the bodies: shared_sums.hpp, or for
// the head of a thread's run, whose block's first bodies are another thread's)
struct TermSink {
  const Particles& p;
  IntegratorScratch::Terms* terms;
  std::size_t first;  // the body of terms[0]
  IntegratorScratch::Sums sums;
  bool perBody = false;
  void put(std::size_t i, const IntegratorScratch::Terms& t) {
    if (!perBody) {
      addTerms(p, sums, i, t);
      return;
    }
    // field by field: a whole-struct copy went through the stack in wide loads that straddle the
    // narrower stores just made there (a failed store-to-load forward: a quarter of the free
    // spheres' integration in a scene stored out of user-id order)
    IntegratorScratch::Terms& d = terms[i - first];
    d.kinetic = t.kinetic;
    d.rotational = t.rotational;
    d.gravity = t.gravity;
    d.dampingNow = t.dampingNow;
    d.dampingPending = t.dampingPending;
    d.kineticTotal = t.kineticTotal;
    d.nonFinite = t.nonFinite;
  }
};

inline void integrateFreeSphere(Particles& p, std::size_t i, const Vec3& gravity, double dt, double lambda,
                                TermSink& sink) {
  FreeSphere<double> b{v3(p.pos[i]),    v3(p.vel[i]), v3(p.force[i]), v3(p.angVel[i]),
                       v3(p.torque[i]), q4(p.ori[i]), p.mass[i],      p.inertia[i][0]};
  const FreeSphereTerms<double> e = stepFreeSphere(b, gravity, dt, lambda);
  if (!(e.halfAngle < 0.02)) b.ori = rotatedLarge(vec3(b.angVel), p.ori[i], dt);
  p.pos[i] = vec3(b.pos);
  p.vel[i] = vec3(b.vel);
  p.angVel[i] = vec3(b.angVel);
  if (!p.angMom.empty()) p.angMom[i] = b.inertia * p.angVel[i];  // (I w: Particles::angMom)
  p.ori[i] = Quat(b.ori.w, b.ori.x, b.ori.y, b.ori.z);
  IntegratorScratch::Terms t =
      freeSphereTerms(e.kinetic, e.rotational, vec3(e.gravity), e.dampingNow, e.dampingPending);
  t.nonFinite = nonFinite(p, i);
  sink.put(i, t);
}

// A fixed sphere (fixedSphere): the same bits as the general path in integrate (its kicks keep the
// velocities of blocked axes, v(t + dt/2) = v(t - dt/2), and every energy term is zero).
inline void integrateFixedSphere(Particles& p, std::size_t i, double dt, TermSink& sink) {
  p.pos[i] += dt * p.vel[i];  // seed eq. (28)
  if (!p.angMom.empty()) p.angMom[i] = p.isotropicAngMom(i);
  p.ori[i] = (rotationQuat(p.angVel[i] * dt) * p.ori[i]).normalized();
  p.velMidstep[i] = 1;
  IntegratorScratch::Terms t;
  t.nonFinite = nonFinite(p, i);
  sink.put(i, t);
}

// kLanes fixed spheres from i0 that do not turn (the bodies integrate() gives integrateFixedSphere:
// not a clump's, not a facet, fixedSphere; with zero angular velocity and the identity
// orientation: a fixed floor) at once, when the scene keeps no angular momenta: the same bits as
// integrateFixedSphere on each (the places take + dt v in lanes; rotationQuat(0) is the identity,
// and the identity times the identity, normalised, is the identity exactly, so the orientation
// stays). False, and nothing done, unless each of them is such a sphere.
inline bool integrateRestingSpheres(Particles& p, std::size_t i0, const HomoDeform* homo, double dt, TermSink& sink) {
  if (!p.angMom.empty()) return false;
  static const Quat kIdentity = Quat::Identity();  // (w = 1, x = y = z = +0: compared bit for bit)
  for (std::size_t i = i0; i < i0 + kLanes; ++i) {
    const bool identity = std::memcmp(p.ori[i].coeffs().data(), kIdentity.coeffs().data(), sizeof(Quat)) == 0;
    if (p.clump[i] != kNoClump || p.isFacet(i) || !fixedSphere(p, i, homo) || !identity ||
        !(p.angVel[i].array() == 0.0).all())
      return false;
  }
  const V3<Lanes> v = loadV3Lanes(p.vel[i0].data()), w = loadV3Lanes(p.angVel[i0].data());
  const V3<Lanes> x = loadV3Lanes(p.pos[i0].data()) + Lanes(dt) * v;  // seed eq. (28)
  storeV3Lanes(p.pos[i0].data(), x);
  // noteNonFinite: a NaN or inf anywhere makes the sum non-finite
  const Lanes state = x.x + x.y + x.z + (v.x + v.y + v.z) + (w.x + w.y + w.z);
  const bool finite = stdx::all_of(state - state == 0.0);
  for (std::size_t i = i0; i < i0 + kLanes; ++i) {
    p.velMidstep[i] = 1;
    IntegratorScratch::Terms t;
    t.nonFinite = !finite && nonFinite(p, i);
    sink.put(i, t);
  }
  return true;
}

// kLanes consecutive free spheres i0 .. i0 + kLanes - 1 at once: the same bits as integrateFreeSphere
// on each (element-wise lane arithmetic), their terms to the sink in order.
static_assert(sizeof(Vec3) == 3 * sizeof(double) && sizeof(Quat) == 4 * sizeof(double),
              "Particles' arrays of vectors and quaternions are read as arrays of doubles");

inline void integrateFreeSpheres(Particles& p, std::size_t i0, const Vec3& gravity, double dt, double lambda,
                                 TermSink& sink) {
  const auto v3 = [&](const std::vector<Vec3>& a) __attribute__((always_inline)) { return loadV3Lanes(a[i0].data()); };
  const Q4<Lanes> ori = loadQuatLanes(p.ori[i0].coeffs().data());
  FreeSphere<Lanes> b{v3(p.pos),
                      v3(p.vel),
                      v3(p.force),
                      v3(p.angVel),
                      v3(p.torque),
                      ori,
                      Lanes(&p.mass[i0], stdx::element_aligned),
                      v3(p.inertia).x};
  const FreeSphereTerms<Lanes> e = stepFreeSphere(b, gravity, dt, lambda);
  // noteNonFinite: a NaN or inf anywhere makes the sum non-finite
  const Lanes state =
      b.pos.x + b.pos.y + b.pos.z + (b.vel.x + b.vel.y + b.vel.z) + (b.angVel.x + b.angVel.y + b.angVel.z);
  const bool finite = stdx::all_of(state - state == 0.0);
  storeV3Lanes(p.pos[i0].data(), b.pos);
  storeV3Lanes(p.vel[i0].data(), b.vel);
  storeV3Lanes(p.angVel[i0].data(), b.angVel);
  if (!p.angMom.empty())
    storeV3Lanes(p.angMom[i0].data(), {b.inertia * b.angVel.x, b.inertia * b.angVel.y, b.inertia * b.angVel.z});
  storeQuatLanes(p.ori[i0].coeffs().data(), b.ori);
  for (std::size_t j = 0; j < kLanes; ++j) {
    const std::size_t i = i0 + j;
    const double h = e.halfAngle[j];
    if (!(h < 0.02)) {  // outside rotationQuatSmall's range (or not finite): from the orientation at t_n
      const Q4<double> q = rotatedLarge(p.angVel[i], Quat(ori.w[j], ori.x[j], ori.y[j], ori.z[j]), dt);
      p.ori[i] = Quat(q.w, q.x, q.y, q.z);
    }
    IntegratorScratch::Terms t =
        freeSphereTerms(e.kinetic[j], e.rotational[j], {e.gravity.x[j], e.gravity.y[j], e.gravity.z[j]},
                        e.dampingNow[j], e.dampingPending[j]);
    t.nonFinite = !finite && nonFinite(p, i);
    sink.put(i, t);
  }
}

// The terms of the bodies with user ids in block b (kEnergyBlock ids), in the order of user ids: the
// same bits for any thread count and storage order. The fastest body and the first non-finite one:
// the lowest user id on ties.
IntegratorScratch::Sums sumTerms(const Particles& p, const IntegratorScratch::Terms* terms, std::size_t b) {
  IntegratorScratch::Sums sums;
  for (std::size_t u = b * kEnergyBlock; u < std::min(p.size(), (b + 1) * kEnergyBlock); ++u)
    addTerms(p, sums, p.slotOf[u], terms[p.slotOf[u]]);
  return sums;
}

// The energy terms of this rank's bodies, summed exactly and combined over the ranks (shared_sums.hpp).
void sharedEnergies(const Particles& p, const IntegratorScratch::Terms* terms, const SharedSums& shared,
                    IntegratorScratch::Sums& total) {
  const std::array<ExactSum, 6> e = shared.sum<6>(p.size(), [terms](std::size_t i, std::array<ExactSum, 6>& sums) {
    const IntegratorScratch::Terms& t = terms[i];
    sums[0] += t.kinetic;
    sums[1] += t.kineticTotal;
    sums[2] += t.rotational;
    sums[3] += t.gravity;
    sums[4] += t.dampingNow;
    sums[5] += t.dampingPending;
  });
  total.kinetic = e[0].value();
  total.kineticTotal = e[1].value();
  total.rotational = e[2].value();
  total.gravity = e[3].value();
  total.dampingNow = e[4].value();
  total.dampingPending = e[5].value();
}

}  // namespace

void integrate(Particles& p, const Vec3& gravity, double dt, const IntegratorSettings& settings, EnergyLedger& ledger,
               IntegratorScratch& scratch, const HomoDeform* homo, const SharedSums* shared) {
  const std::size_t n = p.size();
  p.assertInvariants();  // the lanes read kLanes consecutive entries of every array
  const std::size_t nBlocks = (n + kEnergyBlock - 1) / kEnergyBlock, nBatches = (n + kLanes - 1) / kLanes;
  scratch.blocks.assign(nBlocks, IntegratorScratch::Sums{});
  const bool perBody = !p.userOrder || shared;  // (TermSink)
  if (perBody) scratch.terms.resize(n);
  const double lambda = settings.damping;
  const bool fastPath = settings.dampGravity || lambda == 0.0;

  // Each thread a contiguous share of the bodies (runs of whole groups of kLanes: a run that begins
  // inside a block keeps its bodies' terms, added to the block's sums after the part before it, in
  // order: the same bits wherever the runs end), as the fields' loop and the contact stage's runs of
  // contacts (sorted by their first body) divide the bodies, so that each thread finds its bodies in
  // its own core's cache (handing blocks out as threads came free balanced the one-at-a-time bodies,
  // which often lie together, but moved the bodies between the cores at every step:
  // docs/performance.md, two threads); the shares balanced by their times (BalancedRuns: a fixed
  // floor or a mesh's facets in one share had left the other thread with most of the work). Each body's
  // terms go to the block's sums while every body is in the slot of its user id, else to its slot
  // of scratch.terms, summed in the order of user ids after all blocks (sumTerms; TermSink).
  IntegratorScratch::Terms* terms = scratch.terms.data();
#pragma omp parallel if (nBlocks > 1)
  {
    const TeamPlace team = teamPlace();
#pragma omp single
    {
      scratch.runs.prepare(team.threads);
      scratch.heads.prepare(team.threads);
    }  // (implicit barrier)
    const std::size_t me = team.thread;
    const auto [q0, q1] = scratch.runs.run(me, nBatches);
    const std::size_t i0 = std::min(n, q0 * kLanes), i1 = std::min(n, q1 * kLanes);
    const BalancedRuns::Timer timer(scratch.runs, me);
    forEachBlockPart(i0, i1, kEnergyBlock, [&](std::size_t a, std::size_t end, std::size_t b, bool blockHead) {
      // (the run's head, inside a block whose first bodies are another thread's: its terms kept)
      const bool head = !perBody && blockHead;
      std::vector<IntegratorScratch::Terms>* kept = head ? &scratch.heads.keep(me, b, a) : nullptr;
      if (head) kept->resize(end - a);
      TermSink sink{p, head ? kept->data() : terms, head ? a : 0, {}, perBody || head};
      for (std::size_t i = a; i < end; ++i) {
        // kLanes consecutive free spheres (the chunks start at multiples of kLanes, as blocks and runs do)
        if (i % kLanes == 0 && i + kLanes <= end && freeSpheres(p, i, homo, fastPath)) {
          integrateFreeSpheres(p, i, gravity, dt, lambda, sink);
          i += kLanes - 1;  // (and the loop's ++i: the next group)
          continue;
        }
        if (i % kLanes == 0 && i + kLanes <= end && integrateRestingSpheres(p, i, homo, dt, sink)) {
          i += kLanes - 1;
          continue;
        }
        IntegratorScratch::Terms t;
        if (p.clump[i] != kNoClump || p.isFacet(i)) {
          // clump members move with their clump (solver/clump.hpp), facets with their mesh
          // (mesh_motion.hpp; its work: meshLoadPower)
          sink.put(i, t);
          continue;
        }
        const bool first = p.velMidstep[i] == 0;
        if (freeSphere(p, i, homo, fastPath)) {
          integrateFreeSphere(p, i, gravity, dt, lambda, sink);
          continue;
        }
        if (fixedSphere(p, i, homo)) {
          integrateFixedSphere(p, i, dt, sink);
          continue;
        }
        const bool adjust = settings.adjVel0;
        const std::uint8_t blocked = p.blocked[i];
        const double m = p.mass[i];
        const Vec3 weight = m * gravity;  // left undamped with dampGravity off
        const Vec3* undamped = fastPath ? nullptr : &weight;

        // Translation, seed eq. (28) with damping eq. (34); in a deforming cell the kick acts on the
        // fluctuation velocity and the field's change is added by homoDeformVelocity.
        const Kick lin = homo ? homoDeformVelocity(*homo, p.vel[i], p.pos[i], p.force[i], 1.0 / m, dt, lambda, first,
                                                   adjust, blocked, undamped)
                              : kick(p.vel[i], p.force[i], 1.0 / m, dt, lambda, first, adjust, blocked, undamped);
        // Energy at t_n; damping work: trapezoid halves on each side of t_n.
        // (blocked axes are outside the ledger's system: energy.hpp)
        const std::uint8_t blockedLin = blocked & dof::translation;
        const double ek = 0.5 * m * freeSquaredNorm(lin.vOnStep, blockedLin);
        if (homo) t.kineticTotal += 0.5 * m * freeSquaredNorm(lin.vOnStep + homo->lNow * p.pos[i], blockedLin);
        t.kinetic += ek;
        for (int w = 0; w < 3; ++w)
          if (!(blocked & (1u << w))) t.gravity -= m * gravity[w] * p.pos[i][w];
        if (!first) t.dampingNow -= 0.5 * dt * lin.dampForce.dot(homo ? lin.vFluctPrev : p.vel[i]);
        t.dampingPending -= 0.5 * dt * lin.dampForce.dot(homo ? lin.vFluctNew : lin.vNew);
        p.vel[i] = lin.vNew;
        p.pos[i] += dt * lin.vNew;  // seed eq. (28)

        double er = 0.0;
        const bool aspherical = p.isAspherical(i);
        if (aspherical && !(blocked & dof::rotation)) {
          // Aspherical node: Euler's equations (Scene::validate rejects partially blocked rotations).
          const AsphericalRotation r = rotateAsphericalDamped(p, i, dt, lambda, first, adjust, settings.rotation);
          er = rotationalEnergy(r.out.angVelBodyOnStep, p.inertia[i]);
          if (!first) t.dampingNow -= 0.5 * dt * r.dampTorque.dot(p.angVel[i]);
          t.dampingPending -= 0.5 * dt * r.dampTorque.dot(r.out.angVel);
          p.angVel[i] = r.out.angVel;
          p.angMom[i] = r.out.angMom;
          p.ori[i] = r.out.ori;
        } else {
          // Rotation of a spherical node (or of a body whose rotations are all prescribed): angular
          // acceleration T / I11.
          const double I = p.inertia[i][0];
          const std::uint8_t blockedRot = static_cast<std::uint8_t>(blocked >> 3);
          const bool spin = homo && !aspherical;  // aspherical: W treated as zero (seed)
          Kick rot =
              spin ? mediumSpinKick(*homo, p.angVel[i], p.torque[i], 1.0 / I, dt, lambda, first, adjust, blockedRot)
                   : kick(p.angVel[i], p.torque[i], 1.0 / I, dt, lambda, first, adjust, blockedRot);
          // (an aspherical body here has every rotation blocked: no rotational energy of its own)
          er = aspherical ? 0.0 : 0.5 * I * freeSquaredNorm(rot.vOnStep, blockedRot);
          if (!first) t.dampingNow -= 0.5 * dt * rot.dampForce.dot(spin ? rot.vFluctPrev : p.angVel[i]);
          t.dampingPending -= 0.5 * dt * rot.dampForce.dot(spin ? rot.vFluctNew : rot.vNew);
          p.angVel[i] = rot.vNew;
          if (!p.angMom.empty())  // (kept for every aspherical body; I w otherwise: Particles::angMom)
            p.angMom[i] = aspherical ? Vec3(p.ori[i] * p.inertia[i].cwiseProduct(p.ori[i].conjugate() * rot.vNew))
                                     : Vec3(I * rot.vNew);
          p.ori[i] = (rotationQuat(rot.vNew * dt) * p.ori[i]).normalized();
        }
        t.rotational += er;
        p.velMidstep[i] = 1;
        t.nonFinite = nonFinite(p, i);
        sink.put(i, t);
      }
      if (!perBody && !head) scratch.blocks[b] = sink.sums;
    });
  }

  scratch.runs.balance();
  // the runs' heads after the blocks' first bodies, in order
  scratch.heads.replay([&](std::size_t b, std::size_t first, const std::vector<IntegratorScratch::Terms>& kept) {
    for (std::size_t j = 0; j < kept.size(); ++j) addTerms(p, scratch.blocks[b], first + j, kept[j]);
  });
  if (perBody) {
#pragma omp parallel for schedule(static) if (n > kParallelThreshold)
    for (std::size_t b = 0; b < nBlocks; ++b) scratch.blocks[b] = sumTerms(p, terms, b);
  }

  IntegratorScratch::Sums total;
  for (const auto& s : scratch.blocks) {
    if (s.maxKinetic > total.maxKinetic) {
      total.maxKinetic = s.maxKinetic;
      total.fastest = s.fastest;
    }
    if (total.firstNonFinite == IntegratorScratch::npos) total.firstNonFinite = s.firstNonFinite;
    addEnergies(total, s);
  }
  if (shared) sharedEnergies(p, terms, *shared, total);
  ledger.kinetic = total.kinetic;
  ledger.kineticTotal = total.kineticTotal;
  ledger.rotational = total.rotational;
  ledger.gravity = total.gravity;
  ledger.dampingDissipated += ledger.dampingPending + total.dampingNow;
  ledger.dampingPending = total.dampingPending;
  scratch.fastest = total.fastest;
  scratch.firstNonFinite = total.firstNonFinite;
}

}  // namespace dem
