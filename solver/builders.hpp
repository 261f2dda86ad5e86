#pragma once
// Scene builders shared by verification cases, benchmarks and examples: what is timed is what is
// verified.

#include "scene.hpp"

#include <cstdint>

namespace dem {

// One sphere (R = 0.1 m, density 2600 kg/m^3) at x0 with on-step velocity v0, gravity g, no damping.
Scene singleSphereScene(const Vec3& x0, const Vec3& v0, const Vec3& g, double dt);

// Impact benchmarks (Chung & Ooi 2011 analogues): no gravity, no damping.
// Two spheres of radius R and material `mat` (ids 0 and 1) with on-step initial velocities.
Scene twoSphereScene(const Material& mat, double R, const Vec3& x1, const Vec3& v1, const Vec3& w1,
                     const Vec3& x2, const Vec3& v2, const Vec3& w2, double dt);
// A wall z = 0 with normal +z (id 0, same material) and one sphere (id 1).
Scene sphereWallScene(const Material& mat, double R, const Vec3& x, const Vec3& v, const Vec3& w, double dt);

// The standard benchmark: n equal spheres poured into an open box of walls (floor z = 0, four side
// walls), base about twice the bed's height. The spheres start on a loose simple-cubic lattice of
// spacing 2.2 r with a random jitter (no initial overlap), at rest, filled from the bottom.
struct DepositionSpec {
  std::size_t n = 1000;
  double radius = 0.01;  // m
  Material material{2600.0, 1e7, 0.2, 0.2};  // density, young, ksRatio, frictionAngle (walls too)
  double damping = 0.4;                      // Cundall damping while pouring and settling
  double dtFactor = 0.3;                     // dt = dtFactor * r sqrt(rho/E) (p-wave estimate)
  double verletDist = -0.1;
  double speed = 0.0;  // random initial velocity components in [-speed, speed] (a stirred pour)
  std::uint64_t seed = 1;
  bool meshBox = false;  // the box as a mesh wall (boxMesh, open top, twice the fill's height) instead of 5 walls
};

// The poured (not yet settled) scene: walls first, then the spheres.
Scene depositionScene(const DepositionSpec& spec);

// Runs the scene until the fastest sphere is slower than vTol (checked every 100 steps) or maxSteps
// have run; returns the number of steps.
std::uint64_t settle(Scene& scene, double vTol, std::uint64_t maxSteps);

// depositionScene settled into a dense bed (|v| < 1e-3 sqrt(g r)).
Scene settledBed(const DepositionSpec& spec);

// Coordination number: 2 (real sphere-sphere contacts) + (real sphere-wall contacts) per sphere.
double contactsPerSphere(const Scene& scene);
// A periodic cell H filled with m^3 spheres on the lattice of fractional coordinates (i + 1/2)/m,
// each moved by a random jitter (fraction `jitter` of the lattice spacing in every fractional
// coordinate), radii radius (1 +- spread) uniform, random fluctuation velocities with components in
// [-speed, speed]; no gravity. dt = dtFactor * r_min sqrt(rho/E). With radius near half the spacing
// it is a dense packing with overlaps (real contacts from the first step).
struct PeriodicLatticeSpec {
  Mat3 H = Mat3::Identity();
  std::size_t m = 6;
  double radius = 0.08;
  double spread = 0.0;
  double jitter = 0.1;
  double speed = 0.0;
  Material material{2600.0, 1e7, 0.2, 0.4};
  double damping = 0.0;
  double dtFactor = 0.3;
  std::uint64_t seed = 1;
};
Scene periodicLatticeScene(const PeriodicLatticeSpec& spec);

// A floor wall (id 0) and 30 x 30 x 12 spheres (r = 0.01 m, 2600 kg/m^3, young 1e6) on a lattice of
// spacing 2.05 r above it, added in a random order (Fisher-Yates with seed): most contacts join
// bodies far apart in storage, as in a scene generated at random places. Gravity, damping 0.2,
// dt = 0.3 r sqrt(rho/E), Verlet distance 0.5 r.
Scene shuffledLatticeFloor(std::uint64_t seed);

// One free rigid body at the origin (mass 1 kg, radius 1 m, no gravity, no damping) with principal
// inertia I, orientation q0 (body -> space) and on-step body-frame angular velocity w0Body,
// integrated with the given rotation algorithm.
Scene rigidBodyScene(const Vec3& inertia, const Vec3& w0Body, const Quat& q0, double dt, RotationAlgorithm algorithm);

}  // namespace dem
