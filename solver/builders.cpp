#include "builders.hpp"

namespace dem {

Scene singleSphereScene(const Vec3& x0, const Vec3& v0, const Vec3& g, double dt) {
  Scene s;
  ParticleSpec p = sphereSpec(x0, 0.1, 2600.0);
  p.vel = v0;
  s.particles.add(p);
  s.gravity = g;
  s.setDt(dt);
  s.setDamping(0.0);
  return s;
}

Scene rigidBodyScene(const Vec3& inertia, const Vec3& w0Body, const Quat& q0, double dt, RotationAlgorithm algorithm) {
  Scene s;
  ParticleSpec p;
  p.radius = 1.0;
  p.mass = 1.0;
  p.inertia = inertia;
  p.ori = q0;
  p.angVel = q0 * w0Body;
  s.particles.add(p);
  s.setDt(dt);
  s.setDamping(0.0);
  s.setRotationAlgorithm(algorithm);
  return s;
}

}  // namespace dem
