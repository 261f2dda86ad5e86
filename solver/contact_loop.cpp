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

// Particle 2 (id2) of a contact with cell distance k: its position and mid-step velocity as they
// enter the contact (its periodic image if any).
inline Vec3 secondPosition(const Particles& p, std::uint32_t id2, const Eigen::Vector3i& k, const PeriodicShift* shift) {
  if (shift && !k.isZero()) return p.pos[id2] + shift->H * k.cast<double>();
  return p.pos[id2];
}
inline Vec3 secondVelocity(const Particles& p, std::uint32_t id2, const Eigen::Vector3i& k, const PeriodicShift* shift) {
  if (shift && !k.isZero()) return p.vel[id2] + shift->vel * k.cast<double>();
  return p.vel[id2];
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
  const Vec3 x2 = secondPosition(p, i2, c.cellDist, shift);
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
  s.v2 = secondVelocity(p, i2, c.cellDist, shift);
  s.w1 = p.angVel[i1];
  s.w2 = p.angVel[i2];
  const bool isNew = c.real == 0;
  const double uPrevY = isNew ? 0.0 : c.u[1], uPrevZ = isNew ? 0.0 : c.u[2];
  c.real = 1;
  const ContactGeom g = isNew ? formContact(s, c, dt) : updateContact(s, c, dt);
  storeResult(c, g, cundallLaw(c.phys, g.u, uPrevY, uPrevZ));
}

// Body inputs of a batch, field by field: each lane's fields are written with scalar stores and each
// field is read as lanes with one vector load. The batch is staged a whole kernel before it is read
// (evaluateBlock), so the stores have reached the cache by then (a wide load of recent narrow stores
// would wait for them). The contacts' own fields are read from the store's columns.
template <std::size_t N>
struct LaneInputs {
  struct alignas(64) Field {
    double v[kLanes];
  };
  Field field[N];
  double& at(std::size_t i, std::size_t j) { return field[i].v[j]; }
  Lanes load(std::size_t i) const { return Lanes(field[i].v, stdx::vector_aligned); }
  V3<Lanes> v3(std::size_t i) const { return {load(i), load(i + 1), load(i + 2)}; }
  void set(std::size_t i, std::size_t j, const Vec3& x) {
    for (std::size_t w = 0; w < 3; ++w) field[i + w].v[j] = x[static_cast<Eigen::Index>(w)];
  }
};

// Staged inputs (index of the first component of each field). Sphere-wall lanes (inWall = 1) bring
// their normal and u_N (sphereWallPair) in inWallN, inWallUN; inKernel = 1 marks the lanes whose
// contact was real at the last step (the others' results are not stored).
enum In : std::size_t { inD = 0, inDv = 3, inW1 = 6, inW2 = 9, inX1 = 12, inR1 = 15, inR2, inWall, inWallN, inWallUN = inWallN + 3,
                        inKernel, inCount };

// What the per-body sums and the energy sums read of a batch's results, lane by lane: each field is
// stored from lanes with one vector store and read back per lane with scalar loads.
enum Out : std::size_t { outF = 0, outT1 = 3, outT2 = 6, outElastic = 9, outDissipated, outReal, outCount };
static_assert(col::t1x == col::fx + 3 && col::t2x == col::fx + 6, "force and torques: nine consecutive columns, as outF .. outT2");
struct LaneOutputs {
  struct alignas(64) Field {
    double v[kLanes];
  };
  Field f[outCount];
  void store(std::size_t i, const Lanes& x) { x.copy_to(f[i].v, stdx::vector_aligned); }
  void store(std::size_t i, const V3<Lanes>& x) {
    store(i, x.x);
    store(i + 1, x.y);
    store(i + 2, x.z);
  }
  Vec3 vec(std::size_t i, std::size_t j) const { return {f[i].v[j], f[i + 1].v[j], f[i + 2].v[j]}; }
};

