#pragma once
// The contact loop's hot path written once, templated on T = double (one contact) or T = Lanes (a
// batch of contacts, lanes.hpp): the update of an existing contact's history in local contact
// coordinates (seed "Contact update"; conventions in contact_geometry.hpp), Cundall's law (seed
// "Cundall's stress evaluation"; contact_law.hpp) and the rotation of the force to global axes.
// contact_geometry.hpp and contact_law.hpp call the T = double instantiation, and the contact loop
// the T = Lanes one for its batches of contacts: one implementation, the same bits.

#include "components.hpp"

#include <cmath>

namespace dem {

// What the geometry update needs of the two (equivalent) spheres at t_n.
template <class T>
struct RelativeMotion {
  V3<T> n;       // unit normal from 1 to 2 (computed directly)
  T uN;          // normal displacement (negative = overlap)
  T a1, a2;      // arm lengths: c - x1 = a1 n, c - x2 = -a2 n (a_i = r_i + u_N/2)
  V3<T> dv;      // v2 - v1, mid-step
  V3<T> w1, w2;  // mid-step angular velocities
};

// A contact's history in local contact coordinates (Contact's frame, normal, u_T and phi).
template <class T>
struct ContactHistory {
  Q4<T> frame;  // local -> global
  V3<T> normal;
  T uY, uZ;     // shear displacement (local y, z)
  V3<T> phi;    // relative rotation (local)
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

// Advances the history of a real contact from t - dt to t (seed "Contact update").
template <class T>
[[gnu::always_inline]] inline void updateHistory(const RelativeMotion<T>& s, ContactHistory<T>& h, const T& dt) {
  using std::sqrt;
  const Q4<T> qPrev = h.frame;
  // seed: mid-step normal n_mid = (n_prev + n)/|n_prev + n|
  const V3<T> nSum = h.normal + s.n;
  const T invLen = 1.0 / sqrt(dot(nSum, nSum));
  const V3<T> nMid = invLen * nSum;
  // seed: bending rotation o_r = n_prev x n_curr and twisting rotation
  // o_t = n_mid (n_mid . (w1 + w2)/2) dt, applied to the frame. The seed's first-order column update
  // a - a x o_r - a x o_t followed by re-normalisation is done here as the composition of the same
  // two rotations as quaternions: the bending one exactly (half-way quaternion (1 + x.n, x x n), from
  // the frame's own x axis so that round-off cannot drift x away from n), the twisting one as
  // (1, n theta/2) (angle error theta^3/12). Both factors are left unnormalised: |a b| = |a| |b|, so
  // normalising the product once gives the same rotation. The frame stays orthonormal by
  // construction and its x axis is n.
  const V3<T> xPrev{1.0 - 2.0 * (qPrev.y * qPrev.y + qPrev.z * qPrev.z), 2.0 * (qPrev.x * qPrev.y + qPrev.w * qPrev.z),
                    2.0 * (qPrev.x * qPrev.z - qPrev.w * qPrev.y)};
  const V3<T> oR = cross(xPrev, s.n);
  const Q4<T> bent = Q4<T>{1.0 + dot(xPrev, s.n), oR.x, oR.y, oR.z} * qPrev;
  // (n_mid . w as (n_prev + n) . w / |n_prev + n|: the dot product does not wait for the square root)
  const T halfTwist = 0.5 * (dot(nSum, 0.5 * (s.w1 + s.w2)) * invLen) * dt;
  const V3<T> t = halfTwist * s.n;  // twist quaternion (1, t): (1, t) b = (b_w - t.b_v, b_v + b_w t + t x b_v)
  const V3<T> bv{bent.x, bent.y, bent.z};
  const V3<T> cv = bv + bent.w * t + cross(t, bv);
  const Q4<T> qRaw{bent.w - dot(t, bv), cv.x, cv.y, cv.z};
  const T len = sqrt(qRaw.w * qRaw.w + qRaw.x * qRaw.x + qRaw.y * qRaw.y + qRaw.z * qRaw.z);
  const T inv = 1.0 / len;
  const Q4<T> q{inv * qRaw.w, inv * qRaw.x, inv * qRaw.y, inv * qRaw.z};
  // seed: mid-step frame Slerp(T_prev, T_curr, 1/2); for unit quaternions on the short arc this is the
  // rotation of q_prev + q_curr, here of m = |q_raw| q_prev + q_raw (the same direction; it does not
  // wait for the division), normalised below inside T_mid.
  const T sgn = select(qPrev.w * qRaw.w + qPrev.x * qRaw.x + qPrev.y * qRaw.y + qPrev.z * qRaw.z < 0.0, T(-1.0), T(1.0));
  const Q4<T> m{len * qPrev.w + sgn * qRaw.w, len * qPrev.x + sgn * qRaw.x, len * qPrev.y + sgn * qRaw.y,
                len * qPrev.z + sgn * qRaw.z};
  // seed: relative velocity at the contact point from the branch vectors (arms on the normal:
  // (v2 - v1) - (a1 w1 + a2 w2) x n), normal part removed with the mid-step normal
  V3<T> vr = s.dv - cross(s.a1 * s.w1 + s.a2 * s.w2, s.n);
  vr = vr - dot(nMid, vr) * nMid;
  // Global -> local rotation T_mid = R(m/|m|)^T: T_mid x = x + k (v x (v x x) - w (v x x)) with
  // (w, v) = m and k = 2/|m|^2 (one division, no square root; the cross products do not wait for it).
  const T k = 2.0 / (m.w * m.w + m.x * m.x + m.y * m.y + m.z * m.z);
  const V3<T> mv{m.x, m.y, m.z};
  const auto toLocal = [&](const V3<T>& x) __attribute__((always_inline)) {
    const V3<T> c = cross(mv, x);
    return x + k * (cross(mv, c) - m.w * c);
  };
  const V3<T> duLocal = toLocal(dt * vr), dphiLocal = toLocal(dt * (s.w2 - s.w1));
  h.uY = h.uY + duLocal.y;  // seed: u_curr = u_prev + T_mid v_r dt (shear components)
  h.uZ = h.uZ + duLocal.z;
  h.phi = h.phi + dphiLocal;  // seed: phi += T_mid (w2 - w1) dt
  h.frame = q;
  h.normal = s.n;
}

// Cundall's law on one contact (contact_law.hpp): forces in local axes, the shear displacement after
// the Coulomb return, the elastic energy at t_n and the slip dissipation of the step.
template <class T>
struct CundallOut {
  T fN, fY, fZ;
  T uY, uZ;
  T elastic, dissipated;
};

template <class T>
[[gnu::always_inline]] inline CundallOut<T> cundall(const T& kn, const T& ks, const T& tanPhi, const T& uN,
                                                    const T& uY, const T& uZ, const T& uPrevY, const T& uPrevZ) {
  using std::abs;
  using std::sqrt;
  CundallOut<T> r;
  r.fN = kn * uN;  // seed: F_N = K_N u_N n
  const T ty = ks * uY, tz = ks * uZ;  // seed: F_T^t = K_T u_T
  const T trial2 = ty * ty + tz * tz;
  const T cap = abs(r.fN) * tanPhi;
  const auto sliding = trial2 > cap * cap;  // seed: non-associated return to the Coulomb cap
  const T scale = cap / sqrt(select(sliding, trial2, T(1.0)));
  r.fY = select(sliding, ty * scale, ty);
  r.fZ = select(sliding, tz * scale, tz);
  const T invKs = 1.0 / ks;
  r.dissipated =
      select(sliding, 0.5 * ((ty - r.fY) * (ks * uPrevY + r.fY) + (tz - r.fZ) * (ks * uPrevZ + r.fZ)) * invKs, T(0.0));
  r.uY = select(sliding, r.fY * invKs, uY);
  r.uZ = select(sliding, r.fZ * invKs, uZ);
  r.elastic = 0.5 * kn * uN * uN + 0.5 * ks * (r.uY * r.uY + r.uZ * r.uZ);  // |F_T|^2/(2 ks)
  return r;
}

}  // namespace dem
