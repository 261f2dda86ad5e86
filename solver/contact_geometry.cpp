#include "contact_geometry.hpp"

#include <algorithm>
#include <cmath>

namespace dem {

Quat formationFrame(const Vec3& n) {
  // seed: local y aligned with the xz plane if |n_y| < |n_z|, with the xy plane otherwise
  Vec3 y = n.cross(std::abs(n[1]) < std::abs(n[2]) ? Vec3::UnitY() : Vec3::UnitZ());
  y -= n * y.dot(n);
  y.normalize();
  Mat3 R;
  R.col(0) = n;
  R.col(1) = y;
  R.col(2) = n.cross(y);
  return Quat(R).normalized();
}

ContactGeom contactGeometry(const SpherePair& s, Contact& h, bool isNew, double dt) {
  ContactGeom g;
  g.n = s.n;
  g.uN = s.uN;
  g.c = s.x1 + (s.r1 + 0.5 * s.uN) * s.n;  // middle of the overlap zone
  g.b1 = g.c - s.x1;
  g.b2 = g.c - s.x2;

  if (isNew) {
    // seed "Contact formation": frame from n; u_T and phi start from what accrued since the onset,
    // which fell inside the last step: tau = -u_N / v_approach in [0, dt] (see the header).
    h.frame = formationFrame(s.n);
    const Vec3 vr = (s.v2 + s.w2.cross(g.b2)) - (s.v1 + s.w1.cross(g.b1));
    const double vApproach = -s.n.dot(vr);
    const double tau = vApproach > 0.0 ? std::min(dt, -s.uN / vApproach) : 0.0;
    const Mat3 T = h.frame.toRotationMatrix().transpose();
    const Vec3 du = T * (vr - s.n * s.n.dot(vr)) * tau;
    h.u = Vec3(s.uN, du[1], du[2]);
    h.phi = T * (s.w2 - s.w1) * tau;
  } else {
    const Quat& qPrev = h.frame;
    const Vec3 nPrev = h.normal;
    const Vec3 nMid = (nPrev + s.n).normalized();  // seed: mid-step normal, re-normalised
    // seed: bending rotation o_r = n_prev x n_curr and twisting rotation
    // o_t = n_mid (n_mid . (w1 + w2)/2) dt, applied to the frame. The seed's first-order column update
    // a - a x o_r - a x o_t followed by re-normalisation is done here as the composition of the same
    // two rotations as unit quaternions: the bending one exactly (half-way quaternion
    // (1 + x.n, x x n), from the frame's own x axis so that round-off cannot drift x away from n),
    // the twisting one as (1, n theta/2) normalised (angle error theta^3/12). The frame stays
    // orthonormal by construction and its x axis is n.
    const Vec3 xPrev = qPrev._transformVector(Vec3::UnitX());
    const Vec3 oR = xPrev.cross(s.n);
    Quat qR(1.0 + xPrev.dot(s.n), oR[0], oR[1], oR[2]);
    qR.normalize();
    const double halfTwist = 0.5 * nMid.dot(0.5 * (s.w1 + s.w2)) * dt;
    Quat qT(1.0, halfTwist * s.n[0], halfTwist * s.n[1], halfTwist * s.n[2]);
    qT.normalize();
    Quat qCurr = qT * (qR * qPrev);
    qCurr.normalize();
    // seed: mid-step frame Slerp(T_prev, T_curr, 1/2); for unit quaternions on the short arc this is
    // exactly (q_prev + q_curr)/|q_prev + q_curr|.
    const double sgn = qPrev.coeffs().dot(qCurr.coeffs()) < 0.0 ? -1.0 : 1.0;
    Quat qMid;
    qMid.coeffs() = qPrev.coeffs() + sgn * qCurr.coeffs();
    qMid.normalize();
    const Mat3 Tmid = qMid.toRotationMatrix().transpose();  // global -> local at t - dt/2
    // seed: relative velocity at the contact point from the branch vectors, normal part removed
    Vec3 vr = (s.v2 + s.w2.cross(g.b2)) - (s.v1 + s.w1.cross(g.b1));
    vr -= nMid * nMid.dot(vr);
    const Vec3 du = Tmid * vr * dt;  // seed: u_curr = u_prev + T_mid v_r dt
    h.u[1] += du[1];
    h.u[2] += du[2];
    h.u[0] = s.uN;  // seed: normal component computed directly
    h.phi += Tmid * (s.w2 - s.w1) * dt;  // seed: phi_curr = phi_prev + T_mid (w2 - w1) dt
    h.frame = qCurr;
  }
  h.normal = s.n;
  h.point = g.c;
  g.frame = h.frame;
  g.u = h.u;
  g.phi = h.phi;
  return g;
}

}  // namespace dem