// The columns of kLanes consecutive contacts from k0 (a multiple of kLanes: aligned vector loads).
struct ColumnBatch {
  double* const* col;  // ContactStore::column(c) for every c
  std::size_t k0;
  Lanes load(std::size_t c) const { return Lanes(col[c] + k0, stdx::vector_aligned); }
  V3<Lanes> v3(std::size_t c) const { return {load(c), load(c + 1), load(c + 2)}; }
  void store(std::size_t c, const LaneMask& m, const Lanes& x) const { where(m, x).copy_to(col[c] + k0, stdx::vector_aligned); }
  void store(std::size_t c, const LaneMask& m, const V3<Lanes>& x) const {
    store(c, m, x.x);
    store(c + 1, m, x.y);
    store(c + 2, m, x.z);
  }
};

// Stages the bodies' inputs of contact k (ids, type and cell distance from the store) in lane j.
[[gnu::always_inline]] inline void stageLane(const Particles& p, const ContactStore& cs, std::size_t k, const PeriodicShift* shift,
                                             LaneInputs<inCount>& in, std::size_t j) {
  const std::uint32_t i1 = cs.id1Data()[k], i2 = cs.id2Data()[k];
  Vec3 x2 = secondPosition(p, i2, cs.cellDistData()[k], shift);
  const Vec3 v2 = secondVelocity(p, i2, cs.cellDistData()[k], shift);
  const bool wall = cs.typeData()[k] == ContactType::SphereWall;
  in.at(inWall, j) = wall ? 1.0 : 0.0;
  if (wall) {
    const SpherePair s = sphereWallPair(p.pos[i1], p.radius[i1], x2, p.walls[p.shapeIndex[i2]].normal);
    in.set(inWallN, j, s.n);
    in.at(inWallUN, j) = s.uN;
    x2 = s.x2;  // the equivalent sphere (radius 0) at the projection
  }
  in.set(inX1, j, p.pos[i1]);
  in.set(inD, j, x2 - p.pos[i1]);
  in.set(inDv, j, v2 - p.vel[i1]);
  in.set(inW1, j, p.angVel[i1]);
  in.set(inW2, j, p.angVel[i2]);
  in.at(inR1, j) = p.radius[i1];
  in.at(inR2, j) = p.radius[i2];
  in.at(inKernel, j) = 1.0;
}

// A lane the kernel does not use: a valid, separated state (its results are not stored).
inline void stageIdleLane(LaneInputs<inCount>& in, std::size_t j) {
  for (std::size_t i = 0; i < inCount; ++i) in.at(i, j) = 0.0;
  in.at(inD, j) = 3.0;
  in.at(inR1, j) = in.at(inR2, j) = 1.0;
}

// The kernel on a batch of kLanes consecutive contacts: the directly computed n and u_N
// (sphere-sphere from the centres, sphere-wall as staged), history update, Cundall law, force to
// global axes and torques; every lane computed, the results stored into the columns for the lanes
// that were real at the last step (inKernel). Those whose bodies no longer overlap separate as in
// separate(): no force, u and phi zero, the shear spring's energy released as slip.
inline void realContactBatch(const LaneInputs<inCount>& in, const ColumnBatch& cb, double dtScalar, LaneOutputs& out) {
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
  ContactHistory<Lanes> h{{cb.load(col::qw), cb.load(col::qx), cb.load(col::qy), cb.load(col::qz)},
                          cb.v3(col::nx), cb.load(col::uy), cb.load(col::uz), cb.v3(col::phix)};
  const Lanes uPrevY = h.uY, uPrevZ = h.uZ;
  const Lanes kn = cb.load(col::kn);
  // separate(): the release of the shear spring, |F_T|^2/(2 ks) = elastic - kn u_N^2 / 2 at the last step
  const Lanes uPrevN = cb.load(col::ux);
  const Lanes shearPrev = cb.load(col::elastic) - 0.5 * kn * uPrevN * uPrevN;
  updateHistory(m, h, dt);
  const CundallOut<Lanes> r = cundall(kn, cb.load(col::ks), cb.load(col::tanPhi), m.uN, h.uY, h.uZ, uPrevY, uPrevZ);
  const V3<Lanes> force = localToGlobal(h.frame, r.fN, r.fY, r.fZ);
  const V3<Lanes> nxF = cross(m.n, force);
  // real: as in evaluate(), the sphere-sphere quick exit's test and u_N < 0
  const LaneMask realNow = (wall || dist2 < rs * rs) && m.uN < 0.0;
  const LaneMask kernel = in.load(inKernel) != 0.0, touching = kernel && realNow;
  const Lanes zero(0.0);
  const auto ifReal = [&](const V3<Lanes>& x) { return V3<Lanes>{select(realNow, x.x, zero), select(realNow, x.y, zero),
                                                                   select(realNow, x.z, zero)}; };
  cb.store(col::qw, touching, h.frame.w);
  cb.store(col::qx, touching, h.frame.x);
  cb.store(col::qy, touching, h.frame.y);
  cb.store(col::qz, touching, h.frame.z);
  cb.store(col::nx, touching, m.n);
  cb.store(col::px, touching, in.v3(inX1) + V3<Lanes>{m.a1 * m.n.x, m.a1 * m.n.y, m.a1 * m.n.z});  // c = x1 + a1 n
  cb.store(col::ux, kernel, ifReal({m.uN, r.uY, r.uZ}));
  cb.store(col::phix, kernel, ifReal(h.phi));
  const V3<Lanes> f = ifReal(force), t1 = ifReal(m.a1 * nxF), t2 = ifReal(m.a2 * nxF);
  const Lanes elastic = select(realNow, r.elastic, zero);
  const Lanes dissipated = select(realNow, r.dissipated, select(shearPrev > 0.0, shearPrev, zero));  // max(0, shear)
  cb.store(col::fx, kernel, f);
  cb.store(col::t1x, kernel, t1);
  cb.store(col::t2x, kernel, t2);
  cb.store(col::elastic, kernel, elastic);
  cb.store(col::dissipated, kernel, dissipated);
  out.store(outF, f);
  out.store(outT1, t1);
  out.store(outT2, t2);
  out.store(outElastic, elastic);
  out.store(outDissipated, dissipated);
  out.store(outReal, select(realNow, Lanes(1.0), zero));
}

