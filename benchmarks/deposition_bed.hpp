#pragma once
// The benchmarks' dense state: the shared deposition scene (solver/builders.hpp, DepositionSpec with
// its defaults) poured and settled, built once per process and per N and then copied by every
// benchmark that needs it.
//
// N <= kTile (1000): DepositionSpec{N} poured and settled.
// N > kTile (a multiple of it): kx x ky copies of the settled kTile bed side by side (kx ky = N /
// kTile, as square as possible), every other one mirrored so that the seams match sphere for
// sphere, the walls between them removed, every sphere's state (on-step position and orientation,
// mid-step velocities) and every contact's history copied, then 50 steps so that the contacts
// across the seams form. Settling 10^5 spheres directly takes about 10^5 steps
// of the whole bed (an hour on two cores); the tiled bed is a settled bed of the same depth (about
// five layers) and the same contacts per sphere, built in the time of one small bed.
//
// Settled criterion: the mean sphere speed below 1e-3 sqrt(g r), checked every 100 steps (at most
// kMaxSettleSteps). settledBed() waits for the fastest sphere instead, which a few rattlers in the
// pores hold up for tens of thousands of steps after the bed's contact network has formed; the mean
// criterion stops when the bed as a whole is at rest, with the same contacts per sphere to within a
// few per cent (printed on stderr and set as the contacts_per_sphere counter).

#include "bench_common.hpp"
#include "io/checkpoint.hpp"
#include "solver/builders.hpp"

#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <map>
#include <string>
#include <memory>
#include <utility>

