#pragma once
// The column of verification theory 2, section 5 (column_modes, column_lateral): N = 4 spheres of
// R = 0.01 m stacked on a wall under gravity, the linear Cundall law, its springs from the law's
// mixing rule (laws/cundall.hpp) for the two materials; as the reference's spring system and as a
// dem::Scene.
#include "solver/laws.hpp"
#include "solver/scene.hpp"

#include <dem_reference/spring_column.hpp>

#include <cstdint>

namespace dem::verify {

// The spring column of spheres of `sphere` on a wall of `wall`: kw and ks by Cundall's mixing rule.
inline ref::SpringColumn cundallColumn(const Material& sphere, const Material& wall) {
  ref::SpringColumn col;
  col.n = 4;
  col.R = 0.01;
  col.m = sphereMass(col.R, sphere.density);
  col.kw = Cundall::normalStiffness(sphere, col.R, wall, 0.0, true);
  col.ks = Cundall::normalStiffness(sphere, col.R, sphere, col.R, false);
  return col;
}

// The column as a scene: the wall (id 0), spheres 1..N at heights z, horizontal velocities vx, the
// degrees of freedom `blocked` (solver/particles.hpp dof), undamped, time step dt.
inline Scene columnScene(const Material& sphere, const Material& wall, const ref::SpringColumn& col,
                         const Eigen::VectorXd& z, const Eigen::VectorXd& vx, std::uint8_t blocked, double dt) {
  Scene s;
  s.materials = {sphere, wall};
  s.law = ContactLaw::Cundall;
  s.particles.addWall(Vec3::Zero(), Vec3::UnitZ(), 1);
  for (Eigen::Index i = 0; i < col.size(); ++i) {
    ParticleSpec p = sphereSpec(Vec3(0, 0, z[i]), col.R, sphere.density);
    p.vel = Vec3(vx[i], 0, 0);
    p.blocked = blocked;
    s.particles.add(p);
  }
  s.gravity = Vec3(0, 0, -col.g);
  s.setDt(dt);
  s.setDamping(0.0);
  return s;
}

}  // namespace dem::verify