// Contact k, not real at the last step: evaluate() on it as a value, read from and written back to
// the store only when its bodies may overlap (the quick tests of evaluate(): most such contacts
// stay apart, and only their `dissipated` may need zeroing).
inline void evaluateOther(const Particles& p, ContactStore& cs, std::size_t k, double dt, const PeriodicShift* shift) {
  const std::uint32_t i1 = cs.id1Data()[k], i2 = cs.id2Data()[k];
  const Vec3 x2 = secondPosition(p, i2, cs.cellDistData()[k], shift);
  bool mayTouch;
  if (cs.typeData()[k] == ContactType::SphereSphere) {
    const double rs = p.radius[i1] + p.radius[i2];
    mayTouch = (x2 - p.pos[i1]).squaredNorm() < rs * rs;
  } else {
    mayTouch = sphereWallPair(p.pos[i1], p.radius[i1], x2, p.walls[p.shapeIndex[i2]].normal).uN < 0.0;
  }
  if (mayTouch) {
    Contact c = cs.get(k);
    evaluate(p, c, dt, shift);
    cs.set(k, c);
  } else {
    double& dissipated = cs.column(col::dissipated)[k];
    if (dissipated != 0.0) dissipated = 0.0;  // apart(): the separation's release was booked last step
  }
}

// Adds a contact's force and torques to the per-particle sums f, t (the serial path of
// contactStage): particle 1 receives force and torque1, particle 2 -force and torque2. The nine
// components are read one by one from wherever they lie (no wide load of narrow stores).
template <class Component>
[[gnu::always_inline]] inline void addToBodies(std::uint32_t i1, std::uint32_t i2, Component&& component, Vec3* f, Vec3* t) {
  for (std::size_t w = 0; w < 3; ++w) {
    const auto e = static_cast<Eigen::Index>(w);
    const double force = component(col::fx + w);
    f[i1][e] += force;
    f[i2][e] -= force;
    t[i1][e] += component(col::t1x + w);
    t[i2][e] += component(col::t2x + w);
  }
}

// Where the contact stage puts each evaluated contact's force and torques: added to the bodies' sums
// (one thread: force, torque non-null), or copied to a compact array for the gather (loads).
struct LoadSink {
  Vec3* force = nullptr;
  Vec3* torque = nullptr;
  ContactLoad* loads = nullptr;
};

