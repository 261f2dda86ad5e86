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
  if (isNew) return formContact(s, h, dt);
  return updateContact(s, h, dt);
}

ContactGeom formContact(const SpherePair& s, Contact& h, double dt) {
  ContactGeom g = branchVectors(s);
  // seed "Contact formation": frame from n; u_T and phi start from what accrued since the onset,
  // which fell inside the last step: tau = -u_N / v_approach in [0, dt] (see the header).
  h.frame = formationFrame(s.n);
  const Vec3 vr = relativeVelocity(s, g);
  const double vApproach = -s.n.dot(vr);
  const double tau = vApproach > 0.0 ? std::min(dt, -s.uN / vApproach) : 0.0;
  const Mat3 T = h.frame.toRotationMatrix().transpose();
  const Vec3 du = T * (vr - s.n * s.n.dot(vr)) * tau;
  h.u = Vec3(s.uN, du[1], du[2]);
  h.phi = T * (s.w2 - s.w1) * tau;
  return storeHistory(s, h, g);
}

}  // namespace dem
