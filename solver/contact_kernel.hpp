#pragma once
// One contact's physics, written once: contactKernel<Law, T> composes the shape pair's geometry
// (contact_geometry.hpp, the shape-pair table) -> the history update in local contact coordinates
// (seed "Contact update"; at formation seed "Contact formation") -> the law (contact_law.hpp) ->
// the force in global axes and the torques. T = double evaluates one contact, T = Lanes a batch
// (lanes.hpp); every operation is element-wise and correctly rounded, so a lane gives the same bits
// as the scalar instantiation (the build disables floating-point contraction). The contact loop,
// contact formation and the tests all run this function.
//
// Formation (departure from the seed's "u and phi initially zero", documented): u_N is computed
// directly and so already holds the overlap accrued since the onset, which fell inside the last
// step; the shear increment and phi are started consistently with it, du = T (v_r,t) tau,
// phi = T (w2 - w1) tau, with tau = -u_N / v_approach clamped to [0, dt] (0 when not approaching,
// e.g. bodies created overlapping) and T the formation frame. Starting from zero instead leaves an
// O(dt) phase lag of the shear spring behind the normal one (verification theory 6.4 expects third
// order in oblique impacts). It is the update below with the previous frame and normal taken as the
// formation frame and the current normal, no twist, and tau in place of dt (the bending rotation
// and the mid-step frame are then the formation frame to round-off).

#include "components.hpp"
#include "contact_geometry.hpp"
#include "contact_law.hpp"

#include <cmath>