// A batch: the kLanes consecutive contacts [k0, k0 + kLanes), those before `end`. The ones that
// were real at the last step go through the kernel together (contact_kernel.hpp, one per lane), the
// others (new contacts, potential contacts that are not real) through evaluateOther(). Their force
// and torques are then handed to the sink, and their energies added to the block's sums, in contact
// order. Which path a contact takes depends only on that contact, and a lane's bits do not depend on
// the other lanes: the result is the same for any thread count and any batch composition.

// Stages the kernel lanes of the batch at k0 and tells whether there is any; `in` holds valid
// (possibly stale) data in every lane.
inline bool stageBatch(const Particles& p, const ContactStore& cs, std::size_t k0, std::size_t end, const PeriodicShift* shift,
                       LaneInputs<inCount>& in) {
  const std::uint8_t* real = cs.realData();
  const std::size_t n = std::min(kLanes, end - k0);
  bool any = false;
  for (std::size_t j = 0; j < kLanes; ++j) {
    if (j < n && real[k0 + j]) {
      stageLane(p, cs, k0 + j, shift, in, j);
      any = true;
    } else {
      if (j >= n) stageIdleLane(in, j);
      in.at(inKernel, j) = 0.0;
    }
  }
  return any;
}

// The rest of the batch at k0 after the kernel (its results in `out`): the other contacts, the sink
// and the energy sums, in contact order.
inline void finishBatch(const Particles& p, ContactStore& cs, double* const* cols, std::size_t k0, std::size_t end, double dt,
                        const PeriodicShift* shift, const LaneOutputs& out, const LoadSink& sink, ContactStageResult& sums) {
  std::uint8_t* real = cs.realData();
  const std::size_t n = std::min(kLanes, end - k0);
  const double* elastic = cols[col::elastic];
  const double* dissipated = cols[col::dissipated];
  for (std::size_t j = 0; j < n; ++j) {
    const std::size_t k = k0 + j;
    const std::uint32_t i1 = cs.id1Data()[k], i2 = cs.id2Data()[k];
    if (real[k]) {  // (real at the last step: a kernel lane)
      real[k] = out.f[outReal].v[j] != 0.0;
      sums.elastic += out.f[outElastic].v[j];
      sums.dissipated += out.f[outDissipated].v[j];
      // the kernel's results: col::fx .. col::t2z are outF .. outT2 + 2
      const auto lane = [&](std::size_t c) __attribute__((always_inline)) { return out.f[c - col::fx + outF].v[j]; };
      if (sink.force) {
        if (real[k]) addToBodies(i1, i2, lane, sink.force, sink.torque);
      } else {
        sink.loads[k] = {out.vec(outF, j), out.vec(outT1, j), out.vec(outT2, j)};
      }
    } else {
      evaluateOther(p, cs, k, dt, shift);
      sums.elastic += elastic[k];
      sums.dissipated += dissipated[k];
      const auto stored = [&](std::size_t c) __attribute__((always_inline)) { return cols[c][k]; };
      if (sink.force) {
        if (real[k]) addToBodies(i1, i2, stored, sink.force, sink.torque);
      } else {
        sink.loads[k] = {cs.vec(col::fx, k), cs.vec(col::t1x, k), cs.vec(col::t2x, k)};
      }
    }
    // (A contact that is not real holds zero force and torques: it is skipped.)
  }
}

// How many contacts ahead of the batch being evaluated their bodies are fetched into cache.
constexpr std::size_t kPrefetchAhead = 4 * kLanes;

// Requests the cache lines of the state of bodies i1 and i2 that a contact reads and writes.
inline void prefetchBodies(const Particles& p, const LoadSink& sink, std::uint32_t i1, std::uint32_t i2) {
  for (const std::uint32_t i : {i1, i2}) {
    __builtin_prefetch(p.pos[i].data());
    __builtin_prefetch(p.vel[i].data());
    __builtin_prefetch(p.angVel[i].data());
    if (sink.force) {
      __builtin_prefetch(sink.force[i].data(), 1);
      __builtin_prefetch(sink.torque[i].data(), 1);
    }
  }
}

