#include "mesh_motion.hpp"

#include <algorithm>

namespace dem {

bool moves(const MeshMotion& m) { return !m.vel.isZero(0.0) || !m.angVel.isZero(0.0); }

// c(t) = c + v (t - t0)
Vec3 rotationCentre(const MeshMotion& m, double t) { return m.centre + (t - m.time0) * m.vel; }

MeshPlacement meshPlacement(const MeshMotion& m, double t) {
  return {m.centre, rotationCentre(m, t), rotationQuat((t - m.time0) * m.angVel)};
}

// x(t) = c(t) + R(w (t - t0)) (x0 - c)
Vec3 meshPoint(const MeshMotion& m, const Vec3& x0, double t) { return meshPlacement(m, t)(x0); }

bool hasPrescribedMotion(const Particles& p) {
  for (const Mesh& m : p.meshes)
    if (moves(m.motion)) return true;
  for (std::size_t i = 0; i < p.size(); ++i)
    if (p.isDriven(i)) return true;
  return false;
}

namespace {
bool sameMotion(const MeshMotion& a, const MeshMotion& b) {
  return a.centre == b.centre && a.vel == b.vel && a.angVel == b.angVel && a.time0 == b.time0;
}

// Whether the facets are placed at t with dt by the motions they have now (Particles::meshesPlaced).
bool placedAlready(const Particles& p, double t, double dt) {
  const Particles::MeshesPlaced& s = p.meshesPlaced;
  if (!s.valid || s.t != t || s.dt != dt || s.facets != p.facets.size() || s.motions.size() != p.meshes.size())
    return false;
  for (std::size_t m = 0; m < p.meshes.size(); ++m)
    if (!sameMotion(s.motions[m], p.meshes[m].motion)) return false;
  return true;
}
}  // namespace

bool placeMeshes(Particles& p, double t, double dt) {
  if (placedAlready(p, t, dt))
    return std::any_of(p.meshes.begin(), p.meshes.end(), [](const Mesh& m) { return moves(m.motion); });
  bool any = false;
  for (const Mesh& mesh : p.meshes) {
    if (!moves(mesh.motion)) continue;
    any = true;
    const MeshPlacement now = meshPlacement(mesh.motion, t), before = meshPlacement(mesh.motion, t - dt);
    // (each facet on its own: the same bits for any thread count)
#pragma omp parallel for schedule(static) if (mesh.count > kParallelThreshold)
    for (std::uint32_t i = mesh.first; i < mesh.first + mesh.count; ++i) {
      Facet& f = p.facets[p.shapeIndex[i]];
      for (int k = 0; k < 3; ++k) f.v[k] = now(f.v0[k]);
      const Vec3 centroid0 = (f.v0[0] + f.v0[1] + f.v0[2]) / 3.0;
      p.pos[i] = now(centroid0);
      p.vel[i] = dt > 0.0 ? Vec3((p.pos[i] - before(centroid0)) / dt) : mesh.motion.vel;
      p.angVel[i] = mesh.motion.angVel;
      p.ori[i] = now.R;
      p.velMidstep[i] = 1;
    }
  }
  Particles::MeshesPlaced& s = p.meshesPlaced;
  s.t = t;
  s.dt = dt;
  s.facets = p.facets.size();
  s.motions.resize(p.meshes.size());
  for (std::size_t m = 0; m < p.meshes.size(); ++m) s.motions[m] = p.meshes[m].motion;
  s.valid = true;
  return any;
}

}  // namespace dem