namespace dem {

template <class T>
using MaskOf = decltype(T() < T());

// A contact's history in local contact coordinates (frame, phi; the law's shear state and dashpot
// forces are its LawState). The normal of the last step is the frame's x axis (xAxis): not kept.
template <class T>
struct ContactHistory {
  Q4<T> frame;  // local -> global; its x axis is the normal
  V3<T> phi;    // relative rotation (local)
};

// Everything the kernel reads of a contact at t_n, as values (one contact, or a batch staged in
// lanes). The kernel reads it through member functions, at the point where each input is used: a
// batch passes an object with the same functions that loads each input there from the staged lanes
// and the contact store's columns (contact_loop.cpp), since inputs loaded all at once would
// outnumber the registers and be spilled.
template <class T>
struct KernelInput {
  struct Values {
    PairInput<T> pair;    // geometry input (contact_geometry.hpp)
    T type;               // ContactType, as a number
    V3<T> x1;             // centre of particle 1 (for the contact point)
    V3<T> dv, w1, w2;     // v2 - v1 (v2 of the periodic image), angular velocities; mid-step
    MaskOf<T> wasReal;    // real at the last step (else: formation if it touches now)
    ContactHistory<T> h;  // history (where wasReal)
    T uNPrev;             // u_N of the last step (where wasReal)
    LawState<T> state;    // the law's history (where wasReal)
    const T* params;      // the law's kParams parameters
  } v;
  PairInput<T> pair() const { return v.pair; }
  T type() const { return v.type; }
  V3<T> x1() const { return v.x1; }
  V3<T> dv() const { return v.dv; }
  V3<T> w1() const { return v.w1; }
  V3<T> w2() const { return v.w2; }
  MaskOf<T> wasReal() const { return v.wasReal; }
  Q4<T> frame() const { return v.h.frame; }
  V3<T> phi() const { return v.h.phi; }
  T uNPrev() const { return v.uNPrev; }
  LawState<T> state() const { return v.state; }
  template <class Law>
  typename Law::template Params<T> params() const {
    return Law::params(v.params);
  }
};

template <class T>
struct KernelOutput {
  MaskOf<T> real;            // the bodies overlap at t_n (u_N < 0)
  T uN;                      // u_N (0 where not real)
  V3<T> force;               // on particle 1, global (particle 2 receives -force); 0 where not real
  V3<T> torque1, torque2;    // a1 n x F on particle 1, a2 n x F on particle 2
  V3<T> point;               // contact point c = x1 + a1 n
  ContactHistory<T> h;       // history after the step (phi 0 where not real or not kept)
  LawState<T> state;         // the law's state after the step (0 where not real)
  T spring;                  // the law's spring-stiffness term of this step (LawResult::spring)
  T elastic, slip, viscous;  // energy at t_n and the work dissipated this step (a separation
                             // releases the shear spring's energy as slip, energy.hpp)
};

// Rotates the local vector f = (f_x, f_y, f_z) to global axes with the unit quaternion q:
// R(q) f = f_x (x axis) + f_y (y axis) + f_z (z axis), the axes being the columns of R(q).
template <class T>
[[gnu::always_inline]] inline V3<T> localToGlobal(const Q4<T>& q, const T& fx, const T& fy, const T& fz) {
  const T xx = q.x * q.x, yy = q.y * q.y, zz = q.z * q.z;
  const T xy = q.x * q.y, xz = q.x * q.z, yz = q.y * q.z;
  const T wx = q.w * q.x, wy = q.w * q.y, wz = q.w * q.z;
  return {fx * (1.0 - 2.0 * (yy + zz)) + fy * (2.0 * (xy - wz)) + fz * (2.0 * (xz + wy)),
          fx * (2.0 * (xy + wz)) + fy * (1.0 - 2.0 * (xx + zz)) + fz * (2.0 * (yz - wx)),
          fx * (2.0 * (xz - wy)) + fy * (2.0 * (yz + wx)) + fz * (1.0 - 2.0 * (xx + yy))};
}

template <class T>
[[gnu::always_inline]] inline V3<T> selectV3(const MaskOf<T>& m, const V3<T>& a, const V3<T>& b) {
  return {select(m, a.x, b.x), select(m, a.y, b.y), select(m, a.z, b.z)};
}

// The kernel's one pass; Formation: some lane forms (its previous state is then taken as described
// at the top), else every lane was real at the last step (a straight pass for the common case).
template <class Law, bool Dashpots, bool Formation, class T, class In, class Use>
[[gnu::always_inline]] inline void kernelPass(const In& in, const T& dt, Use&& use) {
  using std::sqrt;
  const T zero(0.0);
  // geometry of the shape pair, t_n
  const PairGeometry<T> g = shapePairGeometry(in.pair(), in.type());
  const V3<T>& n = g.n;
  const T a1 = g.r1 + 0.5 * g.uN, a2 = g.r2 + 0.5 * g.uN;  // arms on the normal
  // seed: relative velocity at the contact point, (v2 - v1) - (a1 w1 + a2 w2) x n
  const V3<T> vr = in.dv() - cross(a1 * in.w1() + a2 * in.w2(), n);

  // the previous state: the stored history, or at formation the formation frame and zero history
  // (phi and the law's state are taken where they are used, below); the previous normal is the
  // frame's x axis (the update below keeps it along n), at formation the current normal
  Q4<T> qPrev = in.frame();
  T stepDt = dt, twistDt = dt;
  const MaskOf<T> isNew = !in.wasReal();
  if constexpr (Formation) {
    const Q4<T> qForm = formationFrame(n);
    const T vApproach = -dot(n, vr);
    const T tau = select(vApproach > 0.0 && g.uN < 0.0, -g.uN / select(vApproach > 0.0, vApproach, T(1.0)), zero);
    qPrev = {select(isNew, qForm.w, qPrev.w), select(isNew, qForm.x, qPrev.x), select(isNew, qForm.y, qPrev.y),
             select(isNew, qForm.z, qPrev.z)};
    stepDt = select(isNew, select(tau < dt, tau, dt), dt);  // tau in [0, dt]
    twistDt = select(isNew, zero, dt);
  }
  const auto previous = [&]() __attribute__((always_inline)) {
    LawState<T> prev = in.state();
    if constexpr (Formation)
      prev = {select(isNew, zero, prev.sY), select(isNew, zero, prev.sZ), select(isNew, zero, prev.dN),
              select(isNew, zero, prev.dY), select(isNew, zero, prev.dZ)};
    return prev;
  };

  const V3<T> xPrev = xAxis(qPrev);
  V3<T> nPrev = xPrev;
  if constexpr (Formation) nPrev = selectV3<T>(isNew, n, xPrev);
  // seed "Contact update": mid-step normal n_mid = (n_prev + n)/|n_prev + n|
  const V3<T> nSum = nPrev + n;
  const T invLen = 1.0 / sqrt(dot(nSum, nSum));
  // A normal reversed exactly in one step (a sphere's centre driven through a facet's plane): no
  // mid-step normal and no shortest arc; n and the half turn about the frame's y axis stand in
  // (elsewhere the same bits as without them; unit test contact_kernel/reversed_normal).
  const MaskOf<T> reversed = dot(nSum, nSum) == 0.0;
  const V3<T> nMid = selectV3<T>(reversed, n, invLen * nSum);
  // seed: bending rotation o_r = n_prev x n and twisting rotation o_t = n_mid (n_mid . (w1 + w2)/2) dt,
  // applied to the frame. The seed's first-order column update a - a x o_r - a x o_t followed by
  // re-normalisation is done as the composition of the same two rotations as quaternions: the
  // bending one exactly (half-way quaternion (1 + x.n, x x n), from the frame's own x axis so that
  // round-off cannot drift x away from n), the twisting one as (1, n theta/2) (angle error
  // theta^3/12). Both factors are left unnormalised: |a b| = |a| |b|, so normalising the product once
  // gives the same rotation. The frame stays orthonormal by construction and its x axis is n.
  const V3<T> oR = cross(xPrev, n);
  const V3<T> yPrev{2.0 * (qPrev.x * qPrev.y - qPrev.w * qPrev.z), 1.0 - 2.0 * (qPrev.x * qPrev.x + qPrev.z * qPrev.z),
                    2.0 * (qPrev.y * qPrev.z + qPrev.w * qPrev.x)};
  const T w0 = 1.0 + dot(xPrev, n);
  const MaskOf<T> halfTurn = w0 == 0.0 && dot(oR, oR) == 0.0;
  const T bendW = select(halfTurn, zero, w0);
  const V3<T> bendV = selectV3<T>(halfTurn, yPrev, oR);
  const Q4<T> bent = Q4<T>{bendW, bendV.x, bendV.y, bendV.z} * qPrev;
  // (n_mid . w as (n_prev + n) . w / |n_prev + n|: the dot product does not wait for the square root)
  const V3<T> wMean = 0.5 * (in.w1() + in.w2());
  const T halfTwist = 0.5 * select(reversed, dot(n, wMean), dot(nSum, wMean) * invLen) * twistDt;
  const V3<T> t = halfTwist * n;  // twist quaternion (1, t): (1, t) b = (b_w - t.b_v, b_v + b_w t + t x b_v)
  const V3<T> bv{bent.x, bent.y, bent.z};
  const V3<T> cv = bv + bent.w * t + cross(t, bv);
  const Q4<T> qRaw{bent.w - dot(t, bv), cv.x, cv.y, cv.z};
  const T len = sqrt(qRaw.w * qRaw.w + qRaw.x * qRaw.x + qRaw.y * qRaw.y + qRaw.z * qRaw.z);
  const T inv = 1.0 / len;
  const Q4<T> q{inv * qRaw.w, inv * qRaw.x, inv * qRaw.y, inv * qRaw.z};
  // seed: mid-step frame Slerp(T_prev, T_curr, 1/2); for unit quaternions on the short arc this is the
  // rotation of q_prev + q_curr, here of m = |q_raw| q_prev + q_raw (the same direction; it does not
  // wait for the division), normalised below inside T_mid.
  const T sgn =
      select(qPrev.w * qRaw.w + qPrev.x * qRaw.x + qPrev.y * qRaw.y + qPrev.z * qRaw.z < 0.0, T(-1.0), T(1.0));
  const Q4<T> m{len * qPrev.w + sgn * qRaw.w, len * qPrev.x + sgn * qRaw.x, len * qPrev.y + sgn * qRaw.y,
                len * qPrev.z + sgn * qRaw.z};
  // Global -> local rotation T_mid = R(m/|m|)^T: T_mid x = x + k (v x (v x x) - w (v x x)) with
  // (w, v) = m and k = 2/|m|^2 (one division, no square root; the cross products do not wait for it).
  const T k = 2.0 / (m.w * m.w + m.x * m.x + m.y * m.y + m.z * m.z);
  const V3<T> mv{m.x, m.y, m.z};
  const auto toLocal = [&](const V3<T>& x) __attribute__((always_inline)) {
    const V3<T> c = cross(mv, x);
    return x + k * (cross(mv, c) - m.w * c);
  };
  // seed: shear velocity v_r minus its part along the mid-step normal, to local axes
  const V3<T> vLocal = toLocal(vr - dot(nMid, vr) * nMid);
  // (only for a law that reads it, Law::kRelativeRotation: else zero, and neither read nor stored)
  V3<T> phi{zero, zero, zero};
  if constexpr (Law::kRelativeRotation) {
    V3<T> phiPrev = in.phi();
    if constexpr (Formation) phiPrev = selectV3<T>(isNew, {zero, zero, zero}, phiPrev);
    phi = phiPrev + stepDt * toLocal(in.w2() - in.w1());  // seed: phi += T_mid (w2 - w1) dt
  }

  // the law: seed u_T += T_mid v_r dt (inside the law's shear state), forces in local axes
  const T vN = dot(n, in.dv());
  const LawInput<T> li{g.uN,
                       vN,
                       stepDt * vLocal.y,
                       stepDt * vLocal.z,
                       vLocal.y,
                       vLocal.z,
                       select(in.wasReal(), g.uN - in.uNPrev(), dt * vN),
                       dt * vLocal.y,
                       dt * vLocal.z,
                       in.uNPrev()};
  const typename Law::template Params<T> params = in.template params<Law>();
  const LawResult<T> r = Law::template force<Dashpots>(params, li, previous());
  const V3<T> force = localToGlobal(q, r.fN, r.fY, r.fZ);
  const V3<T> nxF = cross(n, force);  // torques b1 x F = a1 n x F, b2 x (-F) = a2 n x F

  KernelOutput<T> out;
  out.real = g.uN < 0.0;
  const auto ifReal = [&](const T& x) __attribute__((always_inline)) { return select(out.real, x, zero); };
  const auto ifRealV = [&](const V3<T>& x) __attribute__((always_inline)) {
    return V3<T>{ifReal(x.x), ifReal(x.y), ifReal(x.z)};
  };
  out.uN = ifReal(g.uN);
  out.force = ifRealV(force);
  out.torque1 = ifRealV(a1 * nxF);
  out.torque2 = ifRealV(a2 * nxF);
  out.point = in.x1() + V3<T>{a1 * n.x, a1 * n.y, a1 * n.z};
  out.h.frame = q;
  out.h.phi = ifRealV(phi);
  out.state = {ifReal(r.state.sY), ifReal(r.state.sZ), ifReal(r.state.dN), ifReal(r.state.dY), ifReal(r.state.dZ)};
  out.elastic = ifReal(r.elastic);
  // a contact that separates (seed: it gives no force): with F_N = 0 the Coulomb cap is zero, so the
  // shear spring's stored energy is released by slip and booked as friction dissipation of this
  // step (leaving it out makes the ledger drift at first order in dt in granular scenes); the
  // dashpots' last half-trapezoid is booked too.
  const T released = Law::shearEnergy(params, in.state(), in.uNPrev());
  const MaskOf<T> separates = in.wasReal() && !out.real;
  out.slip = select(out.real, r.slip, select(separates && released > 0.0, released, zero));
  out.viscous =
      select(out.real, r.viscous, select(separates, viscousWork<Dashpots>(in.state(), zero, zero, zero, li), zero));
  out.spring = ifReal(r.spring);
  use(out);
}

// Dashpots: false for a stage whose scene has no dashpots (contact_law.hpp, dashpot()); the
// results are then those of true with zero dashpot coefficients, up to the sign of zeros. A lane's
// bits do not depend on which pass runs it (the formation pass gives the lanes that were real the
// same operations on the same values). The output is handed to `use` inside each pass's branch, so
// that it stays in registers (merged from two branches into one value, it would go through memory).
template <class Law, bool Dashpots = true, class T, class In, class Use>
[[gnu::always_inline]] inline void contactKernel(const In& in, const T& dt, Use&& use) {
  if (anyLane(!in.wasReal())) kernelPass<Law, Dashpots, true, T>(in, dt, use);
  else kernelPass<Law, Dashpots, false, T>(in, dt, use);
}
template <class Law, bool Dashpots = true, class T>
[[gnu::always_inline]] inline KernelOutput<T> contactKernel(const KernelInput<T>& in, const T& dt) {
  KernelOutput<T> out;
  contactKernel<Law, Dashpots, T>(in, dt, [&](const KernelOutput<T>& r) { out = r; });
  return out;
}

}  // namespace dem

