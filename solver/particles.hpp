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
// A facet is a triangle of a mesh wall (addMesh): its vertices live in the side array `facets`
// (shapeIndex[i]), its particle sits at the triangle's centroid, and it moves only with its mesh's
// prescribed motion (`meshes`, mesh.hpp), never by forces: like a wall, all its DOFs are blocked and
// its mass and inertia are placeholders. Walls and facets are the boundaries (isBoundary).

#include "math.hpp"
#include "triangle.hpp"

#include <array>
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

enum class Shape : std::uint8_t { Sphere = 0, Wall = 1, Facet = 2 };

// An infinite plane through the owning particle's position.
struct Wall {
  Vec3 normal = Vec3::UnitZ();  // unit normal, pointing to the side where spheres are
  int axis = -1;                // 0, 1, 2 when the normal is +-e_axis (axis-aligned plane), else -1
};

// A triangle of a mesh wall. Vertex ids are shared by the facets of one mesh that meet there (the
// mesh's connectivity: which facets share an edge or a vertex, facet_contacts.hpp).
struct Facet {
  std::array<Vec3, 3> v;                // vertices now (space frame)
  std::array<Vec3, 3> v0;               // vertices at the mesh's reference time (MeshMotion::time0)
  std::array<std::uint32_t, 3> vertex;  // the vertices' ids within the mesh
  std::uint32_t mesh = 0;               // index into Particles::meshes
};

// A rigid motion prescribed to a mesh from its reference time t0: a point x moves to
// c + v (t - t0) + R(w (t - t0)) (x - c), R(phi) the rotation by |phi| about phi; constant v and w.
struct MeshMotion {
  Vec3 centre = Vec3::Zero();  // c, the rotation centre at t0
  Vec3 vel = Vec3::Zero();     // v
  Vec3 angVel = Vec3::Zero();  // w
  double time0 = 0.0;          // t0
};

// A mesh wall: the facets are the particles [first, first + count), in the mesh's triangle order.
struct Mesh {
  std::uint32_t first = 0, count = 0;
  std::uint32_t vertices = 0;  // distinct vertex ids
  MeshMotion motion;
  std::string name;  // the user's label (scene file), for the outputs
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
  std::vector<Vec3> pos, vel, angVel, force, torque;
  // Space-frame angular momentum L = R I R^T w (the aspherical integrators' state). Kept, one entry
  // per body, only where some body needs it: an aspherical body, or a body whose L was set to
  // something other than I w (a clump member keeps the L it had, not being integrated). Empty
  // otherwise, and then every body's L is I w (angMomOf): what the integrator would store for an
  // isotropic body, whose rotation it steps from w alone. A scene of spheres thus keeps no copy of
  // its angular velocities (24 bytes per sphere, written at every step).
  std::vector<Vec3> angMom;
  std::vector<Quat> ori;
  std::vector<double> mass, radius;
  std::vector<Vec3> inertia;
  std::vector<std::uint32_t> material;
  std::vector<std::uint8_t> blocked;
  std::vector<std::uint8_t> velMidstep;
  std::vector<Shape> shape;
  std::vector<std::uint32_t> shapeIndex;  // index into walls (Shape::Wall) or facets (Shape::Facet), 0 for spheres
  std::vector<Wall> walls;
  std::vector<Facet> facets;
  std::vector<Mesh> meshes;
  // The moving meshes' last placement (placeMeshes, mesh_motion.hpp): its time and step length, the
  // motions and the facet count it used. A placement is a function of these and the facets'
  // reference vertices, so placing again with the same is skipped (a step places the meshes at its
  // end, t_n+1, and again at the start of the next, t_n).
  struct MeshesPlaced {
    double t = 0.0, dt = 0.0;
    std::vector<MeshMotion> motions;
    std::size_t facets = 0;
    bool valid = false;
  };
  MeshesPlaced meshesPlaced;
  // Clump membership (solver/clump.hpp): clump[i] is the particle id of the clump body that member i
  // belongs to, kNoClump otherwise; isClump[i] = 1 for a clump body (a particle with the clump's
  // mass and inertia that has no shape and never takes part in collision detection).
  std::vector<std::int64_t> clump;
  std::vector<std::uint8_t> isClump;
  // User ids: the id a body has in every output, checkpoint and API, its index when it was added.
  // userId[i] is the user id of the body stored in slot i (the index of every other array here),
  // slotOf[u] the slot of user id u. The solver may move spheres to other slots (spatial order,
  // Scene::renumber); no result depends on the slots (Scene::renumber). Both are the identity until then.
  std::vector<std::uint32_t> userId, slotOf;
  bool userOrder = true;  // every body in the slot of its user id (userId is the identity)

