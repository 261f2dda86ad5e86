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

}  // namespace dem
