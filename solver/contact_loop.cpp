#include "contact_loop.hpp"

#include "contact_geometry.hpp"
#include "contact_kernel.hpp"
#include "integrator.hpp"
#include "lanes.hpp"
#include "laws.hpp"
#include "stress.hpp"
#include "team.hpp"

#include <algorithm>
#include <array>
#include <bit>
#include <cstring>
#include <limits>

#ifdef _OPENMP
#include <omp.h>
#endif

#if defined(__AVX512BW__) || defined(__AVX__)
#include <immintrin.h>
#endif

namespace dem {

namespace {

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
  void set(std::size_t i, std::size_t j, const V3<double>& x) {
    field[i].v[j] = x.x;
    field[i + 1].v[j] = x.y;
    field[i + 2].v[j] = x.z;
  }
  void set(std::size_t i, std::size_t j, const Vec3& x) { set(i, j, dem::v3(x)); }
  Vec3 vec(std::size_t i, std::size_t j) const { return {field[i].v[j], field[i + 1].v[j], field[i + 2].v[j]}; }
};

// Staged inputs (index of the first component of each field): the shape pair's geometry input (d,
// radii, wall normal, type), x1, v2 - v1, w1, w2; inWasReal = 1 for a contact real at the last step;
// inKernel = 1 for the lanes whose results are stored (real at the last step, or may touch now).
enum In : std::size_t {
  inD = 0,
  inDv = 3,
  inW1 = 6,
  inW2 = 9,
  inX1 = 12,
  inAxis = 15,
  inR1 = 18,
  inR2,
  inType,
  inWasReal,
  inKernel,
  inCount
};

// What the per-body sums and the energy sums read of a batch's results, lane by lane: each field is
// stored from lanes with one vector store and read back per lane with scalar loads.
enum Out : std::size_t {
  outF = 0,
  outT1 = 3,
  outT2 = 6,
  outElastic = 9,
  outSlip,
  outViscous,
  outSpring,
  outReal,
  outCount
};
static_assert(col::t1x == col::fx + 3 && col::t2x == col::fx + 6,
              "force and torques: nine consecutive columns, as outF .. outT2");
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

// The columns of kLanes consecutive contacts from k0 (a multiple of kLanes: aligned vector loads),
// column c at c * stride from one pointer (ContactStore::batch), a column of the results' group
// `shift` columns before (ContactStore::resultsShift: the tiles without the dashpots' group), or
// nowhere (results nullptr: the store keeps no results at this step). Passed
// by value, so that the pointers stay in registers across the stores (no reload after each masked
// store); two pointers and no stride member (it is a constant), so that the call passes them in
// registers: built on the stack, the struct was read back whole while its parts were still being
// stored (a failed store-to-load forward, a third of evaluateBlock's own samples).
struct ColumnBatch {
  double* base;     // ContactStore::batch(k0)
  double* results;  // base - shift * stride, or nullptr
  static constexpr std::size_t stride = ContactStore::stride();
  Lanes load(std::size_t c) const { return Lanes(base + c * stride, stdx::vector_aligned); }
  V3<Lanes> v3(std::size_t c) const { return {load(c), load(c + 1), load(c + 2)}; }
  void store(std::size_t c, const LaneMask& m, const Lanes& x) const {
    where(m, x).copy_to((c >= col::resultsBegin ? results : base) + c * stride, stdx::vector_aligned);
  }
  void store(std::size_t c, const LaneMask& m, const V3<Lanes>& x) const {
    store(c, m, x.x);
    store(c + 1, m, x.y);
    store(c + 2, m, x.z);
  }
};
ColumnBatch columnBatch(ContactStore& cs, std::size_t k0) {
  double* base = cs.batch(k0);
  return {base, cs.resultColumns() ? base - cs.resultsShift() * cs.stride() : nullptr};
}

// Stages contact k in lane j if it goes through the kernel: real at the last step, or its bodies
// may touch now (the shape pair's quick test); returns false otherwise (the lane stays idle).
// facets (or nullptr, a scene without mesh walls): the closest points of the facet contacts and
// those given to the kernel as apart, from the pass before the loop (facet_contacts.hpp).
[[gnu::always_inline]] inline bool stageLane(const Particles& p, const ContactStore& cs, std::size_t k,
                                             const PeriodicShift* shift, const FacetContactScratch* facets,
                                             LaneInputs<inCount>& in, std::size_t j) {
  const std::uint32_t i1 = cs.id1Data()[k], i2 = cs.id2Data()[k];
  const ContactType type = cs.typeData()[k];
  const Eigen::Vector3i cell = cs.cellDist(k);
  const bool facet = type == ContactType::SphereFacet;
  // (a facet's closest point as the pass computed it: secondPoint's function of the same inputs)
  const Vec3 x2 = facet ? facets->points[k] : secondPoint(p, type, i1, i2, cell, shift ? &shift->H : nullptr);
  PairInput<double> pair = pairInput(p, type, i1, i2, x2);
  if (facet && facets->leftOut[k]) pair.d = v3(apartDistance(vec3(pair.d), pair.r1));
  const std::uint8_t wasReal = cs.realData()[k];  // (0 or 1)
  if (!wasReal && !mayTouch(pair, type)) return false;
  in.set(inD, j, pair.d);
  in.set(inAxis, j, pair.axis);
  in.at(inR1, j) = pair.r1;
  in.at(inR2, j) = pair.r2;
  in.at(inType, j) = static_cast<double>(type);
  in.set(inX1, j, p.pos[i1]);
  in.set(inDv, j, secondPointVelocity(p, type, i2, x2, cell, shift) - p.vel[i1]);
  in.set(inW1, j, p.angVel[i1]);
  in.set(inW2, j, p.angVel[i2]);
  in.at(inWasReal, j) = static_cast<double>(wasReal);
  in.at(inKernel, j) = 1.0;
  return true;
}

// A lane the kernel does not use: a valid, separated state (its results are not stored).
inline void stageIdleLane(LaneInputs<inCount>& in, std::size_t j) {
  for (std::size_t i = 0; i < inCount; ++i) in.at(i, j) = 0.0;
  in.at(inD, j) = 3.0;
  in.at(inR1, j) = in.at(inR2, j) = 1.0;
  in.at(inWasReal, j) = 1.0;  // (no formation work for idle lanes)
}

#if defined(__AVX512VL__)
// The 3-vectors a[i[0]], ..., a[i[7]] as lanes of their components (kLanes = 8): each read as four
// doubles with the fourth masked (nothing read past it), the eight transposed in registers. Only
// data moves: the bits of a[i[j]].
[[gnu::always_inline]] inline V3<Lanes> gatherV3(const Vec3* a, const std::uint32_t* i) {
  static_assert(kLanes == 8);
  __m512d z[4];  // lanes j and j + 4: x y z - x y z -
  for (std::size_t j = 0; j < 4; ++j) {
    const __m256d lo = _mm256_maskz_loadu_pd(0x7, a[i[j]].data()), hi = _mm256_maskz_loadu_pd(0x7, a[i[j + 4]].data());
    z[j] = _mm512_insertf64x4(_mm512_castpd256_pd512(lo), hi, 1);
  }
  const __m512d xz01 = _mm512_unpacklo_pd(z[0], z[1]), y01 = _mm512_unpackhi_pd(z[0], z[1]);  // x0 x1 z0 z1 x4 x5 z4 z5
  const __m512d xz23 = _mm512_unpacklo_pd(z[2], z[3]), y23 = _mm512_unpackhi_pd(z[2], z[3]);  // y0 y1 - - y4 y5 - -
  const __m512i first = _mm512_setr_epi64(0, 1, 8, 9, 4, 5, 12, 13),
                second = _mm512_setr_epi64(2, 3, 10, 11, 6, 7, 14, 15);
  return {Lanes(_mm512_permutex2var_pd(xz01, first, xz23)), Lanes(_mm512_permutex2var_pd(y01, first, y23)),
          Lanes(_mm512_permutex2var_pd(xz01, second, xz23))};
}
#elif defined(__AVX__) && !defined(__AVX512F__)
// The same for kLanes = 4 (AVX without AVX-512): each vector read with the fourth double masked,
// the four transposed in registers.
[[gnu::always_inline]] inline V3<Lanes> gatherV3(const Vec3* a, const std::uint32_t* i) {
  static_assert(kLanes == 4);
  const __m256i three = _mm256_setr_epi64x(-1, -1, -1, 0);
  __m256d r[4];  // x y z -
  for (std::size_t j = 0; j < 4; ++j) r[j] = _mm256_maskload_pd(a[i[j]].data(), three);
  const __m256d xz01 = _mm256_unpacklo_pd(r[0], r[1]), y01 = _mm256_unpackhi_pd(r[0], r[1]);  // x0 x1 z0 z1, y0 y1 - -
  const __m256d xz23 = _mm256_unpacklo_pd(r[2], r[3]), y23 = _mm256_unpackhi_pd(r[2], r[3]);
  return {Lanes(_mm256_permute2f128_pd(xz01, xz23, 0x20)), Lanes(_mm256_permute2f128_pd(y01, y23, 0x20)),
          Lanes(_mm256_permute2f128_pd(xz01, xz23, 0x31))};
}
#endif

#if defined(__AVX512VL__) || (defined(__AVX__) && !defined(__AVX512F__))

// stageBatch for a whole batch of sphere-sphere contacts that were all real at the last step (in a
// settled bed nearly every batch): the same inputs as stageLane gives each lane, the bodies' vectors
// read as lanes (gatherV3) and each input stored with one vector store. A contact that sees its
// second body across the cell (a cellDist code other than zero) has its d and v2 - v1 from
// secondPoint and secondPointVelocity, as stageLane. Returns false, staging nothing, for any other
// batch.
inline bool stageSphereBatch(const Particles& p, const ContactStore& cs, std::size_t k0, const PeriodicShift* shift,
                             LaneInputs<inCount>& in) {
  // (the batch's kLanes type and flag bytes at once)
  static_assert(sizeof(ContactType) == 1 && static_cast<int>(ContactType::SphereSphere) == 0 && kLanes <= 8);
  constexpr std::uint64_t allReal = 0x0101010101010101u >> (8 * (8 - kLanes));
  std::uint64_t types = 0, real = 0;
  std::memcpy(&types, cs.typeData() + k0, kLanes);
  std::memcpy(&real, cs.realData() + k0, kLanes);
  if (types != 0 || real != allReal) return false;
  const std::uint32_t* i1 = cs.id1Data() + k0;
  const std::uint32_t* i2 = cs.id2Data() + k0;
  const V3<Lanes> x1 = gatherV3(p.pos.data(), i1), v1 = gatherV3(p.vel.data(), i1);
  const V3<Lanes> d = gatherV3(p.pos.data(), i2) - x1, dv = gatherV3(p.vel.data(), i2) - v1;
  const auto store = [&](std::size_t f, const Lanes& x) __attribute__((always_inline)) {
    x.copy_to(in.field[f].v, stdx::vector_aligned);
  };
  const auto store3 = [&](std::size_t f, const V3<Lanes>& x) __attribute__((always_inline)) {
    store(f, x.x);
    store(f + 1, x.y);
    store(f + 2, x.z);
  };
  store3(inD, d);
  store3(inDv, dv);
  store3(inX1, x1);
  store3(inW1, gatherV3(p.angVel.data(), i1));
  store3(inW2, gatherV3(p.angVel.data(), i2));
  store3(inAxis, V3<Lanes>{Lanes(0.0), Lanes(0.0), Lanes(0.0)});
  store(inR1, Lanes([&](auto j) { return p.radius[i1[j]]; }));
  store(inR2, Lanes([&](auto j) { return p.radius[i2[j]]; }));
  store(inType, Lanes(0.0));
  store(inWasReal, Lanes(1.0));
  store(inKernel, Lanes(1.0));
  if (const std::uint8_t* code = cs.cellCodeData()) {
    for (std::size_t j = 0; j < kLanes; ++j) {
      if (code[k0 + j] == 0) continue;
      const Eigen::Vector3i cell = cs.cellDist(k0 + j);
      const Vec3 x2 = secondPoint(p, ContactType::SphereSphere, i1[j], i2[j], cell, shift ? &shift->H : nullptr);
      in.set(inD, j, x2 - p.pos[i1[j]]);
      in.set(inDv, j, secondPointVelocity(p, ContactType::SphereSphere, i2[j], x2, cell, shift) - p.vel[i1[j]]);
    }
  }
  return true;
}
#else
// (no staging in lanes for this target: every batch lane by lane)
inline bool stageSphereBatch(const Particles&, const ContactStore&, std::size_t, const PeriodicShift*,
                             LaneInputs<inCount>&) {
  return false;
}
#endif

// The kernel's input for a batch (KernelInput's functions): each input loaded from the staged lanes
// or the columns where the kernel uses it.
template <bool Dashpots>
struct BatchInput {
  const LaneInputs<inCount>& in;
  const ColumnBatch cb;
  PairInput<Lanes> pair() const { return {in.v3(inD), in.load(inR1), in.load(inR2), in.v3(inAxis)}; }
  Lanes type() const { return in.load(inType); }
  V3<Lanes> x1() const { return in.v3(inX1); }
  V3<Lanes> dv() const { return in.v3(inDv); }
  V3<Lanes> w1() const { return in.v3(inW1); }
  V3<Lanes> w2() const { return in.v3(inW2); }
  LaneMask wasReal() const { return in.load(inWasReal) != 0.0; }
  Q4<Lanes> frame() const { return {cb.load(col::qw), cb.load(col::qx), cb.load(col::qy), cb.load(col::qz)}; }
  V3<Lanes> phi() const { return cb.v3(col::phix); }
  Lanes uNPrev() const { return cb.load(col::ux); }
  LawState<Lanes> state() const {
    if constexpr (!Dashpots) return {cb.load(col::uy), cb.load(col::uz), Lanes(0.0), Lanes(0.0), Lanes(0.0)};
    return {cb.load(col::uy), cb.load(col::uz), cb.load(col::dampN), cb.load(col::dampY), cb.load(col::dampZ)};
  }
  // (without dashpots the tiles may hold no dashpots' coefficients: zero, as a contact then holds)
  template <class Law>
  typename Law::template Params<Lanes> params() const {
    static_assert(Law::kParams == kMaxLawParams, "the dashpots' coefficients are the last kDashpotParams");
    Lanes values[Law::kParams];
    for (std::size_t i = 0; i < Law::kParams; ++i)
      values[i] = Dashpots || col::param + i < col::dashpotsBegin ? cb.load(col::param + i) : Lanes(0.0);
    return Law::params(values);
  }
};

// The kernel (contact_kernel.hpp) on a batch of kLanes consecutive contacts: every lane computed, the
// results stored into the columns for the kernel lanes (inKernel) where the store keeps them, the
// history (frame, normal) and the point (a result) only where the bodies touch.
template <class Law, bool Dashpots>
[[gnu::noinline]] void kernelBatch(const LaneInputs<inCount>& in, const ColumnBatch cb, double dtScalar,
                                   LaneOutputs& out) {
  contactKernel<Law, Dashpots, Lanes>(
      BatchInput<Dashpots>{in, cb}, Lanes(dtScalar), [&](const KernelOutput<Lanes>& r) __attribute__((always_inline)) {
        const LaneMask kernel = in.load(inKernel) != 0.0, touching = kernel && r.real;
        cb.store(col::qw, touching, r.h.frame.w);
        cb.store(col::qx, touching, r.h.frame.x);
        cb.store(col::qy, touching, r.h.frame.y);
        cb.store(col::qz, touching, r.h.frame.z);
        cb.store(col::ux, kernel, V3<Lanes>{r.uN, r.state.sY, r.state.sZ});
        if constexpr (Law::kRelativeRotation) cb.store(col::phix, kernel, r.h.phi);
        if constexpr (Dashpots) cb.store(col::dampN, kernel, V3<Lanes>{r.state.dN, r.state.dY, r.state.dZ});
        if (cb.results) {
          cb.store(col::px, touching, r.point);
          cb.store(col::fx, kernel, r.force);
          cb.store(col::t1x, kernel, r.torque1);
          cb.store(col::t2x, kernel, r.torque2);
          cb.store(col::elastic, kernel, r.elastic);
          cb.store(col::dissipated, kernel, r.slip);
        }
        out.store(outF, r.force);
        out.store(outT1, r.torque1);
        out.store(outT2, r.torque2);
        out.store(outElastic, r.elastic);
        out.store(outSlip, r.slip);
        if constexpr (Dashpots) out.store(outViscous, r.viscous);
        if constexpr (Law::kSpringTerm) out.store(outSpring, r.spring);
        out.store(outReal, select(r.real, Lanes(1.0), Lanes(0.0)));
      });
}

// Adds a contact's force and torques to the per-particle sums f, t (the one-thread path of the
// contact-index order, stage): particle 1 receives force and torque1, particle 2 -force and torque2
// (f - F equals f + (-1) F exactly: the gather's bits). The nine components are read one by one
// from wherever they lie (no wide load of narrow stores).
template <class Component>
[[gnu::always_inline]] inline void addToBodies(std::uint32_t i1, std::uint32_t i2, Component&& component, Vec3* f,
                                               Vec3* t) {
  for (std::size_t w = 0; w < 3; ++w) {
    const auto e = static_cast<Eigen::Index>(w);
    const double force = component(outF + w);
    f[i1][e] += force;
    f[i2][e] -= force;
    t[i1][e] += component(outT1 + w);
    t[i2][e] += component(outT2 + w);
  }
}

// Contact-index order on several threads without a gather pass: thread t evaluates the t-th of
// `threads` consecutive runs of blocks and adds each contact's force and torques to its bodies at
// once where no contact of an earlier run touches the body (its bit in `before` clear); the rest
// it defers, and they are added after all threads are done, each body's by one thread (deferredOwner),
// thread by thread in contact order. So every body adds its contacts in increasing contact index, as
// one thread does: the same bits. (A contact of an earlier run that turns out not to touch only
// defers more; it changes no sum.)
struct OrderedScatter {
  const std::uint8_t* before;           // byte i: a contact of an earlier run touches body i (none: the first run)
  std::vector<DeferredLoad>* deferred;  // this thread's deferred additions, one list per thread that adds them
  const std::uint32_t* firstBodies;     // each run's first contact's first body (none: no contact)
  std::size_t threads;
  [[gnu::always_inline]] void add(std::uint32_t body, const Vec3& f, const Vec3& t, Vec3* force, Vec3* torque) const {
    if (!before || !before[body]) {
      force[body] += f;
      torque[body] += t;
    } else {
      deferred[deferredOwner(body)].push_back({body, f, t});
    }
  }
  // The thread that adds body's deferred additions: the last whose run's first body is not above
  // it, the thread whose contacts (sorted by their first bodies) mostly read and write that body's
  // lines, so that they stay in its core's cache.
  std::size_t deferredOwner(std::uint32_t body) const {
    std::size_t owner = 0;
    for (std::size_t s = 1; s < threads; ++s)
      if (firstBodies[s] <= body) owner = s;
    return owner;
  }
};

// Where the contact stage puts each evaluated contact's results (stage): added to the bodies at once
// (force, torque: one thread in contact-index order), or copied to `loads` for the per-body gather;
// with `blockSums` (contact-index order) the energies and the stress are summed per block in
// contact order, else (user-id order) they go with the loads and the branch vectors.
struct LoadSink {
  Vec3* force = nullptr;
  Vec3* torque = nullptr;
  OrderedScatter* ordered = nullptr;  // with force: several threads in contact-index order
  ContactLoad* loads = nullptr;
  Vec3* branch = nullptr;  // user-id order with a cell (the contact stress per body)
  bool blockSums = false;
  bool stress = false;  // a periodic cell: the contact stress
};

// A batch: the kLanes consecutive contacts [k0, k0 + kLanes), those before `end`. Those that were
// real at the last step and those whose bodies may touch now go through the kernel together (one per
// lane); the others are apart and hold no force. Their force and torques are then handed to the
// sink, and their energies added to the block's sums, in contact order. Which lanes a contact takes
// part in depends only on that contact, and a lane's bits do not depend on the other lanes: the
// result is the same for any thread count and any batch composition.

// Stages the kernel lanes of the batch at k0 and tells whether there is any; `in` holds valid
// (possibly stale) data in every lane.
inline bool stageBatch(const Particles& p, const ContactStore& cs, std::size_t k0, std::size_t end,
                       const PeriodicShift* shift, const FacetContactScratch* facets, LaneInputs<inCount>& in) {
  const std::size_t n = std::min(kLanes, end - k0);
  if (n == kLanes && stageSphereBatch(p, cs, k0, shift, in)) return true;
  bool any = false;
  for (std::size_t j = 0; j < kLanes; ++j) {
    if (j < n && stageLane(p, cs, k0 + j, shift, facets, in, j)) {
      any = true;
    } else {
      if (j >= n) stageIdleLane(in, j);
      in.at(inKernel, j) = 0.0;
    }
  }
  return any;
}

// The rest of the batch at k0 after the kernel (its results in `out`, kernel lanes in `in`): each
// contact's real flag, and its results to the sink, in contact order.
template <class Law, bool Dashpots>
inline void finishBatch(ContactStore& cs, std::size_t k0, std::size_t end, const LaneInputs<inCount>& in,
                        const LaneOutputs& out, const LoadSink& sink, BlockSums& sums,
                        std::vector<std::uint32_t>& changed, std::vector<BlockSumTerm>* terms) {
  std::uint8_t* real = cs.realData();
  const bool keepsResults = cs.resultColumns();
  const std::size_t n = std::min(kLanes, end - k0);
  for (std::size_t j = 0; j < n; ++j) {
    const std::size_t k = k0 + j;
    if (in.field[inKernel].v[j] == 0.0) {
      // apart, and not real at the last step: no force; the release of a separation was booked then
      if (keepsResults) {
        double& dissipated = cs.at(col::dissipated, k);
        if (dissipated != 0.0) dissipated = 0.0;
      }
      if (sink.loads) sink.loads[k].energies = ContactEnergies{};
      continue;
    }
    const std::uint8_t now = out.f[outReal].v[j] != 0.0;
    if (now != real[k]) {
      changed.push_back(static_cast<std::uint32_t>(k));
      if (!now) cs.resetFrame(k);
    }
    real[k] = now;
    const ContactEnergies e{out.f[outElastic].v[j], out.f[outSlip].v[j], Dashpots ? out.f[outViscous].v[j] : 0.0,
                            Law::kSpringTerm ? out.f[outSpring].v[j] : 0.0};
    if (sink.blockSums) {
      const bool stress = sink.stress && now && cs.typeData()[k] == ContactType::SphereSphere;
      if (terms) {
        terms->push_back({e, out.vec(outF, j), in.vec(inD, j), stress});
      } else {
        sums.e += e;
        if (stress) addContactStress(sums.stress, out.vec(outF, j), in.vec(inD, j));  // l = d = x2 + H k - x1 (staged)
      }
    }
    if (sink.force && sink.ordered) {
      // (f - F equals f + (-F) exactly: the bits of addToBodies)
      if (now) {
        const Vec3 force = out.vec(outF, j);
        sink.ordered->add(cs.id1Data()[k], force, out.vec(outT1, j), sink.force, sink.torque);
        sink.ordered->add(cs.id2Data()[k], -force, out.vec(outT2, j), sink.force, sink.torque);
      }
    } else if (sink.force) {
      const auto lane = [&](std::size_t c) __attribute__((always_inline)) { return out.f[c].v[j]; };
      if (now) addToBodies(cs.id1Data()[k], cs.id2Data()[k], lane, sink.force, sink.torque);
    } else {
      sink.loads[k] = {out.vec(outF, j), out.vec(outT1, j), out.vec(outT2, j), e};
      if (sink.branch) sink.branch[k] = in.vec(inD, j);
    }
  }
}

// How many contacts ahead of the batch being evaluated their bodies are fetched into cache, and how
// many tiles of columns (ContactStore: kColumnPad contacts each) ahead their lines.
constexpr std::size_t kPrefetchAhead = 4 * kLanes;
constexpr std::size_t kTilesAhead = 4;

// Requests the cache lines of the state of bodies i1 and i2 that a contact reads and writes: both
// lines of a 3-vector that straddles two (a quarter of them do; the second line's miss had been a
// fifth of the staging's time at 10^5 spheres).
inline void prefetchBodies(const Particles& p, const LoadSink& sink, std::uint32_t i1, std::uint32_t i2) {
  for (const std::uint32_t i : {i1, i2}) {
    __builtin_prefetch(p.pos[i].data());
    __builtin_prefetch(p.pos[i].data() + 2);
    __builtin_prefetch(p.vel[i].data());
    __builtin_prefetch(p.vel[i].data() + 2);
    __builtin_prefetch(p.angVel[i].data());
    __builtin_prefetch(p.angVel[i].data() + 2);
    if (sink.force) {
      __builtin_prefetch(sink.force[i].data(), 1);
      __builtin_prefetch(sink.force[i].data() + 2, 1);
      __builtin_prefetch(sink.torque[i].data(), 1);
      __builtin_prefetch(sink.torque[i].data() + 2, 1);
    }
  }
}

// Requests the cache lines of the places of bodies i1 and i2 (both lines of a 3-vector that
// straddles two).
inline void prefetchPlaces(const Particles& p, std::uint32_t i1, std::uint32_t i2) {
  for (const std::uint32_t i : {i1, i2}) {
    __builtin_prefetch(p.pos[i].data());
    __builtin_prefetch(p.pos[i].data() + 2);
  }
}

// Evaluates the contacts [begin, end) of one block (begin a multiple of kLanes) into the sink and
// returns their sums (contact order, with sink.blockSums), or, with `terms`, keeps each contact's
// terms of them there instead; `changed` receives the contacts whose real flag changed, in
// increasing index. Batches never straddle blocks (kEnergyBlock is a multiple of kLanes), so they
// are the same for any thread count.
template <class Law, bool Dashpots>
BlockSums evaluateRange(const Particles& p, ContactStore& cs, std::size_t begin, std::size_t end, double dt,
                        const PeriodicShift* shift, const FacetContactScratch* facets, const LoadSink& sink,
                        std::vector<std::uint32_t>& changed, std::vector<BlockSumTerm>* terms = nullptr) {
  changed.clear();
  static_assert(kEnergyBlock % kLanes == 0 && kColumnPad % kLanes == 0);
  // Two staging buffers: the next batch is staged while the kernel's results of this one are still
  // on their way (the kernel is a long chain of square roots and divisions), before its sums.
  LaneInputs<inCount> in[2];
  for (auto& x : in)
    for (std::size_t j = 0; j < kLanes; ++j) stageIdleLane(x, j);
  BlockSums sums;
  const std::uint32_t* id1 = cs.id1Data();
  const std::uint32_t* id2 = cs.id2Data();
  const std::size_t width = cs.width();
  DEM_ASSERT(!Dashpots || cs.dashpotColumns(), "contact stage with dashpots: the store keeps their columns");
  bool any = begin < end && stageBatch(p, cs, begin, end, shift, facets, in[0]);
  for (std::size_t k = begin, s = 0; k < end; k += kLanes, s ^= 1) {
    LaneOutputs out;
    const bool ran = any;
    if (ran) kernelBatch<Law, Dashpots>(in[s], columnBatch(cs, k), dt, out);
    // The bodies of the contacts kPrefetchAhead ahead into cache (their ids are in order in the
    // columns, the bodies anywhere in memory).
    for (std::size_t a = k + kPrefetchAhead; a < std::min(end, k + kPrefetchAhead + kLanes); ++a)
      prefetchBodies(p, sink, id1[a], id2[a]);
    // The columns' tile kTilesAhead tiles ahead, for writing: the kernel stores into every column
    // of each batch it reads (not phi's, unless the law reads it), and its masked stores would
    // otherwise wait for each line to arrive.
    if (k + kTilesAhead * kColumnPad < end) {
      const double* tile = cs.batch(k + kTilesAhead * kColumnPad);
      for (std::size_t c = 0; c < width; ++c)
        if (Law::kRelativeRotation || c < col::phix || c > col::phiz) __builtin_prefetch(tile + c * kColumnPad, 1);
    }
    any = k + kLanes < end && stageBatch(p, cs, k + kLanes, end, shift, facets, in[s ^ 1]);
    finishBatch<Law, Dashpots>(cs, k, end, in[s], out, sink, sums, changed, terms);  // (no kernel lane: `out` not read)
  }
  return sums;
}

// The contacts of block b (of nc).
template <class Law, bool Dashpots>
BlockSums evaluateBlock(const Particles& p, ContactStore& cs, std::size_t nc, std::size_t b, double dt,
                        const PeriodicShift* shift, const FacetContactScratch* facets, const LoadSink& sink,
                        std::vector<std::uint32_t>& changed) {
  return evaluateRange<Law, Dashpots>(p, cs, b * kEnergyBlock, std::min(nc, (b + 1) * kEnergyBlock), dt, shift, facets,
                                      sink, changed);
}

// Bit j of the result for contact j of n <= 64 (flags real[j], gaps at the collider's run gap[j]):
// not real, and the gap does not exceed reach (a NaN gap does not: the contact is tested).
inline std::uint64_t openContacts(const std::uint8_t* real, const float* gap, float reach, std::size_t n) {
#if defined(__AVX512BW__)
  if (n == 64) {  // (64 flags and 4 x 16 gaps at once: the scalar loop below is a fifth of the scan)
    const __m512i flags = _mm512_loadu_si512(real);
    const __m512 limit = _mm512_set1_ps(reach);
    std::uint64_t near = 0;
    for (int part = 0; part < 4; ++part)
      near |= std::uint64_t{_mm512_cmp_ps_mask(_mm512_loadu_ps(gap + 16 * part), limit, _CMP_NGT_UQ)} << (16 * part);
    return _mm512_testn_epi8_mask(flags, flags) & near;
  }
#endif
  std::uint64_t open = 0;
  for (std::size_t j = 0; j < n; ++j) open |= static_cast<std::uint64_t>((real[j] == 0) & !(gap[j] > reach)) << j;
  return open;
}

// Of the open contacts (bits of `open`, 64 from contact k0), those whose gap at the run exceeds twice
// the larger move of their two bodies (squared moves move2, ContactStore::bodyMove2), sphere-sphere
// contacts only: apart. 16 at a time, the larger moves read one by one (two AVX-512 gathers of 16
// took longer here: one thread's contact stage 7-10 us more per step at 10^4); the bound 2 sqrt(m)
// raised by a relative 2^-20, far above the single-precision rounding of the root and the product,
// so that a gap above it exceeds 2 sqrt(m). (Without AVX-512 the loop tests each open contact
// itself.)
inline std::uint64_t apartByMoves(std::uint64_t open, const float* gap, const ContactType* type,
                                  const std::uint32_t* id1, const std::uint32_t* id2, const float* move2) {
  std::uint64_t apart = 0;
#if defined(__AVX512BW__)
  static_assert(static_cast<int>(ContactType::SphereSphere) == 0);
  const __m512 scale = _mm512_set1_ps(2.0f * (1.0f + 0x1p-20f));
  for (int part = 0; part < 4; ++part) {
    if (((open >> (16 * part)) & 0xffffu) == 0) continue;
    alignas(64) float larger[16];
    for (int j = 0; j < 16; ++j) larger[j] = std::max(move2[id1[16 * part + j]], move2[id2[16 * part + j]]);
    const __m512 m = _mm512_load_ps(larger);
    const __m512 bound = _mm512_mul_ps(_mm512_sqrt_ps(m), scale);
    const __mmask16 far = _mm512_cmp_ps_mask(_mm512_loadu_ps(gap + 16 * part), bound, _CMP_GT_OQ);
    const __m128i t = _mm_loadu_si128(reinterpret_cast<const __m128i*>(type + 16 * part));
    const __mmask16 spheres = _mm_testn_epi8_mask(t, t);
    apart |= std::uint64_t{static_cast<std::uint16_t>(far & spheres)} << (16 * part);
  }
#else
  (void)gap, (void)type, (void)id1, (void)id2, (void)move2;
#endif
  return open & apart;
}

// The loop's choice for each active contact after the real ones (visit[k - realEnd()]): real, or
// its bodies may touch now (the shape pair's quick test, as stageLane asks it; a facet contact with
// the triangle's closest point before the facet pass decides which count). A contact whose gap at
// the collider's run exceeds twice the farthest any body has moved since is apart without a test
// (ContactStore::recordRunGaps: its bodies are not read); of the others, a sphere-sphere contact
// whose gap exceeds twice the larger move of its own two bodies (ContactStore::bodyMove2) is apart
// with a test of two floats, without the bodies' places (in a settled bed most bodies hardly move,
// while the farthest move, a rattler's, soon opens every gap).
void chooseVisited(const Particles& p, const ContactStore& cs, const PeriodicShift* shift,
                   std::vector<std::uint8_t>& visit, BalancedRuns& runs,
                   std::vector<std::vector<std::uint32_t>>& nearBy) {
  const std::size_t r = cs.realEnd(), a = cs.activeEnd();  // (realEnd() <= activeEnd())
  visit.resize(a - r);
  const std::uint32_t* id1 = cs.id1Data();
  const std::uint32_t* id2 = cs.id2Data();
  const ContactType* type = cs.typeData();
  const std::uint8_t* real = cs.realData();
  const float* gap = cs.runGapData();
  const float reach = floatAbove(2.0 * cs.moveSinceRun());  // (a float gap above it exceeds 2 move)
  const float* move2 = cs.bodyMove2();                      // each body's squared move since the run, or nullptr
  const Mat3* H = shift ? &shift->H : nullptr;
  const std::size_t count = a - r, words = (count + 63) / 64;
  DEM_ASSERT(a <= 0x7fffffffu, "chooseVisited: a contact's index and a flag in 32 bits");
  // 64 contacts at a time: the flags and the first tests without branches, then the contacts that
  // pass them one by one; those left are tested on their bodies' places after the run's words, their
  // bodies fetched into cache ahead (each place a miss: the contacts lie in no order, and the bodies
  // were last written by whichever core integrated them). Each thread a run of consecutive words,
  // balanced by their times (the contacts to test lie unevenly): a thread reads the bodies of nearly
  // the same contacts at every step, in its own core's cache (words dealt as threads came free moved
  // them between the cores: two threads spent 1.7 times one thread's time here).
#pragma omp parallel if (count > kParallelThreshold)
  {
    const TeamPlace team = teamPlace();
#pragma omp single
    {
      runs.prepare(team.threads);
      nearBy.resize(team.threads);
    }  // (implicit barrier)
    const auto [w0, w1] = runs.run(team.thread, words);
    const BalancedRuns::Timer timer(runs, team.thread);
    std::vector<std::uint32_t>& near = nearBy[team.thread];
    near.clear();
    for (std::size_t w = w0; w < w1; ++w) {
      const std::size_t q0 = 64 * w, q1 = std::min(count, q0 + 64);
      std::uint64_t open = openContacts(real + r + q0, gap + r + q0, reach, q1 - q0);
      if (move2 && q1 - q0 == 64)
        open &= ~apartByMoves(open, gap + r + q0, type + r + q0, id1 + r + q0, id2 + r + q0, move2);
      std::copy_n(real + r + q0, q1 - q0, visit.data() + q0);  // (an open contact is not real: 0 until it may touch)
      for (std::uint64_t o = open; o != 0; o &= o - 1) {
        const std::size_t k = r + q0 + static_cast<std::size_t>(std::countr_zero(o));
        // apart if the gap at the run exceeds twice the larger of the two spheres' moves since
        // (GapAtRun: a lower bound less round-off; the squares compared, both gap and moves positive)
        if (move2 && type[k] == ContactType::SphereSphere) {
          const double g = gap[k];
          if (g > 0.0 && g * g > 4.0 * static_cast<double>(std::max(move2[id1[k]], move2[id2[k]]))) continue;
        }
        near.push_back(static_cast<std::uint32_t>(k));
      }
    }
    constexpr std::size_t ahead = 8;  // contacts whose bodies' places are fetched ahead of the test
    for (std::size_t q = 0; q < std::min(ahead, near.size()); ++q) prefetchPlaces(p, id1[near[q]], id2[near[q]]);
    for (std::size_t q = 0; q < near.size(); ++q) {
      if (q + ahead < near.size()) prefetchPlaces(p, id1[near[q + ahead]], id2[near[q + ahead]]);
      const std::uint32_t k = near[q];
      const Vec3 x2 = secondPoint(p, type[k], id1[k], id2[k], cs.cellDist(k), H);
      // (the answer kept in the entry's top bit, the flags written after: a byte stored between the
      // tests may alias anything, and the bodies' arrays were read anew from `p` after each)
      near[q] = k | std::uint32_t{mayTouch(pairInput(p, type[k], id1[k], id2[k], x2), type[k])} << 31;
    }
    for (const std::uint32_t e : near)
      if (e >> 31) visit[(e & 0x7fffffffu) - r] = 1;
  }
  runs.balance();
}

// ContactStore::gatherVisited with that choice; returns the end of the contacts to visit.
template <class Law>
std::size_t gatherVisited(const Particles& p, const std::vector<Material>& materials, ContactStore& cs,
                          const PeriodicShift* shift, std::vector<std::uint8_t>& visit, BalancedRuns& runs,
                          std::vector<std::vector<std::uint32_t>>& nearBy) {
  cs.coverRunGaps();
  chooseVisited(p, cs, shift, visit, runs, nearBy);
  // (a contact first visited takes the law's parameters of its bodies: the mixing rule)
  return cs.gatherVisited(visit, [&](const ContactPair& c) {
    return Law::mix(pairMaterials(p, materials, c.id1, c.id2, c.type != ContactType::SphereSphere));
  });
}

// Per-body sums of the bodies in slots [b kEnergyBlock, (b + 1) kEnergyBlock): each body adds its
// own visited contacts in the adjacency's order (the order of their partners' user ids, or of the
// contacts' indices). The force of a real contact goes to both bodies (the second receives -force:
// negation is exact); contacts that are not real hold no force and are skipped (adding their zeros
// could turn a force of -0 into +0). With `energies` (user-id order) each contact's energies (and
// with `stress` its stress) go to its first body (scratch.bodies, bodyStress).
void gatherBodies(Particles& p, const ContactStore& contacts, std::size_t nc, ContactScratch& scratch, bool energies,
                  bool stress, std::size_t b) {
  const std::uint32_t* off = contacts.adjOffset().data();
  const std::uint32_t* cnt = contacts.adjCount().data();
  const std::uint32_t* ent = contacts.adjEntry().data();
  const std::uint8_t* real = contacts.realData();
  const ContactType* type = contacts.typeData();
  const std::size_t end = std::min(p.size(), (b + 1) * kEnergyBlock);
  constexpr std::size_t ahead = 4;  // bodies whose contacts' results are fetched into cache ahead
  for (std::size_t i = b * kEnergyBlock; i < end; ++i) {
    if (i + ahead < end)
      for (std::uint32_t a = off[i + ahead]; a < off[i + ahead] + cnt[i + ahead]; ++a) {
        // (every line of the entry: a ContactLoad spans two or three, the energies in the last)
        const char* c = reinterpret_cast<const char*>(&scratch.loads[ent[a] >> 1]);
        static_assert(sizeof(ContactLoad) <= 128, "three prefetches cover an entry");
        __builtin_prefetch(c);
        __builtin_prefetch(c + sizeof(ContactLoad) / 2);
        __builtin_prefetch(c + sizeof(ContactLoad) - 1);
      }
    Vec3 f = p.force[i], t = p.torque[i];
    ContactEnergies e;
    std::array<double, 9> s{};
    for (std::uint32_t a = off[i]; a < off[i] + cnt[i]; ++a) {
      const std::uint32_t k = ent[a] >> 1, second = ent[a] & 1u;
      DEM_ASSERT(k < nc, "gatherBodies: the adjacency lists the visited contacts");
      // (without branches on the side: its contact's energies from entry nc, which holds zeros)
      if (energies) e += scratch.loads[second ? nc : k].energies;
      if (stress) {
        const std::size_t q = !second && real[k] && type[k] == ContactType::SphereSphere ? k : nc;
        addContactStress(s, scratch.loads[q].force, scratch.branch[q]);
      }
      if (!real[k]) continue;
      const ContactLoad& c = scratch.loads[k];
      f += (second ? -1.0 : 1.0) * c.force;
      t += second ? c.torque2 : c.torque1;
    }
    p.force[i] = f;
    p.torque[i] = t;
    if (energies) scratch.bodies[i] = e;
    if (stress) scratch.bodyStress[i] = s;
  }
}

// The bodies' sums of the user ids [b kEnergyBlock, (b + 1) kEnergyBlock), in the order of user ids
// (the same bits for any storage order and thread count).
ContactStageResult sumBodies(const Particles& p, const ContactScratch& scratch, bool stress, std::size_t b) {
  ContactEnergies e;
  std::array<double, 9> s{};
  for (std::size_t u = b * kEnergyBlock; u < std::min(p.size(), (b + 1) * kEnergyBlock); ++u) {
    const std::uint32_t i = p.slotOf[u];
    e += scratch.bodies[i];
    if (stress)
      for (std::size_t q = 0; q < 9; ++q) s[q] += scratch.bodyStress[i][q];
  }
  ContactStageResult r;
  r.elastic = e.elastic;
  r.dissipated = e.slip;
  r.viscous = e.viscous;
  r.spring = e.spring;
  for (int row = 0; row < 3; ++row)
    for (int c = 0; c < 3; ++c) r.stressSum(row, c) = s[static_cast<std::size_t>(3 * row + c)];
  return r;
}

// The energies (and with `stress` the stress) of this rank's bodies, summed exactly and combined over
// the ranks (shared_sums.hpp): the per-body sums of gatherBodies.
ContactStageResult sharedTotals(const Particles& p, const ContactScratch& scratch, bool stress,
                                const SharedSums& shared) {
  const std::array<ExactSum, 13> s = shared.sum<13>(p.size(), [&](std::size_t i, std::array<ExactSum, 13>& sums) {
    const ContactEnergies& e = scratch.bodies[i];
    sums[0] += e.elastic;
    sums[1] += e.slip;
    sums[2] += e.viscous;
    sums[3] += e.spring;
    if (stress)
      for (std::size_t q = 0; q < 9; ++q) sums[4 + q] += scratch.bodyStress[i][q];
  });
  ContactStageResult r;
  r.elastic = s[0].value();
  r.dissipated = s[1].value();
  r.viscous = s[2].value();
  r.spring = s[3].value();
  for (int row = 0; row < 3; ++row)
    for (int c = 0; c < 3; ++c) r.stressSum(row, c) = s[static_cast<std::size_t>(4 + 3 * row + c)].value();
  return r;
}

// The blocks of contacts in contact-index order on the threads of a parallel region, each thread a
// run of consecutive batches (OrderedScatter; BalancedRuns), the energies and the stress summed per
// block. A run may begin inside a block: its first part keeps its contacts' terms of the block's
// sums (and its contacts that changed), which are added after the part before it, after the
// region; so the runs end anywhere (to a batch: with whole blocks, a twentieth of the contacts at
// 10^4 spheres, two threads lost 6 % of the stage's time to the uneven halves) and every block's
// sums are those of one thread.
template <class Law, bool Dashpots>
void evaluateOrdered(Particles& p, ContactStore& cs, std::size_t nc, std::size_t nBlocks, double dt,
                     const PeriodicShift* shift, const FacetContactScratch* facets, ContactScratch& scratch) {
  scratch.blockSums.resize(nBlocks);
  const std::size_t n = p.size(), nBatches = (nc + kLanes - 1) / kLanes;
  const std::uint32_t* id1 = cs.id1Data();
  const std::uint32_t* id2 = cs.id2Data();
  std::vector<std::uint32_t> firstBodies;
#pragma omp parallel
  {
    const TeamPlace team = teamPlace();
    const std::size_t t = team.thread, threads = team.threads;
#pragma omp single
    {
      firstBodies.resize(threads);
      scratch.touched.resize(threads);
      scratch.touchedBefore.resize(threads);
      scratch.deferred.resize(threads * threads);  // (row: the thread that defers; column: the one that adds)
      scratch.runs.prepare(threads);
      scratch.heads.prepare(threads);
    }  // (implicit barrier)
    const auto [q0, q1] = scratch.runs.run(t, nBatches);
    const std::size_t k0 = std::min(nc, q0 * kLanes), k1 = std::min(nc, q1 * kLanes);
    firstBodies[t] = k0 < k1 ? id1[k0] : std::numeric_limits<std::uint32_t>::max();
    // byte i of this thread's map: a contact of its run touches body i (plain stores: bits set contact
    // by contact each waited for the store before it to the same word, 14 us a thread at 10^4 spheres).
    // The last thread's is read by none.
    if (t + 1 < threads) {
      std::vector<std::uint8_t>& mine = scratch.touched[t];
      mine.assign(n, 0);
      for (std::size_t k = k0; k < k1; ++k) {
        mine[id1[k]] = 1;
        mine[id2[k]] = 1;
      }
    }
    std::vector<DeferredLoad>* deferred = scratch.deferred.data() + t * threads;  // (by the thread that adds them)
    for (std::size_t s = 0; s < threads; ++s) deferred[s].clear();
#pragma omp barrier
    // the bodies a run before this thread's touches: none for the first, the first's map for the
    // second, else before[s] = touched[0] | ... | touched[s - 1] (the bodies dealt out)
    if (threads > 2) {
      scratch.touchedBefore[t].resize(n);
#pragma omp barrier
#pragma omp for schedule(static)
      for (std::size_t i = 0; i < n; ++i) {
        std::uint8_t acc = 0;
        for (std::size_t s = 1; s < threads; ++s) {
          acc |= scratch.touched[s - 1][i];
          scratch.touchedBefore[s][i] = acc;
        }
      }  // (implicit barrier)
    }
    const std::uint8_t* before = t == 0   ? nullptr
                                 : t == 1 ? scratch.touched[0].data()
                                          : scratch.touchedBefore[t].data();
    OrderedScatter ordered{before, deferred, firstBodies.data(), threads};
    const LoadSink sink{p.force.data(), p.torque.data(), &ordered, nullptr, nullptr, true, shift != nullptr};
    {
      const BalancedRuns::Timer timer(scratch.runs, t);
      forEachBlockPart(k0, k1, kEnergyBlock, [&](std::size_t a, std::size_t end, std::size_t b, bool head) {
        if (!head) {
          scratch.blockSums[b] =
              evaluateRange<Law, Dashpots>(p, cs, a, end, dt, shift, facets, sink, scratch.changed[b]);
          return;
        }
        ContactScratch::Head& kept = scratch.heads.keep(t, b, a);
        kept.terms.clear();
        evaluateRange<Law, Dashpots>(p, cs, a, end, dt, shift, facets, sink, kept.changed, &kept.terms);
      });
    }
#pragma omp barrier
    // the deferred additions of this thread's bodies, thread by thread in contact order
    for (std::size_t s = 0; s < threads; ++s)
      for (const DeferredLoad& x : scratch.deferred[s * threads + t]) {
        p.force[x.body] += x.force;
        p.torque[x.body] += x.torque;
      }
  }
  scratch.runs.balance();
  // the runs' heads after the blocks' first contacts, in contact order
  scratch.heads.replay([&](std::size_t b, std::size_t, const ContactScratch::Head& kept) {
    BlockSums& sums = scratch.blockSums[b];
    for (const BlockSumTerm& x : kept.terms) {
      sums.e += x.e;
      if (x.stress) addContactStress(sums.stress, x.force, x.branch);
    }
    scratch.changed[b].insert(scratch.changed[b].end(), kept.changed.begin(), kept.changed.end());
  });
}

template <class Law, bool Dashpots>
ContactStageResult stage(Particles& p, const std::vector<Material>& materials, ContactStore& contacts, double dt,
                         ContactScratch& scratch, const PeriodicShift* shift, bool byUser, const SharedSums* shared) {
  // Dormant contacts (from activeEnd on: ContactStore::partition) cannot touch before the collider's
  // next run; they hold no force, no energy and no history and are not visited. Of the others, the
  // real ones and those whose bodies may touch now are gathered in front (with their columns) and
  // visited; the rest are apart and hold defaults: the loop would leave their lanes idle.
  const std::size_t nc = gatherVisited<Law>(p, materials, contacts, shift, scratch.visit, scratch.visitRuns,
                                            scratch.nearBy),
                    n = p.size();
  const std::size_t nBlocks = (nc + kEnergyBlock - 1) / kEnergyBlock;
  // mesh walls: which facet contacts count, histories moved across shared edges
  const bool facets = !p.facets.empty();
  const bool facetChanges =
      facets && resolveFacetContacts(p, contacts, nc, scratch.facets, shift ? &shift->H : nullptr);
  const FacetContactScratch* facetScratch = facets ? &scratch.facets : nullptr;
  if (scratch.changed.size() < nBlocks) scratch.changed.resize(nBlocks);
#ifdef _OPENMP
  const bool parallel = nc > kParallelThreshold && omp_get_max_threads() > 1;
#else
  const bool parallel = false;
#endif
  ContactStageResult total;
  if (!byUser && parallel) {
    evaluateOrdered<Law, Dashpots>(p, contacts, nc, nBlocks, dt, shift, facetScratch, scratch);
  } else if (!byUser) {
    // Contact-index order, one thread: each contact is added to its two bodies' forces and torques as
    // soon as it is evaluated, and its energies to the block's sums (evaluateOrdered adds them in
    // the same order on several threads: the same bits).
    const LoadSink sink{p.force.data(), p.torque.data(), nullptr, nullptr, nullptr, true, shift != nullptr};
    scratch.blockSums.resize(nBlocks);
    for (std::size_t b = 0; b < nBlocks; ++b)
      scratch.blockSums[b] =
          evaluateBlock<Law, Dashpots>(p, contacts, nc, b, dt, shift, facetScratch, sink, scratch.changed[b]);
  } else {
    // User-id order: the loads of the visited contacts, then the per-body gather.
    // one more entry (nc) of zeros, read in place of the contacts that add nothing (gatherBodies)
    scratch.loads.resize(nc + 1);
    scratch.loads[nc] = ContactLoad{Vec3::Zero(), Vec3::Zero(), Vec3::Zero(), ContactEnergies{}};
    const bool stress = shift != nullptr;
    if (stress) {
      scratch.branch.resize(nc + 1);
      scratch.branch[nc] = Vec3::Zero();
    }
    const LoadSink sink{nullptr, nullptr, nullptr, scratch.loads.data(), stress ? scratch.branch.data() : nullptr,
                        false,   false};
    scratch.blockSums.resize(nBlocks);
    // Each thread a contiguous run of blocks, balanced by their times (BalancedRuns): the contacts
    // follow their first bodies, so a thread reads mostly its own run's bodies and the gather below
    // mostly its own loads. (Blocks dealt round-robin had both threads read every body, each body's
    // lines moved between the cores at every step: with the two virtual cores on different dies,
    // 240 ns a line, two threads ran the 10^4 bed barely faster than one.)
#pragma omp parallel if (parallel)
    {
      const TeamPlace team = teamPlace();
#pragma omp single
      scratch.runs.prepare(team.threads);  // (implicit barrier)
      const auto [b0, b1] = scratch.runs.run(team.thread, nBlocks);
      const BalancedRuns::Timer timer(scratch.runs, team.thread);
      for (std::size_t b = b0; b < b1; ++b)
        scratch.blockSums[b] =
            evaluateBlock<Law, Dashpots>(p, contacts, nc, b, dt, shift, facetScratch, sink, scratch.changed[b]);
    }
    scratch.runs.balance();

    // Per-body sums (gatherBodies) with the energies, summed over the bodies in the order of user ids
    // (sumBodies): at each block's end while every body is in the slot of its user id, else after
    // all blocks.
    contacts.updateAdjacency(p, nc, true);
    const std::size_t nBodyBlocks = (n + kEnergyBlock - 1) / kEnergyBlock;
    scratch.bodies.resize(n);
    if (stress) scratch.bodyStress.resize(n);
    scratch.blocks.assign(nBodyBlocks, ContactStageResult{});
#pragma omp parallel for schedule(static) if (n > kParallelThreshold)
    for (std::size_t b = 0; b < nBodyBlocks; ++b) {
      gatherBodies(p, contacts, nc, scratch, true, stress, b);
      if (p.userOrder && !shared) scratch.blocks[b] = sumBodies(p, scratch, stress, b);  // (slots = user ids: now)
    }
    if (shared) {
      scratch.blocks.assign(1, sharedTotals(p, scratch, stress, *shared));
    } else if (!p.userOrder) {
#pragma omp parallel for schedule(static) if (n > kParallelThreshold)
      for (std::size_t b = 0; b < nBodyBlocks; ++b) scratch.blocks[b] = sumBodies(p, scratch, stress, b);
    }
  }
  if (!byUser) {  // the blocks' sums in contact order
    scratch.blocks.assign(nBlocks, ContactStageResult{});
    for (std::size_t b = 0; b < nBlocks; ++b) {
      const BlockSums& x = scratch.blockSums[b];
      ContactStageResult& r = scratch.blocks[b];
      r.elastic = x.e.elastic;
      r.dissipated = x.e.slip;
      r.viscous = x.e.viscous;
      r.spring = x.e.spring;
      for (int row = 0; row < 3; ++row)
        for (int c = 0; c < 3; ++c) r.stressSum(row, c) = x.stress[static_cast<std::size_t>(3 * row + c)];
    }
  }

  // the contacts that formed or separated, for the next gathering (ContactStore::gatherReal)
  total.realChanged = facetChanges;
  for (std::size_t b = 0; b < nBlocks; ++b) {
    total.realChanged = total.realChanged || !scratch.changed[b].empty();
    for (const std::uint32_t k : scratch.changed[b]) contacts.noteRealChanged(k);
  }
  for (const ContactStageResult& s : scratch.blocks) {
    total.elastic += s.elastic;
    total.dissipated += s.dissipated;
    total.viscous += s.viscous;
    total.spring += s.spring;
    total.stressSum += s.stressSum;
  }
  return total;
}

}  // namespace

ContactStageResult contactStage(Particles& p, const std::vector<Material>& materials, ContactStore& contacts, double dt,
                                ContactScratch& scratch, ContactLaw law, const PeriodicShift* shift, bool dashpots,
                                SumOrder order, const SharedSums* shared) {
  // the law chosen once for the stage (laws.hpp), never per contact
  const bool byUser = order == SumOrder::UserIds;
  DEM_ASSERT(!shared || byUser, "contactStage: shared sums need the per-body sums of the user-id order");
  if (dashpots) contacts.useDashpotColumns(true);  // (their coefficients and forces are read and written)
  return withLaw(law, [&](auto l) {
    return dashpots ? stage<decltype(l), true>(p, materials, contacts, dt, scratch, shift, byUser, shared)
                    : stage<decltype(l), false>(p, materials, contacts, dt, scratch, shift, byUser, shared);
  });
}

}  // namespace dem