  std::size_t size() const { return pos.size(); }
  // Whether slot i's body may move to another slot: a sphere that is neither a clump member nor a
  // clump body (boundaries, clumps and their members keep their slots, which clumps and meshes name).
  bool movable(std::size_t i) const { return shape[i] == Shape::Sphere && clump[i] == kNoClump && !isClump[i]; }
  // Whether body a comes before body b in the order of user ids (the order of every sum and of a
  // sphere-sphere contact's two bodies).
  bool userBefore(std::size_t a, std::size_t b) const { return userId[a] < userId[b]; }

  // Validates the spec (throws std::invalid_argument naming the field and value) and appends it;
  // returns the new particle's id.
  std::size_t add(const ParticleSpec& spec);

  // Room for n bodies in every per-body array (a loader that knows the count: no growth by
  // copies, whose freed buffers would stay in the process's memory).
  void reserve(std::size_t n);

  // Appends a fixed infinite wall through `point` with the given normal (normalised here; throws
  // std::invalid_argument for a zero or non-finite normal or point); returns the particle id.
  std::size_t addWall(const Vec3& point, const Vec3& normal, std::uint32_t material);

  // Appends a mesh wall of the given triangles (material `material`, prescribed motion `motion`,
  // at rest by default): one facet particle per triangle, vertices with equal coordinates shared.
  // Throws std::invalid_argument naming the triangle for a non-finite or degenerate (zero-area)
  // triangle, or for an empty mesh. Returns the mesh's index in `meshes`.
  std::size_t addMesh(const TriangleMesh& triangles, std::uint32_t material, const MeshMotion& motion = {},
                      const std::string& name = "");
  // Appends mesh `mesh` of `from` with every bit of its facets' state (vertices, shared vertex ids,
  // places, velocities, orientations, forces); returns its index in `meshes`.
  std::size_t copyMesh(const Particles& from, std::size_t mesh);

  bool isWall(std::size_t i) const { return shape[i] == Shape::Wall; }
  bool isFacet(std::size_t i) const { return shape[i] == Shape::Facet; }
  // A wall or a facet: a fixed or prescribed boundary of infinite mass, never a sphere.
  bool isBoundary(std::size_t i) const { return shape[i] != Shape::Sphere; }

  // Whether the principal moments differ (an aspherical body integrated by Euler's equations).
  bool isAspherical(std::size_t i) const { return anisotropic(inertia[i]); }
  // Principal moments of inertia that are not all equal (an aspherical body's).
  static bool anisotropic(const Vec3& I) { return I[0] != I[1] || I[1] != I[2]; }
  bool isClumpMember(std::size_t i) const { return clump[i] != kNoClump; }
  // Body i's angular momentum: angMom[i], or I w while angMom is empty.
  Vec3 angMomOf(std::size_t i) const { return angMom.empty() ? isotropicAngMom(i) : angMom[i]; }
  // I w: an isotropic body's angular momentum, as the integrator computes it.
  Vec3 isotropicAngMom(std::size_t i) const { return inertia[i][0] * angVel[i]; }
  // Sets body i's angular momentum to L, to the bit: a value other than I w makes the scene keep
  // angMom (keepAngMom).
  void setAngMom(std::size_t i, const Vec3& L);
  // Gives every body its angMom entry, the I w that angMomOf gave it (every body is isotropic while
  // angMom is empty), before an aspherical body or another L is stored.
  void keepAngMom();
  // Whether a blocked axis of body i (not a facet: meshes move by MeshMotion) has a non-zero
  // velocity: a drive (a moving wall, a driven sphere), whose work the ledger books (energy.hpp).
  bool isDriven(std::size_t i) const {
    if (!blocked[i] || isFacet(i)) return false;
    for (int w = 0; w < 6; ++w)
      if ((blocked[i] & (1u << w)) && (w < 3 ? vel[i][w] : angVel[i][w - 3]) != 0.0) return true;
    return false;
  }
  // Whether a contact between i and j may exist: neither is a clump body, and they are not members
  // of the same clump (seed "Clumps": members never contact each other).
  bool mayContact(std::size_t i, std::size_t j) const {
    return !isClump[i] && !isClump[j] && (clump[i] == kNoClump || clump[i] != clump[j]);
  }

  // Moves the body in slot i to slot newSlot[i] (a permutation that moves only movable() bodies:
  // clumps, meshes and walls keep naming their bodies' slots); userId moves with the bodies.
  void permute(const std::vector<std::uint32_t>& newSlot);

  // Throws std::invalid_argument naming the first particle and field with a non-finite value.
  void checkFinite() const;

  // Debug builds (DEM_ASSERTIONS, solver/assert.hpp): DEM_ASSERTs the invariants of the arrays:
  // every per-particle array holds size() entries, a wall's shapeIndex names its entry of `walls`,
  // a clump member's clump is a clump body. Nothing in release builds. (A non-finite state is not an
  // invariant: the runaway check reports it, solver/runaway.hpp.)
  void assertInvariants() const;
};

}  // namespace dem
