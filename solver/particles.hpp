#pragma once
// Particle state as a structure of arrays (one std::vector per quantity), indexed by particle id.
//
// Time levels (leapfrog, seed "Motion integration"): pos, ori, force, torque are on-step values
// x(t); vel, angVel, angMom are mid-step values v(t - dt/2) once the particle has been integrated
// (velMidstep = 1). Before its first integration a particle's vel/angVel is the user's on-step
// initial value v(0), and velMidstep = 0 (seed: DemData.velMidstep).
//
// Orientation q maps body (principal) coordinates to space coordinates: x_space = q x_body q*.
//
// Shapes. Every body is a particle with a shape tag (shape[i]): a sphere (radius[i]) or an infinite
// wall. A wall's geometry lives in the small side array `walls`, indexed by shapeIndex[i]: the plane
// passes through pos[i] with the unit normal walls[k].normal (the side spheres live on). Walls are
// fixed bodies of infinite mass: all their DOFs are blocked (dof::all), so they keep their
// prescribed velocity (zero unless the user sets one); their mass and inertia entries are
// placeholders (1) that nothing reads, and their radius is 0.

#include "math.hpp"

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace dem {

// Loops over fewer items than this run serially (an OpenMP region costs more than the work).
inline constexpr std::size_t kParallelThreshold = 2048;

inline constexpr std::int64_t kNoClump = -1;

// Blocked degrees of freedom, in global axes; a blocked axis keeps its prescribed velocity.
namespace dof {
inline constexpr std::uint8_t x = 1, y = 2, z = 4, rx = 8, ry = 16, rz = 32;
inline constexpr std::uint8_t translation = x | y | z;
inline constexpr std::uint8_t rotation = rx | ry | rz;
inline constexpr std::uint8_t all = translation | rotation;
}  // namespace dof

enum class Shape : std::uint8_t { Sphere = 0, Wall = 1 };

// An infinite plane through the owning particle's position.
struct Wall {
  Vec3 normal = Vec3::UnitZ();  // unit normal, pointing to the side where spheres are
  int axis = -1;                // 0, 1, 2 when the normal is +-e_axis (axis-aligned plane), else -1
};

// What a user specifies for one particle. mass and inertia are required (use sphereMass() and
// sphereInertia() for a sphere of given density).
struct ParticleSpec {
  Vec3 pos = Vec3::Zero();
  Vec3 vel = Vec3::Zero();     // on-step initial velocity v(0)
  Vec3 angVel = Vec3::Zero();  // on-step initial angular velocity (space frame)
  Quat ori = Quat::Identity();
  double radius = 0.0;
  double mass = 0.0;
  Vec3 inertia = Vec3::Zero();  // principal moments of inertia, body frame
  std::uint32_t material = 0;
  std::uint8_t blocked = 0;
};

// One layout for any compile flags (math.hpp): no member is over-aligned.
static_assert(alignof(Wall) == alignof(double) && alignof(ParticleSpec) == alignof(double));
static_assert(sizeof(ParticleSpec) == 19 * sizeof(double) && offsetof(ParticleSpec, ori) == 9 * sizeof(double));

double sphereMass(double radius, double density);
Vec3 sphereInertia(double radius, double mass);
// A sphere of the given radius and density with its mass and inertia filled in.
ParticleSpec sphereSpec(const Vec3& pos, double radius, double density);

struct Particles {
  std::vector<Vec3> pos, vel, angVel, angMom, force, torque;
  std::vector<Quat> ori;
  std::vector<double> mass, radius;
  std::vector<Vec3> inertia;
  std::vector<std::uint32_t> material;
  std::vector<std::uint8_t> blocked;
  std::vector<std::uint8_t> velMidstep;
  std::vector<Shape> shape;
  std::vector<std::uint32_t> shapeIndex;  // index into walls for Shape::Wall, 0 for spheres
  std::vector<Wall> walls;
  // Clump membership (solver/clump.hpp): clump[i] is the particle id of the clump body that member i
  // belongs to, kNoClump otherwise; isClump[i] = 1 for a clump body (a particle with the clump's
  // mass and inertia that has no shape and never takes part in collision detection).
  std::vector<std::int64_t> clump;
  std::vector<std::uint8_t> isClump;

  std::size_t size() const { return pos.size(); }

  // Validates the spec (throws std::invalid_argument naming the field and value) and appends it;
  // returns the new particle's id.
  std::size_t add(const ParticleSpec& spec);

  // Appends a fixed infinite wall through `point` with the given normal (normalised here; throws
  // std::invalid_argument for a zero or non-finite normal or point); returns the particle id.
  std::size_t addWall(const Vec3& point, const Vec3& normal, std::uint32_t material);

  bool isWall(std::size_t i) const { return shape[i] == Shape::Wall; }

  // Whether the principal moments differ (an aspherical body integrated by Euler's equations).
  bool isAspherical(std::size_t i) const {
    const Vec3& I = inertia[i];
    return I[0] != I[1] || I[1] != I[2];
  }
  bool isClumpMember(std::size_t i) const { return clump[i] != kNoClump; }
  // Whether a contact between i and j may exist: neither is a clump body, and they are not members
  // of the same clump (seed "Clumps": members never contact each other).
  bool mayContact(std::size_t i, std::size_t j) const {
    return !isClump[i] && !isClump[j] && (clump[i] == kNoClump || clump[i] != clump[j]);
  }

  // Throws std::invalid_argument naming the first particle and field with a non-finite value.
  void checkFinite() const;

  // Debug builds (DEM_ASSERTIONS, solver/assert.hpp): DEM_ASSERTs the invariants of the arrays:
  // every per-particle array holds size() entries, a wall's shapeIndex names its entry of `walls`,
  // a clump member's clump is a clump body. Nothing in release builds. (A non-finite state is not an
  // invariant: the runaway check reports it, solver/runaway.hpp.)
  void assertInvariants() const;
};

}  // namespace dem