// Evaluates the contacts of block b (of nc) and returns their energy sums (in contact order).
// Batches never straddle blocks (kEnergyBlock is a multiple of kLanes), so they are the same for
// any thread count.
inline ContactStageResult evaluateBlock(const Particles& p, ContactStore& cs, double* const* cols, std::size_t nc,
                                        std::size_t b, double dt, const PeriodicShift* shift, const LoadSink& sink) {
  static_assert(kEnergyBlock % kLanes == 0 && kColumnPad % kLanes == 0);
  // Two staging buffers: the next batch is staged while the kernel's results of this one are still
  // on their way (the kernel is a long chain of square roots and divisions), before its sums.
  LaneInputs<inCount> in[2];
  for (auto& x : in)
    for (std::size_t j = 0; j < kLanes; ++j) stageIdleLane(x, j);
  ContactStageResult sums;
  const std::size_t begin = b * kEnergyBlock, end = std::min(nc, (b + 1) * kEnergyBlock);
  const std::uint32_t* id1 = cs.id1Data();
  const std::uint32_t* id2 = cs.id2Data();
  bool any = begin < end && stageBatch(p, cs, begin, end, shift, in[0]);
  for (std::size_t k = begin, s = 0; k < end; k += kLanes, s ^= 1) {
    LaneOutputs out;
    if (any) realContactBatch(in[s], ColumnBatch{cols, k}, dt, out);
    // The bodies of the contacts kPrefetchAhead ahead into cache (their ids are in order in the
    // columns, the bodies anywhere in memory).
    for (std::size_t a = k + kPrefetchAhead; a < std::min(end, k + kPrefetchAhead + kLanes); ++a)
      prefetchBodies(p, sink, id1[a], id2[a]);
    any = k + kLanes < end && stageBatch(p, cs, k + kLanes, end, shift, in[s ^ 1]);
    finishBatch(p, cs, cols, k, end, dt, shift, out, sink, sums);
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
  double* cols[col::count];
  for (std::size_t c = 0; c < col::count; ++c) cols[c] = contacts.column(c);
#ifdef _OPENMP
  const bool parallel = nc > kParallelThreshold && omp_get_max_threads() > 1;
#else
  const bool parallel = false;
#endif

  if (!parallel) {
    // One thread: each contact is added to its two bodies' forces and torques as soon as it is
    // evaluated. A particle's force then receives its contacts in increasing contact index, starting
    // from the force it had before the stage: the same operations in the same order as the gather
    // below (f - F equals f + (-1) F exactly), so both paths give the same bits.
    const LoadSink sink{p.force.data(), p.torque.data(), nullptr};
    for (std::size_t b = 0; b < nBlocks; ++b) scratch.blocks[b] = evaluateBlock(p, contacts, cols, nc, b, dt, shift, sink);
  } else {
    scratch.loads.resize(nc);
    const LoadSink sink{nullptr, nullptr, scratch.loads.data()};
    // Blocks dealt round-robin: the real contacts, which cost the most, lie in front (partitionReal).
#pragma omp parallel for schedule(static, 1)
    for (std::size_t b = 0; b < nBlocks; ++b) scratch.blocks[b] = evaluateBlock(p, contacts, cols, nc, b, dt, shift, sink);

    // Force gather: each particle adds its own real contacts in increasing contact index (from the
    // compact copies: 72 bytes per contact instead of the columns), as the one-thread path does.
    contacts.updateAdjacency(n);
    const auto& off = contacts.adjOffset();
    const auto& ent = contacts.adjEntry();
    const std::uint8_t* real = contacts.realData();
#pragma omp parallel for schedule(static) if (n > kParallelThreshold)
    for (std::size_t i = 0; i < n; ++i) {
      Vec3 f = p.force[i], t = p.torque[i];
      // The second body receives -force (negation is exact). Contacts that are not real are skipped
      // as in the one-thread path (adding their zeros could turn a force of -0 into +0).
      for (std::uint32_t e = off[i]; e < off[i + 1] && (ent[e] >> 1) < nc; ++e) {  // (dormant ones last)
        if (!real[ent[e] >> 1]) continue;
        const ContactLoad& c = scratch.loads[ent[e] >> 1];
        const bool second = (ent[e] & 1u) != 0;
        f += (second ? -1.0 : 1.0) * c.force;
        t += second ? c.torque2 : c.torque1;
      }
      p.force[i] = f;
      p.torque[i] = t;
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