namespace dem {

// One contact through the kernel (T = double): its inputs gathered from the particles and its history
// from the Contact, the results written back as the contact loop writes a lane's (frame and point
// only while the bodies touch, reset when they separate; the normal as the store gives it, the
// frame's x axis). The tests run the solver's physics
// through this.
template <class Law, bool Dashpots = true>
KernelOutput<double> evaluateContact(const Particles& p, Contact& c, double dt, const PeriodicShift* shift = nullptr) {
  KernelInput<double> in;
  const Vec3 x2 = secondPoint(p, c.type, c.id1, c.id2, c.cellDist, shift ? &shift->H : nullptr);
  in.v.pair = pairInput(p, c.type, c.id1, c.id2, x2);
  in.v.type = static_cast<double>(c.type);
  in.v.x1 = v3(p.pos[c.id1]);
  in.v.dv = v3(secondPointVelocity(p, c.type, c.id2, x2, c.cellDist, shift) - p.vel[c.id1]);
  in.v.w1 = v3(p.angVel[c.id1]);
  in.v.w2 = v3(p.angVel[c.id2]);
  in.v.wasReal = c.real != 0;
  in.v.h = {q4(c.frame), v3(c.phi)};
  in.v.uNPrev = c.u[0];
  in.v.state = {c.u[1], c.u[2], c.damp[0], c.damp[1], c.damp[2]};
  in.v.params = c.params.data();
  const KernelOutput<double> r = contactKernel<Law, Dashpots>(in, dt);
  if (r.real) {
    c.frame = Quat(r.h.frame.w, r.h.frame.x, r.h.frame.y, r.h.frame.z);
    c.normal = frameNormal(c.frame);
    c.point = vec3(r.point);
  } else if (c.real) {  // separated: as ContactStore::resetFrame
    const Contact d;
    c.frame = d.frame;
    c.normal = d.normal;
    c.point = d.point;
  }
  c.real = r.real ? 1 : 0;
  c.u = Vec3(r.uN, r.state.sY, r.state.sZ);
  c.phi = vec3(r.h.phi);
  c.damp = Vec3(r.state.dN, r.state.dY, r.state.dZ);
  c.force = vec3(r.force);
  c.torque1 = vec3(r.torque1);
  c.torque2 = vec3(r.torque2);
  c.elastic = r.elastic;
  c.dissipated = r.slip;
  return r;
}

}  // namespace dem
