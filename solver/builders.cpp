#include "builders.hpp"

#include "mesh_generators.hpp"

#include <algorithm>
#include <cmath>
#include <random>

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

Scene twoSphereScene(const Material& mat, double R, const Vec3& x1, const Vec3& v1, const Vec3& w1,
                     const Vec3& x2, const Vec3& v2, const Vec3& w2, double dt) {
  Scene s;
  s.materials.push_back(mat);
  ParticleSpec a = sphereSpec(x1, R, mat.density), b = sphereSpec(x2, R, mat.density);
  a.vel = v1;
  a.angVel = w1;
  b.vel = v2;
  b.angVel = w2;
  s.particles.add(a);
  s.particles.add(b);
  s.setDt(dt);
  s.setDamping(0.0);
  return s;
}

Scene sphereWallScene(const Material& mat, double R, const Vec3& x, const Vec3& v, const Vec3& w, double dt) {
  Scene s;
  s.materials.push_back(mat);
  s.particles.addWall(Vec3::Zero(), Vec3::UnitZ(), 0);
  ParticleSpec a = sphereSpec(x, R, mat.density);
  a.vel = v;
  a.angVel = w;
  s.particles.add(a);
  s.setDt(dt);
  s.setDamping(0.0);
  return s;
}

Scene shuffledLatticeFloor(std::uint64_t seed) {
  Scene s;
  s.materials.push_back(Material{2600.0, 1e6, 0.2, 0.4});
  const double r = 0.01;
  std::vector<Vec3> x;
  for (int i = 0; i < 30; ++i)
    for (int j = 0; j < 30; ++j)
      for (int k = 0; k < 12; ++k) x.emplace_back(2.05 * r * i, 2.05 * r * j, r + 2.05 * r * k);
  std::mt19937_64 rng(seed);
  for (std::size_t q = x.size() - 1; q > 0; --q) std::swap(x[q], x[rng() % (q + 1)]);
  s.particles.addWall(Vec3::Zero(), Vec3::UnitZ(), 0);
  for (const Vec3& xi : x) s.particles.add(sphereSpec(xi, r, 2600.0));
  s.gravity = Vec3(0, 0, -9.81);
  s.setDt(0.3 * r * std::sqrt(2600.0 / 1e6));
  s.setDamping(0.2);
  s.collider.verletDist = -0.5;
  return s;
}

Scene periodicLatticeScene(const PeriodicLatticeSpec& spec) {
  Scene s;
  s.materials.push_back(spec.material);
  s.setCell(Cell(spec.H));
  std::mt19937_64 rng(spec.seed);
  std::uniform_real_distribution<double> u(-1.0, 1.0);
  const double m = static_cast<double>(spec.m);
  for (std::size_t i = 0; i < spec.m * spec.m * spec.m; ++i) {
    const Vec3 site((static_cast<double>(i % spec.m) + 0.5) / m, (static_cast<double>(i / spec.m % spec.m) + 0.5) / m,
                    (static_cast<double>(i / (spec.m * spec.m)) + 0.5) / m);
    const Vec3 frac = site + spec.jitter / m * Vec3(u(rng), u(rng), u(rng));
    ParticleSpec p = sphereSpec(spec.H * frac, spec.radius * (1.0 + spec.spread * u(rng)), spec.material.density);
    p.vel = spec.speed * Vec3(u(rng), u(rng), u(rng));
    s.particles.add(p);
  }
  const double rMin = spec.radius * (1.0 - spec.spread);
  s.setDt(spec.dtFactor * rMin * std::sqrt(spec.material.density / spec.material.young));
  s.setDamping(spec.damping);
  return s;
}

Scene depositionScene(const DepositionSpec& spec) {
  Scene s;
  s.materials.push_back(spec.material);
  const double r = spec.radius, spacing = 2.4 * r, jitter = 0.19 * r;
  const auto nz = static_cast<std::size_t>(std::ceil(std::cbrt(static_cast<double>(spec.n) / 4.0)));
  const std::size_t nx = std::max<std::size_t>(1, 2 * nz);
  const double L = static_cast<double>(nx) * spacing;
  if (spec.meshBox) {
    const double layers = std::ceil(static_cast<double>(spec.n) / static_cast<double>(nx * nx));
    s.particles.addMesh(boxMesh(Vec3::Zero(), Vec3(L, L, 2.0 * (layers + 1.0) * spacing), true), 0);
  } else {
    s.particles.addWall(Vec3::Zero(), Vec3::UnitZ(), 0);
    s.particles.addWall(Vec3::Zero(), Vec3::UnitX(), 0);
    s.particles.addWall(Vec3(L, 0, 0), -Vec3::UnitX(), 0);
    s.particles.addWall(Vec3::Zero(), Vec3::UnitY(), 0);
    s.particles.addWall(Vec3(0, L, 0), -Vec3::UnitY(), 0);
  }
  std::mt19937_64 rng(spec.seed);
  std::uniform_real_distribution<double> u(-jitter, jitter);
  for (std::size_t k = 0; k < spec.n; ++k) {
    const std::size_t layer = k / (nx * nx), inLayer = k % (nx * nx);
    const double x = (static_cast<double>(inLayer % nx) + 0.5) * spacing + u(rng);
    const double y = (static_cast<double>(inLayer / nx) + 0.5) * spacing + u(rng);
    const double z = (static_cast<double>(layer) + 0.5) * spacing + u(rng);
    ParticleSpec p = sphereSpec(Vec3(x, y, z), r, spec.material.density);
    if (spec.speed > 0.0) p.vel = spec.speed / jitter * Vec3(u(rng), u(rng), u(rng));
    s.particles.add(p);
  }
  s.gravity = Vec3(0, 0, -9.81);
  s.setDt(spec.dtFactor * r * std::sqrt(spec.material.density / spec.material.young));
  s.setDamping(spec.damping);
  s.collider.verletDist = spec.verletDist;
  return s;
}

std::uint64_t settle(Scene& scene, double vTol, std::uint64_t maxSteps) {
  std::uint64_t steps = 0;
  while (steps < maxSteps) {
    scene.run(100);
    steps += 100;
    double vMax = 0.0;
    for (std::size_t i = 0; i < scene.particles.size(); ++i)
      if (!scene.particles.isBoundary(i)) vMax = std::max(vMax, scene.particles.vel[i].norm());
    if (vMax < vTol) break;
  }
  return steps;
}

Scene settledBed(const DepositionSpec& spec) {
  Scene s = depositionScene(spec);
  settle(s, 1e-3 * std::sqrt(9.81 * spec.radius), 1000000);
  return s;
}

double contactsPerSphere(const Scene& scene) {
  std::size_t spheres = 0, ends = 0;
  for (std::size_t i = 0; i < scene.particles.size(); ++i) spheres += !scene.particles.isBoundary(i);
  for (std::size_t k = 0; k < scene.contacts.size(); ++k)
    if (scene.contacts.real(k)) ends += scene.contacts.type(k) == ContactType::SphereSphere ? 2 : 1;
  return spheres ? static_cast<double>(ends) / static_cast<double>(spheres) : 0.0;
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
