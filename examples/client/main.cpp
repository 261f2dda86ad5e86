// A few spheres dropped on a floor and left to settle, built and run through the library's C++
// interface (dem::solver; dem::io for the lattice of starting positions). Prints the state every
// 0.05 s; exits with 1 unless the bottom layer ends up resting on the floor.
#include "io/generators.hpp"
#include "solver/scene.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>

int main() {
  using dem::Vec3;
  dem::Scene scene;

  dem::Material glass;
  glass.density = 2500.0;       // kg/m^3
  glass.young = 1e7;            // Pa (soft, for a longer time step)
  glass.frictionAngle = 0.4;    // rad
  glass.restitution = 0.5;      // contact dashpots
  scene.materials.push_back(glass);

  // A floor z = 0 (particle 0), then a 3 x 3 x 2 lattice of spheres just above it.
  scene.particles.addWall(Vec3::Zero(), Vec3::UnitZ(), 0);
  const double r = 0.01;
  dem::io::LatticeSpec lattice;
  lattice.origin = Vec3(0.0, 0.0, 1.5 * r);
  lattice.spacing = Vec3(2.05 * r, 2.05 * r, 2.5 * r);
  lattice.count[0] = lattice.count[1] = 3;
  lattice.count[2] = 2;
  lattice.radius = r;
  for (const Vec3& centre : dem::io::latticeCentres(lattice)) {
    dem::ParticleSpec sphere = dem::sphereSpec(centre, r, glass.density);  // mass and inertia filled in
    sphere.angVel = Vec3(0.0, 0.0, 1.0);
    scene.particles.add(sphere);
  }

  scene.gravity = Vec3(0.0, 0.0, -9.81);
  scene.setDamping(0.2);
  scene.setDtFromStiffness(0.5);  // half the critical time step, from the contacts' stiffness

  std::printf("%zu spheres and a floor\n", scene.particles.size() - 1);
  std::printf("%8s %10s %10s %9s %12s\n", "t (s)", "min z (m)", "max z (m)", "contacts", "E_kin (J)");
  double next = 0.0;
  while (scene.time < 0.3) {
    scene.step();
    if (scene.time >= next) {
      double lo = 1e300, hi = -1e300;
      for (std::size_t i = 1; i < scene.particles.size(); ++i) {
        lo = std::min(lo, scene.particles.pos[i][2]);
        hi = std::max(hi, scene.particles.pos[i][2]);
      }
      std::printf("%8.3f %10.5f %10.5f %9zu %12.3e\n", scene.time, lo, hi, scene.contacts.countReal(), scene.energy.kinetic);
      next += 0.05;
    }
  }
  double lowest = 1e300;
  for (std::size_t i = 1; i < scene.particles.size(); ++i) lowest = std::min(lowest, scene.particles.pos[i][2]);
  const bool resting = std::abs(lowest - r) < 0.05 * r;
  std::printf("%llu steps of %.3g s; the bottom layer %s\n", static_cast<unsigned long long>(scene.stepCount),
              scene.dt(), resting ? "rests on the floor" : "does NOT rest on the floor");
  return resting ? 0 : 1;
}