namespace dem::bench {

inline constexpr std::uint64_t kMaxSettleSteps = 200000;

// Mean speed of the spheres (walls left out).
inline double meanSphereSpeed(const Scene& s) {
  double sum = 0.0;
  std::size_t n = 0;
  for (std::size_t i = 0; i < s.particles.size(); ++i)
    if (!s.particles.isBoundary(i)) {
      sum += s.particles.vel[i].norm();
      ++n;
    }
  return n ? sum / static_cast<double>(n) : 0.0;
}

// Pours and settles DepositionSpec{n} (see above) on all threads (the bits do not depend on them).
// With the environment variable DEM_BENCH_BED_CACHE set to a directory, the settled bed is kept
// there as a checkpoint (deposition_N.ckpt, io/checkpoint.hpp) and loaded by later runs: for
// profiling runs (scripts/profile.sh) where settling under valgrind would take hours. Delete the
// file after changing the solver, or the bed comes from the old code.
inline Scene settleDepositionUncached(std::size_t n);
inline Scene settleDeposition(std::size_t n) {
  const char* dir = std::getenv("DEM_BENCH_BED_CACHE");
  if (!dir || !*dir) return settleDepositionUncached(n);
  const std::string path = std::string(dir) + "/deposition_" + std::to_string(n) + ".ckpt";
  if (std::filesystem::exists(path)) {
    std::fprintf(stderr, "deposition bed N = %zu: loaded from %s\n", n, path.c_str());
    return io::loadCheckpoint(path);
  }
  Scene s = settleDepositionUncached(n);
  std::filesystem::create_directories(dir);
  io::saveCheckpoint(s, path);
  return s;
}

inline Scene settleDepositionUncached(std::size_t n) {
  const ThreadScope scope(allThreads());
  DepositionSpec spec;
  spec.n = n;
  Scene s = depositionScene(spec);
  const double vTol = 1e-3 * std::sqrt(9.81 * spec.radius);
  const auto t0 = std::chrono::steady_clock::now();
  std::uint64_t steps = 0;
  while (steps < kMaxSettleSteps) {
    s.run(100);
    steps += 100;
    if (meanSphereSpeed(s) < vTol) break;
  }
  const double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  std::fprintf(stderr, "deposition bed N = %zu: settled in %llu steps (%.1f s), %.3f contacts per sphere\n", n,
               static_cast<unsigned long long>(steps), secs, contactsPerSphere(s));
  return s;
}

inline constexpr std::size_t kTile = 1000;

// kx <= ky with kx ky = count, as close to square as possible.
inline std::pair<std::size_t, std::size_t> tiling(std::size_t count) {
  auto kx = static_cast<std::size_t>(std::sqrt(static_cast<double>(count)));
  while (kx > 1 && count % kx != 0) --kx;
  return {kx, count / kx};
}

// Particle ids of a depositionScene: walls first (floor, x = 0, x = L, y = 0, y = L), then spheres.
inline constexpr std::uint32_t kWalls = 5;

// The tile mirrored across its mid-plane normal to `axis` (0: x -> L - x, 1: y -> L - y): positions,
// velocities (polar vectors: v -> M v), angular velocities and momenta (axial: w -> -M w), the walls
// x = 0 and x = L (or y) trading places, and every contact's history. A contact's frame R (local ->
// global, x axis = normal) becomes M R M' with M' = diag(1, 1, -1), which keeps it a rotation with
// the mirrored normal as its x axis; the local vectors follow M' (u) and -M' (phi, axial).
inline Scene mirroredTile(const Scene& tile, int axis) {
  Scene s = tile;
  Particles& p = s.particles;
  const double L = p.pos[axis == 0 ? 2 : 4][axis];
  Mat3 M = Mat3::Identity();
  M(axis, axis) = -1.0;
  const Mat3 Mp = Vec3(1.0, 1.0, -1.0).asDiagonal();
  for (std::size_t i = kWalls; i < p.size(); ++i) {
    p.pos[i][axis] = L - p.pos[i][axis];
    p.vel[i] = M * p.vel[i];
    p.angVel[i] = -(M * p.angVel[i]);
    p.setAngMom(i, -(M * p.angMomOf(i)));
    p.ori[i] = Quat(M * p.ori[i].toRotationMatrix() * M).normalized();
  }
  const std::uint32_t lo = axis == 0 ? 1 : 3, hi = lo + 1;
  std::vector<Contact> items = s.contacts.values();
  s.contacts.clear();
  for (Contact c : items) {
    if (c.id2 == lo) c.id2 = hi;
    else if (c.id2 == hi) c.id2 = lo;
    c.frame = Quat(M * c.frame.toRotationMatrix() * Mp).normalized();
    c.normal = M * c.normal;
    c.point[axis] = L - c.point[axis];
    c.u = Mp * c.u;
    c.phi = -(Mp * c.phi);
    s.contacts.add(c);
  }
  return s;
}

// kx x ky copies of a settled depositionScene bed side by side, every other one mirrored so that
// the spheres on the two sides of a seam face each other exactly (the contact of a sphere with the
// removed wall becomes a contact with its mirror image), with one box of walls around all of them.
inline Scene tiledBed(const Scene& tile, std::size_t kx, std::size_t ky) {
  const double Lx = tile.particles.pos[2][0], Ly = tile.particles.pos[4][1];
  const Scene mx = mirroredTile(tile, 0), my = mirroredTile(tile, 1), mxy = mirroredTile(mx, 1);
  Scene s;
  s.materials = tile.materials;
  s.gravity = tile.gravity;
  s.setDt(tile.dt());
  s.setDamping(tile.damping());
  s.collider.verletDist = tile.collider.verletDist;
  s.time = tile.time;
  s.stepCount = tile.stepCount;
  Particles& p = s.particles;
  p.addWall(Vec3::Zero(), Vec3::UnitZ(), 0);
  p.addWall(Vec3::Zero(), Vec3::UnitX(), 0);
  p.addWall(Vec3(static_cast<double>(kx) * Lx, 0, 0), -Vec3::UnitX(), 0);
  p.addWall(Vec3::Zero(), Vec3::UnitY(), 0);
  p.addWall(Vec3(0, static_cast<double>(ky) * Ly, 0), -Vec3::UnitY(), 0);
  for (std::size_t iy = 0; iy < ky; ++iy)
    for (std::size_t ix = 0; ix < kx; ++ix) {
      const Scene& src = ix % 2 ? (iy % 2 ? mxy : mx) : (iy % 2 ? my : tile);
      const Particles& t = src.particles;
      const Vec3 shift(static_cast<double>(ix) * Lx, static_cast<double>(iy) * Ly, 0.0);
      const auto base = static_cast<std::uint32_t>(p.size());
      for (std::uint32_t i = kWalls; i < t.size(); ++i) {
        ParticleSpec spec;
        spec.pos = t.pos[i] + shift;
        spec.ori = t.ori[i];
        spec.radius = t.radius[i];
        spec.mass = t.mass[i];
        spec.inertia = t.inertia[i];
        spec.material = t.material[i];
        const std::size_t id = p.add(spec);
        p.vel[id] = t.vel[i];  // mid-step values, as in the tile
        p.angVel[id] = t.angVel[i];
        p.setAngMom(id, t.angMomOf(i));
        p.velMidstep[id] = t.velMidstep[i];
      }
      // Tile id -> new id; walls between tiles are gone (kNone).
      constexpr std::uint32_t kNone = 0xffffffffu;
      const std::uint32_t wallId[kWalls] = {0, ix == 0 ? 1u : kNone, ix + 1 == kx ? 2u : kNone,
                                            iy == 0 ? 3u : kNone, iy + 1 == ky ? 4u : kNone};
      const auto map = [&](std::uint32_t id) { return id < kWalls ? wallId[id] : base + (id - kWalls); };
      for (const Contact& c : src.contacts.records()) {
        Contact d = c;
        d.id1 = map(c.id1);
        d.id2 = map(c.id2);
        if (d.id1 == kNone || d.id2 == kNone) continue;
        d.point += shift;
        s.contacts.add(d);
      }
    }
  return s;
}

// The settled bed of n spheres (see above), built on the first call (this process) and kept.
inline const Scene& depositionBed(std::size_t n) {
  static std::map<std::size_t, std::unique_ptr<Scene>> beds;
  auto& bed = beds[n];
  if (bed) return *bed;
  if (n <= kTile || n % kTile != 0) {
    bed = std::make_unique<Scene>(settleDeposition(n));
    return *bed;
  }
  const Scene& tile = depositionBed(kTile);
  const auto [kx, ky] = tiling(n / kTile);
  const ThreadScope scope(allThreads());
  const auto t0 = std::chrono::steady_clock::now();
  bed = std::make_unique<Scene>(tiledBed(tile, kx, ky));
  bed->run(50);
  const double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  std::fprintf(stderr, "deposition bed N = %zu: %zu x %zu tiles of the N = %zu bed + 50 steps (%.1f s), %.3f contacts per sphere\n",
               n, kx, ky, kTile, secs, contactsPerSphere(*bed));
  return *bed;
}

// Number of spheres (non-wall bodies) of a scene.
inline std::size_t sphereCount(const Scene& s) {
  std::size_t n = 0;
  for (std::size_t i = 0; i < s.particles.size(); ++i) n += !s.particles.isBoundary(i);
  return n;
}

}  // namespace dem::bench
