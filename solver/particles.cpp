#include "particles.hpp"

#include "assert.hpp"

#include <algorithm>
#include <cstring>
#include <map>
#include <numbers>
#include <sstream>
#include <stdexcept>

namespace dem {

namespace {

[[noreturn]] void badField(std::size_t id, const std::string& field, const std::string& value,
                           const std::string& expected) {
  std::ostringstream msg;
  msg << "particle " << id << ": " << field << " = " << value << " is invalid; expected " << expected;
  throw std::invalid_argument(msg.str());
}

std::string str(double v) {
  std::ostringstream s;
  s.precision(17);
  s << v;
  return s.str();
}

std::string str(const Vec3& v) {
  std::ostringstream s;
  s.precision(17);
  s << "(" << v[0] << ", " << v[1] << ", " << v[2] << ")";
  return s.str();
}

std::string str(const Quat& q) {
  std::ostringstream s;
  s.precision(17);
  s << "(w=" << q.w() << ", " << q.x() << ", " << q.y() << ", " << q.z() << ")";
  return s.str();
}

void requirePositive(std::size_t id, const std::string& field, double v) {
  if (!(std::isfinite(v) && v > 0.0)) badField(id, field, str(v), "a finite value > 0");
}

void requireFinite(std::size_t id, const std::string& field, const Vec3& v) {
  if (!allFinite(v)) badField(id, field, str(v), "finite components");
}

}  // namespace

double sphereMass(double radius, double density) {
  return 4.0 / 3.0 * std::numbers::pi * radius * radius * radius * density;
}

Vec3 sphereInertia(double radius, double mass) { return Vec3::Constant(0.4 * mass * radius * radius); }

ParticleSpec sphereSpec(const Vec3& pos, double radius, double density) {
  ParticleSpec s;
  s.pos = pos;
  s.radius = radius;
  s.mass = sphereMass(radius, density);
  s.inertia = sphereInertia(radius, s.mass);
  return s;
}

void Particles::reserve(std::size_t n) {
  const auto room = [n](auto&... v) { (v.reserve(n), ...); };
  room(pos, vel, angVel, force, torque, ori, mass, radius, inertia, material, blocked, velMidstep, shape, shapeIndex,
       clump, isClump, userId, slotOf);
  if (!angMom.empty()) angMom.reserve(n);
}

namespace {
// L = R diag(I) R^T w
Vec3 spaceAngMom(const Quat& ori, const Vec3& inertia, const Vec3& angVel) {
  const Mat3 R = ori.normalized().toRotationMatrix();
  return R * inertia.asDiagonal() * R.transpose() * angVel;
}
}  // namespace

void Particles::keepAngMom() {
  if (!angMom.empty()) return;
  angMom.resize(pos.size());
  for (std::size_t i = 0; i < pos.size(); ++i) angMom[i] = isotropicAngMom(i);
}

// (an aspherical body's L is always kept: its integrator steps L, not w)
void Particles::setAngMom(std::size_t i, const Vec3& L) {
  if (angMom.empty()) {
    const Vec3 derived = isotropicAngMom(i);
    if (!isAspherical(i) && std::memcmp(L.data(), derived.data(), sizeof(Vec3)) == 0) return;  // (bits: -0 is not +0)
    keepAngMom();
  }
  angMom[i] = L;
}

std::size_t Particles::add(const ParticleSpec& spec) {
  const std::size_t id = size();
  requirePositive(id, "radius", spec.radius);
  requirePositive(id, "mass", spec.mass);
  for (int k = 0; k < 3; ++k) requirePositive(id, "inertia[" + std::to_string(k) + "]", spec.inertia[k]);
  requireFinite(id, "pos", spec.pos);
  requireFinite(id, "vel", spec.vel);
  requireFinite(id, "angVel", spec.angVel);
  if (!allFinite(spec.ori) || std::abs(spec.ori.norm() - 1.0) > 1e-10)
    badField(id, "ori", str(spec.ori), "a finite unit quaternion");
  if (spec.blocked & ~dof::all) badField(id, "blocked", std::to_string(spec.blocked), "a mask of dof:: bits (0..63)");

  const bool aspherical = anisotropic(spec.inertia);
  if (aspherical) keepAngMom();  // (the entries of the bodies before it)
  pos.push_back(spec.pos);
  vel.push_back(spec.vel);
  angVel.push_back(spec.angVel);
  ori.push_back(spec.ori.normalized());
  // (an isotropic body's L is I w, as the integrator computes it)
  if (aspherical) angMom.push_back(spaceAngMom(spec.ori, spec.inertia, spec.angVel));
  else if (!angMom.empty()) angMom.push_back(spec.inertia[0] * spec.angVel);
  force.push_back(Vec3::Zero());
  torque.push_back(Vec3::Zero());
  mass.push_back(spec.mass);
  radius.push_back(spec.radius);
  inertia.push_back(spec.inertia);
  material.push_back(spec.material);
  blocked.push_back(spec.blocked);
  velMidstep.push_back(0);
  clump.push_back(kNoClump);
  isClump.push_back(0);
  shape.push_back(Shape::Sphere);
  shapeIndex.push_back(0);
  userId.push_back(static_cast<std::uint32_t>(id));
  slotOf.push_back(static_cast<std::uint32_t>(id));
  return id;
}

std::size_t Particles::addWall(const Vec3& point, const Vec3& normal, std::uint32_t mat) {
  const std::size_t id = size();
  requireFinite(id, "wall point", point);
  const double len = normal.norm();
  if (!allFinite(normal) || !(len > 0.0)) badField(id, "wall normal", str(normal), "a finite non-zero vector");
  Wall w;
  w.normal = normal / len;
  for (int k = 0; k < 3; ++k)
    if (std::abs(w.normal[k]) == 1.0) w.axis = k;
  ParticleSpec spec;
  spec.pos = point;
  spec.radius = 1.0;  // placeholders, replaced below; all DOFs blocked
  spec.mass = 1.0;
  spec.inertia = Vec3::Ones();
  spec.material = mat;
  spec.blocked = dof::all;
  add(spec);
  radius[id] = 0.0;
  shape[id] = Shape::Wall;
  shapeIndex[id] = static_cast<std::uint32_t>(walls.size());
  walls.push_back(w);
  return id;
}

std::size_t Particles::addMesh(const TriangleMesh& triangles, std::uint32_t mat, const MeshMotion& motion,
                               const std::string& name) {
  const auto bad = [&](std::size_t t, const std::string& what) {
    std::ostringstream s;
    s << "mesh" << (name.empty() ? "" : " '" + name + "'") << ": triangle " << t << ": " << what;
    throw std::invalid_argument(s.str());
  };
  if (triangles.empty()) bad(0, "the mesh has no triangles; expected at least one");
  if (!allFinite(motion.centre) || !allFinite(motion.vel) || !allFinite(motion.angVel) || !std::isfinite(motion.time0))
    throw std::invalid_argument("mesh" + (name.empty() ? std::string() : " '" + name + "'") +
                                ": motion: expected finite centre, velocity, angular velocity and time");
  for (std::size_t t = 0; t < triangles.size(); ++t) {
    const Triangle& tri = triangles[t];
    for (const Vec3& v : tri.v)
      if (!allFinite(v)) bad(t, "vertex " + str(v) + " is not finite");
    double longest = 0.0;
    for (int e = 0; e < 3; ++e) longest = std::max(longest, (tri.v[(e + 1) % 3] - tri.v[e]).squaredNorm());
    // |(v1 - v0) x (v2 - v0)| = 2 area; degenerate below round-off of the longest edge squared
    if (!(tri.areaNormal().norm() > 1e-14 * longest))
      bad(t, "degenerate (zero area); expected three distinct, non-collinear vertices");
  }
  Mesh mesh;
  mesh.first = static_cast<std::uint32_t>(size());
  mesh.count = static_cast<std::uint32_t>(triangles.size());
  mesh.motion = motion;
  mesh.name = name;
  const auto meshIndex = static_cast<std::uint32_t>(meshes.size());
  // shared vertices: equal coordinates, the same id (in order of first appearance)
  std::map<std::array<double, 3>, std::uint32_t> ids;
  for (const Triangle& tri : triangles) {
    Facet f;
    for (int k = 0; k < 3; ++k) {
      f.v[k] = f.v0[k] = tri.v[k];
      const auto [it, added] = ids.emplace(std::array<double, 3>{tri.v[k][0], tri.v[k][1], tri.v[k][2]},
                                           static_cast<std::uint32_t>(ids.size()));
      f.vertex[k] = it->second;
    }
    f.mesh = meshIndex;
    ParticleSpec spec;
    spec.pos = (tri.v[0] + tri.v[1] + tri.v[2]) / 3.0;
    spec.radius = spec.mass = 1.0;  // placeholders, replaced below; all DOFs blocked
    spec.inertia = Vec3::Ones();
    spec.material = mat;
    spec.blocked = dof::all;
    const std::size_t id = add(spec);
    radius[id] = 0.0;
    shape[id] = Shape::Facet;
    shapeIndex[id] = static_cast<std::uint32_t>(facets.size());
    facets.push_back(f);
  }
  mesh.vertices = static_cast<std::uint32_t>(ids.size());
  meshes.push_back(mesh);
  return meshIndex;
}

std::size_t Particles::copyMesh(const Particles& from, std::size_t m) {
  Mesh mesh = from.meshes.at(m);
  const std::uint32_t first = mesh.first;
  mesh.first = static_cast<std::uint32_t>(size());
  const auto index = static_cast<std::uint32_t>(meshes.size());
  for (std::uint32_t j = 0; j < mesh.count; ++j) {
    const std::size_t i = first + j;
    ParticleSpec spec;
    spec.pos = from.pos[i];
    spec.radius = spec.mass = 1.0;  // placeholders, replaced below
    spec.inertia = Vec3::Ones();
    spec.material = from.material[i];
    spec.blocked = from.blocked[i];
    const std::size_t id = add(spec);
    radius[id] = from.radius[i];
    mass[id] = from.mass[i];
    inertia[id] = from.inertia[i];
    vel[id] = from.vel[i];
    angVel[id] = from.angVel[i];
    setAngMom(id, from.angMomOf(i));
    ori[id] = from.ori[i];
    force[id] = from.force[i];
    torque[id] = from.torque[i];
    velMidstep[id] = from.velMidstep[i];
    shape[id] = Shape::Facet;
    shapeIndex[id] = static_cast<std::uint32_t>(facets.size());
    Facet f = from.facets[from.shapeIndex[i]];
    f.mesh = index;
    facets.push_back(f);
  }
  meshes.push_back(mesh);
  return index;
}

void Particles::checkFinite() const {
  for (std::size_t u = 0; u < size(); ++u) {  // (the first by user id, named by user id)
    const std::size_t i = slotOf[u];
    requireFinite(u, "pos", pos[i]);
    requireFinite(u, "vel", vel[i]);
    requireFinite(u, "angVel", angVel[i]);
    if (!allFinite(ori[i])) badField(u, "ori", str(ori[i]), "a finite unit quaternion");
  }
}

void Particles::permute(const std::vector<std::uint32_t>& newSlot) {
  const std::size_t n = size();
  DEM_ASSERT(newSlot.size() == n, "permute: one new slot per body");
  for (std::size_t i = 0; i < n; ++i)
    DEM_ASSERT(newSlot[i] < n && (newSlot[i] == i || (movable(i) && movable(newSlot[i]))),
               "permute: only movable bodies move, to the slots of movable bodies");
  const auto apply = [&](auto& v) {
    auto old = v;
    for (std::size_t i = 0; i < n; ++i) v[newSlot[i]] = old[i];
  };
  apply(pos);
  apply(vel);
  apply(angVel);
  if (!angMom.empty()) apply(angMom);
  apply(force);
  apply(torque);
  apply(ori);
  apply(mass);
  apply(radius);
  apply(inertia);
  apply(material);
  apply(blocked);
  apply(velMidstep);
  apply(shape);
  apply(shapeIndex);
  apply(clump);
  apply(isClump);
  apply(userId);
  userOrder = true;
  for (std::size_t i = 0; i < n; ++i) {
    slotOf[userId[i]] = static_cast<std::uint32_t>(i);
    userOrder = userOrder && userId[i] == i;
  }
  assertInvariants();
}

void Particles::assertInvariants() const {
  if constexpr (kAssertions) {
    const std::size_t n = size();
    DEM_ASSERT(vel.size() == n && angVel.size() == n && (angMom.size() == n || angMom.empty()) && force.size() == n &&
                   torque.size() == n && ori.size() == n && mass.size() == n && radius.size() == n &&
                   inertia.size() == n && material.size() == n && blocked.size() == n && velMidstep.size() == n &&
                   shape.size() == n && shapeIndex.size() == n && clump.size() == n && isClump.size() == n &&
                   userId.size() == n && slotOf.size() == n,
               "particles: every per-particle array holds size() entries");
    for (std::size_t i = 0; i < n; ++i)
      DEM_ASSERT(userId[i] < n && slotOf[userId[i]] == i && (!userOrder || userId[i] == i),
                 "particles: slotOf inverts userId (the identity with userOrder)");
    for (std::size_t i = 0; i < n; ++i) {
      DEM_ASSERT(!isWall(i) || shapeIndex[i] < walls.size(), "particles: a wall's shapeIndex in range of walls");
      DEM_ASSERT(!isFacet(i) || shapeIndex[i] < facets.size(), "particles: a facet's shapeIndex in range of facets");
      DEM_ASSERT(clump[i] == kNoClump || (clump[i] >= 0 && static_cast<std::size_t>(clump[i]) < n &&
                                          isClump[static_cast<std::size_t>(clump[i])]),
                 "particles: a clump member's clump is a clump body");
    }
  }
}

}  // namespace dem
