#include "angular_momentum.hpp"

namespace dem {

// L = R diag(I) R^T w
Vec3 angularMomentum(const Particles& p, std::size_t i) {
  if (!p.isClumpMember(i)) return p.angMomOf(i);
  const Mat3 R = p.ori[i].toRotationMatrix();
  return R * p.inertia[i].asDiagonal() * R.transpose() * p.angVel[i];
}

}  // namespace dem
