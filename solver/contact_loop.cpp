#include "contact_loop.hpp"

#include "contact_geometry.hpp"
#include "contact_kernel.hpp"
#include "contact_law.hpp"
#include "integrator.hpp"
#include "lanes.hpp"

#include <algorithm>

#ifdef _OPENMP
#include <omp.h>
#endif

namespace dem {

namespace {

// Drops the history of a contact whose bodies no longer overlap (seed: the contact gives no force).
// With F_N = 0 the Coulomb cap is zero, so the shear spring's stored energy |F_T|^2/(2 ks) is
// released by slip: it is booked as friction dissipation of this step (leaving it out makes the
// ledger drift at first order in dt in granular scenes).
inline void separate(Contact& c) {
  const double shearEnergy = c.elastic - 0.5 * c.phys.kn * c.u[0] * c.u[0];
  c.real = 0;
  c.u.setZero();
  c.phi.setZero();
  c.force.setZero();
  c.torque1.setZero();
  c.torque2.setZero();
  c.elastic = 0.0;
  c.dissipated = std::max(0.0, shearEnergy);
}

// Force, torques and energies of a real contact from its geometry (g: arms, normal, frame) and the
// law's result. Torques: b1 x F = a1 n x F on particle 1, b2 x (-F) = a2 n x F on particle 2.
inline void storeResult(Contact& c, const ContactGeom& g, const CundallResult& r) {
  c.u[1] = r.uTy;
  c.u[2] = r.uTz;
  c.force = vec3(localToGlobal(q4(g.frame), r.forceLocal[0], r.forceLocal[1], r.forceLocal[2]));  // local -> global
  const Vec3 nxF = g.n.cross(c.force);
  c.torque1 = g.a1 * nxF;
  c.torque2 = g.a2 * nxF;
  c.elastic = r.elastic;
  c.dissipated = r.dissipated;
}

// Particle 2's position and mid-step velocity as they enter contact c (its periodic image if any).
inline Vec3 secondPosition(const Particles& p, const Contact& c, const PeriodicShift* shift) {
  if (shift && !c.cellDist.isZero()) return p.pos[c.id2] + shift->H * c.cellDist.cast<double>();
  return p.pos[c.id2];
}
inline Vec3 secondVelocity(const Particles& p, const Contact& c, const PeriodicShift* shift) {
  if (shift && !c.cellDist.isZero()) return p.vel[c.id2] + shift->vel * c.cellDist.cast<double>();
  return p.vel[c.id2];
}

// A contact whose bodies do not overlap at t_n: no force (a real one separates).
inline void apart(Contact& c) {
  if (c.real) separate(c);
  else if (c.dissipated != 0.0) c.dissipated = 0.0;  // the separation's release was booked last step
}

// Geometry + law for one contact at t_n; a contact whose bodies do not overlap gives no force (the
// velocities are read only for bodies that overlap).
inline void evaluate(const Particles& p, Contact& c, double dt, const PeriodicShift* shift) {
  const std::uint32_t i1 = c.id1, i2 = c.id2;
  SpherePair s;
  const Vec3 x2 = secondPosition(p, c, shift);
  switch (c.type) {  // dispatch on the shape pair
    case ContactType::SphereSphere: {
      const double rs = p.radius[i1] + p.radius[i2];
      if (!((x2 - p.pos[i1]).squaredNorm() < rs * rs)) return apart(c);  // quick exit: no overlap
      s = sphereSpherePair(p.pos[i1], p.radius[i1], x2, p.radius[i2]);
      break;
    }
    case ContactType::SphereWall:
      s = sphereWallPair(p.pos[i1], p.radius[i1], p.pos[i2], p.walls[p.shapeIndex[i2]].normal);
      break;
  }
  if (!(s.uN < 0.0)) return apart(c);
  s.v1 = p.vel[i1];
  s.v2 = secondVelocity(p, c, shift);
  s.w1 = p.angVel[i1];
  s.w2 = p.angVel[i2];
  const bool isNew = c.real == 0;
  const double uPrevY = isNew ? 0.0 : c.u[1], uPrevZ = isNew ? 0.0 : c.u[2];
  c.real = 1;
  const ContactGeom g = isNew ? formContact(s, c, dt) : updateContact(s, c, dt);
  storeResult(c, g, cundallLaw(c.phys, g.u, uPrevY, uPrevZ));
}

// Results, field by field: each field is stored from lanes with one vector store and read back per
// lane with scalar loads.
template <std::size_t N>
struct LaneOutputs {
  struct alignas(64) Field {
    double v[kLanes];
  };
  Field f[N];
  void store(std::size_t i, const Lanes& x) { x.copy_to(f[i].v, stdx::vector_aligned); }
  void store(std::size_t i, const V3<Lanes>& x) {
    store(i, x.x);
    store(i + 1, x.y);
    store(i + 2, x.z);
  }
};

// Staged inputs, lane by lane: each lane's fields are written with scalar stores and each field is
// read back as lanes with scalar loads (a wide load of narrow stores would stall store forwarding).
template <std::size_t N>
struct LaneInputs {
  double lane[kLanes][N];
  double& at(std::size_t i, std::size_t j) { return lane[j][i]; }
  Lanes load(std::size_t i) const { return Lanes([&](auto j) { return lane[j][i]; }); }
  V3<Lanes> v3(std::size_t i) const { return {load(i), load(i + 1), load(i + 2)}; }
  void set(std::size_t i, std::size_t j, const Vec3& x) {
    for (int w = 0; w < 3; ++w) lane[j][i + static_cast<std::size_t>(w)] = x[w];
  }
};

// Staged inputs (index of the first component of each field).
// Sphere-wall lanes (inWall = 1) bring their normal and u_N (sphereWallPair) in inWallN, inWallUN.
enum In : std::size_t { inD = 0, inDv = 3, inW1 = 6, inW2 = 9, inR1 = 12, inR2, inQ, inN = inQ + 4, inUy = inN + 3,
                        inUz, inPhi, inKn = inPhi + 3, inKs, inTan, inWall, inWallN, inWallUN = inWallN + 3, inCount };
// Results.
enum Out : std::size_t { outQ = 0, outN = 4, outU = 7, outPhi = 10, outF = 13, outT1 = 16, outT2 = 19, outElastic = 22,
                         outDissipated, outA1, outReal, outCount };

[[gnu::always_inline]] inline void stageLane(const Particles& p, const Contact& c, const PeriodicShift* shift, LaneInputs<inCount>& in,
                      std::size_t j) {
  Vec3 x2 = secondPosition(p, c, shift);
  const Vec3 v2 = secondVelocity(p, c, shift);
  const bool wall = c.type == ContactType::SphereWall;
  in.at(inWall, j) = wall ? 1.0 : 0.0;
  if (wall) {
    const SpherePair s = sphereWallPair(p.pos[c.id1], p.radius[c.id1], x2, p.walls[p.shapeIndex[c.id2]].normal);
    in.set(inWallN, j, s.n);
    in.at(inWallUN, j) = s.uN;
    x2 = s.x2;  // the equivalent sphere (radius 0) at the projection
  }
  in.set(inD, j, x2 - p.pos[c.id1]);
  in.set(inDv, j, v2 - p.vel[c.id1]);
  in.set(inW1, j, p.angVel[c.id1]);
  in.set(inW2, j, p.angVel[c.id2]);
  in.at(inR1, j) = p.radius[c.id1];
  in.at(inR2, j) = p.radius[c.id2];
  const double q[4] = {c.frame.w(), c.frame.x(), c.frame.y(), c.frame.z()};
  for (std::size_t a = 0; a < 4; ++a) in.at(inQ + a, j) = q[a];
  in.set(inN, j, c.normal);
  in.at(inUy, j) = c.u[1];
  in.at(inUz, j) = c.u[2];
  in.set(inPhi, j, c.phi);
  in.at(inKn, j) = c.phys.kn;
  in.at(inKs, j) = c.phys.ks;
  in.at(inTan, j) = c.phys.tanPhi;
}

// A lane the kernel does not use: a valid, separated state (its results are discarded).
inline void stageIdleLane(LaneInputs<inCount>& in, std::size_t j) {
  for (double& v : in.lane[j]) v = 0.0;
  in.at(inD, j) = 3.0;
  in.at(inR1, j) = in.at(inR2, j) = 1.0;
  in.at(inQ, j) = 1.0;
  in.at(inN, j) = 1.0;
  in.at(inKn, j) = in.at(inKs, j) = 1.0;
}

// The kernel on a staged batch: the directly computed n and u_N (sphere-sphere from the centres,
// sphere-wall as staged), history update, Cundall law, force to global axes and torques; every lane
// computed, whether it overlaps or not.
inline void realContactBatch(const LaneInputs<inCount>& in, double dtScalar, LaneOutputs<outCount>& out) {
  using stdx::sqrt;
  const Lanes dt(dtScalar);
  const V3<Lanes> d = in.v3(inD);
  const Lanes r1 = in.load(inR1), r2 = in.load(inR2), rs = r1 + r2;
  const Lanes dist2 = dot(d, d);
  const Lanes dist = sqrt(dist2);
  const LaneMask apart = dist > 0.0, wall = in.load(inWall) != 0.0;
  RelativeMotion<Lanes> m;
  // sphereSpherePair: n = (x2 - x1) (1/|x2 - x1|), u_N = |x2 - x1| - (r1 + r2)
  const Lanes invDist = 1.0 / dist;
  const V3<Lanes> nWall = in.v3(inWallN);
  m.n = {select(wall, nWall.x, select(apart, invDist * d.x, Lanes(1.0))),
         select(wall, nWall.y, select(apart, invDist * d.y, Lanes(0.0))),
         select(wall, nWall.z, select(apart, invDist * d.z, Lanes(0.0)))};
  m.uN = select(wall, in.load(inWallUN), dist - rs);
  m.a1 = r1 + 0.5 * m.uN;  // branchVectors
  m.a2 = r2 + 0.5 * m.uN;
  m.dv = in.v3(inDv);
  m.w1 = in.v3(inW1);
  m.w2 = in.v3(inW2);
  ContactHistory<Lanes> h{{in.load(inQ), in.load(inQ + 1), in.load(inQ + 2), in.load(inQ + 3)},
                          in.v3(inN), in.load(inUy), in.load(inUz), in.v3(inPhi)};
  const Lanes uPrevY = h.uY, uPrevZ = h.uZ;
  updateHistory(m, h, dt);
  const CundallOut<Lanes> r =
      cundall(in.load(inKn), in.load(inKs), in.load(inTan), m.uN, h.uY, h.uZ, uPrevY, uPrevZ);
  const V3<Lanes> force = localToGlobal(h.frame, r.fN, r.fY, r.fZ);
  const V3<Lanes> nxF = cross(m.n, force);
  out.store(outQ, h.frame.w);
  out.store(outQ + 1, h.frame.x);
  out.store(outQ + 2, h.frame.y);
  out.store(outQ + 3, h.frame.z);
  out.store(outN, m.n);
  out.store(outU, {m.uN, r.uY, r.uZ});
  out.store(outPhi, h.phi);
  out.store(outF, force);
  out.store(outT1, m.a1 * nxF);
  out.store(outT2, m.a2 * nxF);
  out.store(outElastic, r.elastic);
  out.store(outDissipated, r.dissipated);
  out.store(outA1, m.a1);
  // real: as in evaluate(), the sphere-sphere quick exit's test and u_N < 0
  out.store(outReal, select((wall || dist2 < rs * rs) && m.uN < 0.0, Lanes(1.0), Lanes(0.0)));
}

inline Vec3 laneVec(const LaneOutputs<outCount>& out, std::size_t i, std::size_t j) {
  return {out.f[i].v[j], out.f[i + 1].v[j], out.f[i + 2].v[j]};
}

// Writes lane j's results into contact c (a contact that was real at the last step) and returns its
// force and torques (read from the lanes: reading them back from the record just written would
// stall on store forwarding).
inline ContactLoad storeLane(const Particles& p, Contact& c, const LaneOutputs<outCount>& out, std::size_t j) {
  if (out.f[outReal].v[j] == 0.0) {
    separate(c);
    return {Vec3::Zero(), Vec3::Zero(), Vec3::Zero()};
  }
  c.frame = Quat(out.f[outQ].v[j], out.f[outQ + 1].v[j], out.f[outQ + 2].v[j], out.f[outQ + 3].v[j]);
  c.normal = laneVec(out, outN, j);
  c.point = p.pos[c.id1] + out.f[outA1].v[j] * c.normal;  // c = x1 + a1 n (branchVectors)
  c.u = laneVec(out, outU, j);
  c.phi = laneVec(out, outPhi, j);
  const ContactLoad l{laneVec(out, outF, j), laneVec(out, outT1, j), laneVec(out, outT2, j)};
  c.force = l.force;
  c.torque1 = l.torque1;
  c.torque2 = l.torque2;
  c.elastic = out.f[outElastic].v[j];
  c.dissipated = out.f[outDissipated].v[j];
  return l;
}

inline bool kernelLane(const Contact& c) { return c.real != 0; }

// Adds contact c's force and torques to the per-particle sums f, t (the serial path of
// contactStage): particle 1 receives force and torque1, particle 2 -force and torque2.
inline void addToBodies(const Contact& c, const ContactLoad& l, Vec3* f, Vec3* t) {
  f[c.id1] += l.force;
  t[c.id1] += l.torque1;
  f[c.id2] -= l.force;
  t[c.id2] += l.torque2;
}

// Where the contact stage puts each evaluated contact's force and torques: added to the bodies' sums
// (one thread: force, torque non-null), or copied to a compact array for the gather (loads).
struct LoadSink {
  Vec3* force = nullptr;
  Vec3* torque = nullptr;
  ContactLoad* loads = nullptr;
};

// A window of consecutive contacts [begin, stop) holding up to kLanes contacts that were real at
// the last step: those go through the kernel (contact_kernel.hpp) together, one per lane in contact
// order; the others (new contacts, potential contacts that were not real: about half of them) through
// evaluate(). The window grows until the lanes are full, so the kernel runs on full batches. Results
// are then stored and handed to the sink in contact order. Which path a contact takes depends only on
// that contact, and a lane's bits do not depend on the other lanes: the result is the same for any
// thread count and any batch composition.
// Evaluates contacts from begin up to at most end and returns where the window stopped; `in` holds
// valid (possibly stale) data in every lane.
inline std::size_t evaluateWindow(const Particles& p, Contact* items, std::size_t begin, std::size_t end, double dt,
                                  const PeriodicShift* shift, LaneInputs<inCount>& in, const LoadSink& sink) {
  LaneOutputs<outCount> out;
  std::size_t stop = begin, lanes = 0;
  for (; stop < end && lanes < kLanes; ++stop)
    if (kernelLane(items[stop])) stageLane(p, items[stop], shift, in, lanes++);
  if (lanes > 0) realContactBatch(in, dt, out);
  std::size_t lane = 0;
  for (std::size_t k = begin; k < stop; ++k) {
    Contact& c = items[k];
    ContactLoad l;
    if (kernelLane(c)) {
      l = storeLane(p, c, out, lane++);
    } else {
      evaluate(p, c, dt, shift);
      // (a contact that is not real holds zeros: its last cache lines are not read)
      if (c.real) l = {c.force, c.torque1, c.torque2};
      else l = {Vec3::Zero(), Vec3::Zero(), Vec3::Zero()};
    }
    // A contact that is not real holds zero force and torques; adding them would not change the
    // sums (they start at +0, and x + (+-0) = x for any x != -0), so they are skipped.
    if (sink.force) {
      if (c.real) addToBodies(c, l, sink.force, sink.torque);
    } else {
      sink.loads[k] = l;
    }
  }
  return stop;
}

// How many contacts ahead of the window being evaluated their records are fetched into cache (a
// window spans about 2 kLanes contacts).
constexpr std::size_t kPrefetchAhead = 4 * kLanes;

// Requests the cache lines of contact c's record: all of them (whole = true) or the first one (ids,
// `real`: all that a contact that is not real reads).
inline void prefetchContact(const Contact& c, bool whole) {
  const char* b = reinterpret_cast<const char*>(&c);
  __builtin_prefetch(b, 1);
  if (whole)
    for (std::size_t o = 64; o < sizeof(Contact); o += 64) __builtin_prefetch(b + o, 1);
}

// Evaluates the contacts of block b and returns their energy sums (in contact order). Windows never
// straddle blocks, so the batches are the same for any thread count.
// Contacts before realEnd (ContactStore::realEnd) are fetched whole, the others by their first line.
inline ContactStageResult evaluateBlock(const Particles& p, Contact* items, std::size_t nc, std::size_t realEnd,
                                        std::size_t b, double dt, const PeriodicShift* shift, const LoadSink& sink) {
  LaneInputs<inCount> in;
  for (std::size_t j = 0; j < kLanes; ++j) stageIdleLane(in, j);
  ContactStageResult sums;
  const std::size_t end = std::min(nc, (b + 1) * kEnergyBlock);
  std::size_t fetched = b * kEnergyBlock;
  for (std::size_t k = b * kEnergyBlock; k < end;) {
    for (const std::size_t ahead = std::min(end, k + kPrefetchAhead); fetched < ahead; ++fetched)
      prefetchContact(items[fetched], fetched < realEnd);
    const std::size_t stop = evaluateWindow(p, items, k, end, dt, shift, in, sink);
    for (; k < stop; ++k) {
      sums.elastic += items[k].elastic;
      sums.dissipated += items[k].dissipated;
    }
  }
  return sums;
}

}  // namespace

ContactStageResult contactStage(Particles& p, ContactStore& contacts, double dt, ContactScratch& scratch,
                                const PeriodicShift* shift) {
  // Dormant contacts (from activeEnd on: ContactStore::partition) cannot touch before the collider's
  // next run; they hold no force, no energy and no history and are not visited.
  const std::size_t nc = contacts.activeEnd(), n = p.size();
  const std::size_t nBlocks = (nc + kEnergyBlock - 1) / kEnergyBlock;
  scratch.blocks.assign(nBlocks, ContactStageResult{});
  Contact* items = contacts.items.data();
  const std::size_t realEnd = contacts.realEnd();
#ifdef _OPENMP
  const bool parallel = nc > kParallelThreshold && omp_get_max_threads() > 1;
#else
  const bool parallel = false;
#endif

  if (!parallel) {
    // One thread: each contact is added to its two bodies' sums as soon as it is evaluated. A
    // particle's sum then receives its contacts in increasing contact index starting from zero, the
    // same operations in the same order as the gather below (f - F equals f + (-1) F exactly), so
    // both paths give the same bits.
    scratch.force.assign(n, Vec3::Zero());
    scratch.torque.assign(n, Vec3::Zero());
    const LoadSink sink{scratch.force.data(), scratch.torque.data(), nullptr};
    for (std::size_t b = 0; b < nBlocks; ++b) scratch.blocks[b] = evaluateBlock(p, items, nc, realEnd, b, dt, shift, sink);
    for (std::size_t i = 0; i < n; ++i) {
      p.force[i] += scratch.force[i];
      p.torque[i] += scratch.torque[i];
    }
  } else {
    scratch.loads.resize(nc);
    const LoadSink sink{nullptr, nullptr, scratch.loads.data()};
    // Blocks dealt round-robin: the real contacts, which cost the most, lie in front (partitionReal).
#pragma omp parallel for schedule(static, 1)
    for (std::size_t b = 0; b < nBlocks; ++b) scratch.blocks[b] = evaluateBlock(p, items, nc, realEnd, b, dt, shift, sink);

    // Force gather: each particle sums its own contacts in increasing contact index (from the
    // compact copies: 72 bytes per contact instead of the whole record).
    contacts.updateAdjacency(n);
    const auto& off = contacts.adjOffset();
    const auto& ent = contacts.adjEntry();
#pragma omp parallel for schedule(static) if (n > kParallelThreshold)
    for (std::size_t i = 0; i < n; ++i) {
      Vec3 f = Vec3::Zero(), t = Vec3::Zero();
      // A contact that is not real holds zero force and torques (created so, and zeroed by
      // separate()), so every entry is added without a branch on `real`. The second body
      // receives -force (negation is exact).
      for (std::uint32_t e = off[i]; e < off[i + 1] && (ent[e] >> 1) < nc; ++e) {  // (dormant ones last)
        const ContactLoad& c = scratch.loads[ent[e] >> 1];
        const bool second = (ent[e] & 1u) != 0;
        f += (second ? -1.0 : 1.0) * c.force;
        t += second ? c.torque2 : c.torque1;
      }
      p.force[i] += f;
      p.torque[i] += t;
    }
  }

  ContactStageResult total;
  for (const auto& s : scratch.blocks) {
    total.elastic += s.elastic;
    total.dissipated += s.dissipated;
  }
  return total;
}

}  // namespace dem
