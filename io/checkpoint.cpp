#include "checkpoint.hpp"

#include "atomic_file.hpp"
#include "buffered_file.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cmath>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <limits>
#include <numeric>
#include <span>
#include <type_traits>

namespace dem::io {

namespace {

constexpr char kMagic[8] = {'D', 'E', 'M', 'C', 'K', 'P', 'T', '\0'};

std::uint64_t fnv1a(const char* data, std::size_t n) { return fnv1a64(std::string_view(data, n)); }

// Appends to `out`, or streams into `file` when set, or with `counting` only counts the bytes it
// would append (checkpointBytes sizes its buffer with a counting pass: a growing string would hold
// two copies at once).
class Writer {
 public:
  std::string out;
  BufferedFile* file = nullptr;
  bool counting = false;
  std::size_t counted = 0;
  void bytes(const char* data, std::size_t n) {
    if (counting) counted += n;
    else if (file) file->write(data, n);
    else out.append(data, n);
  }
  template <class T>
  void pod(const T& v) {
    static_assert(std::is_arithmetic_v<T>);
    bytes(reinterpret_cast<const char*>(&v), sizeof v);
  }
  void vec(const Vec3& v) {
    for (int k = 0; k < 3; ++k) pod(v[k]);
  }
  void quat(const Quat& q) {
    pod(q.w());
    pod(q.x());
    pod(q.y());
    pod(q.z());
  }
  void size(std::size_t n) { pod(static_cast<std::uint64_t>(n)); }
  void mat(const Mat3& m) {
    for (int r = 0; r < 3; ++r)
      for (int c = 0; c < 3; ++c) pod(m(r, c));
  }
  template <class T>
  void podArray(const std::vector<T>& a) {
    size(a.size());
    for (const T& v : a) pod(v);
  }
  void vecArray(std::span<const Vec3> a) {
    size(a.size());
    for (const Vec3& v : a) vec(v);
  }
  void quatArray(const std::vector<Quat>& a) {
    size(a.size());
    for (const Quat& q : a) quat(q);
  }
};

class Reader {
 public:
  Reader(const std::string& bytes, std::size_t end, std::string name) : b_(bytes), end_(end), name_(std::move(name)) {}
  [[noreturn]] void fail(const std::string& what) const {
    throw CheckpointError(name_ + ": " + what + " (at byte " + std::to_string(pos_) + ")");
  }
  template <class T>
  T pod() {
    static_assert(std::is_arithmetic_v<T>);
    if (end_ - pos_ < sizeof(T)) fail("unexpected end of data");
    T v;
    std::memcpy(&v, b_.data() + pos_, sizeof v);
    pos_ += sizeof v;
    return v;
  }
  double finite(const char* what) {
    const double v = pod<double>();
    if (!std::isfinite(v)) fail(std::string("non-finite ") + what);
    return v;
  }
  Vec3 vec() {
    Vec3 v;
    for (int k = 0; k < 3; ++k) v[k] = pod<double>();
    return v;
  }
  Mat3 mat() {
    Mat3 m;
    for (int r = 0; r < 3; ++r)
      for (int c = 0; c < 3; ++c) m(r, c) = pod<double>();
    return m;
  }
  Quat quat() {
    const double w = pod<double>(), x = pod<double>(), y = pod<double>(), z = pod<double>();
    return Quat(w, x, y, z);
  }
  // A count of items of at least `itemBytes` each, bounded by the bytes left.
  std::size_t size(std::size_t itemBytes) {
    const auto n = pod<std::uint64_t>();
    if (itemBytes > 0 && n > (end_ - pos_) / itemBytes) fail("count " + std::to_string(n) + " exceeds the data");
    return static_cast<std::size_t>(n);
  }
  template <class T>
  std::vector<T> podArray() {
    std::vector<T> a(size(sizeof(T)));
    for (T& v : a) v = pod<T>();
    return a;
  }
  std::vector<Vec3> vecArray() {
    std::vector<Vec3> a(size(24));
    for (Vec3& v : a) v = vec();
    return a;
  }
  std::vector<Quat> quatArray() {
    std::vector<Quat> a(size(32));
    for (Quat& q : a) q = quat();
    return a;
  }
  bool done() const { return pos_ == end_; }

 private:
  const std::string& b_;
  std::size_t end_, pos_ = 0;
  std::string name_;
};

void writeParticles(Writer& w, const Particles& p) {
  w.vecArray(p.pos);
  w.vecArray(p.vel);
  w.vecArray(p.angVel);
  // (every body's entry, as the integrator keeps it: the same bytes whether angMom is kept or empty)
  w.size(p.size());
  for (std::size_t i = 0; i < p.size(); ++i) w.vec(p.angMomOf(i));
  w.vecArray(p.force);
  w.vecArray(p.torque);
  w.quatArray(p.ori);
  w.podArray(p.mass);
  w.podArray(p.radius);
  w.vecArray(p.inertia);
  w.podArray(p.material);
  w.podArray(p.blocked);
  w.podArray(p.velMidstep);
  w.size(p.shape.size());
  for (const Shape s : p.shape) w.pod(static_cast<std::uint8_t>(s));
  w.podArray(p.shapeIndex);
  w.size(p.walls.size());
  for (const Wall& wall : p.walls) {
    w.vec(wall.normal);
    w.pod(static_cast<std::int32_t>(wall.axis));
  }
  // version 8: facets and meshes
  w.size(p.facets.size());
  for (const Facet& f : p.facets) {
    for (int k = 0; k < 3; ++k) {
      w.vec(f.v[k]);
      w.vec(f.v0[k]);
      w.pod(f.vertex[k]);
    }
    w.pod(f.mesh);
  }
  w.size(p.meshes.size());
  for (const Mesh& m : p.meshes) {
    w.pod(m.first);
    w.pod(m.count);
    w.pod(m.vertices);
    w.vec(m.motion.centre);
    w.vec(m.motion.vel);
    w.vec(m.motion.angVel);
    w.pod(m.motion.time0);
    w.size(m.name.size());
    for (const char ch : m.name) w.pod(ch);
  }
  w.podArray(p.clump);
  w.podArray(p.isClump);
  w.podArray(p.userId);  // version 11: the user id of the body in each slot
}

Particles readParticles(Reader& r, std::uint32_t version) {
  Particles p;
  p.pos = r.vecArray();
  p.vel = r.vecArray();
  p.angVel = r.vecArray();
  p.angMom = r.vecArray();
  p.force = r.vecArray();
  p.torque = r.vecArray();
  p.ori = r.quatArray();
  p.mass = r.podArray<double>();
  p.radius = r.podArray<double>();
  p.inertia = r.vecArray();
  p.material = r.podArray<std::uint32_t>();
  p.blocked = r.podArray<std::uint8_t>();
  p.velMidstep = r.podArray<std::uint8_t>();
  p.shape.resize(r.size(1));
  for (Shape& s : p.shape) {
    const auto v = r.pod<std::uint8_t>();
    if (v > 2) r.fail("unknown shape tag " + std::to_string(v));
    s = static_cast<Shape>(v);
  }
  p.shapeIndex = r.podArray<std::uint32_t>();
  p.walls.resize(r.size(28));
  for (Wall& wall : p.walls) {
    wall.normal = r.vec();
    wall.axis = r.pod<std::int32_t>();
    if (wall.axis < -1 || wall.axis > 2) r.fail("wall axis out of range");
  }
  if (version >= 8) {
    p.facets.resize(r.size(3 * 52 + 4));
    for (Facet& f : p.facets) {
      for (int k = 0; k < 3; ++k) {
        f.v[k] = r.vec();
        f.v0[k] = r.vec();
        f.vertex[k] = r.pod<std::uint32_t>();
      }
      f.mesh = r.pod<std::uint32_t>();
    }
    p.meshes.resize(r.size(12 + 72 + 8 + 8));
    for (Mesh& m : p.meshes) {
      m.first = r.pod<std::uint32_t>();
      m.count = r.pod<std::uint32_t>();
      m.vertices = r.pod<std::uint32_t>();
      m.motion.centre = r.vec();
      m.motion.vel = r.vec();
      m.motion.angVel = r.vec();
      m.motion.time0 = r.pod<double>();
      m.name.resize(r.size(1));
      for (char& ch : m.name) ch = r.pod<char>();
    }
    for (const Facet& f : p.facets)
      if (f.mesh >= p.meshes.size()) r.fail("facet's mesh index out of range");
  }
  p.clump = r.podArray<std::int64_t>();
  p.isClump = r.podArray<std::uint8_t>();
  const std::size_t n = p.pos.size();
  for (const std::size_t m :
       {p.vel.size(), p.angVel.size(), p.angMom.size(), p.force.size(), p.torque.size(), p.ori.size(), p.mass.size(),
        p.radius.size(), p.inertia.size(), p.material.size(), p.blocked.size(), p.velMidstep.size(), p.shape.size(),
        p.shapeIndex.size(), p.clump.size(), p.isClump.size()})
    if (m != n) r.fail("particle arrays of different lengths");
  if (n > std::numeric_limits<std::uint32_t>::max() / 2) r.fail("too many particles");
  for (std::size_t i = 0; i < n; ++i) {
    if (p.shape[i] == Shape::Wall && p.shapeIndex[i] >= p.walls.size()) r.fail("wall index out of range");
    if (p.shape[i] == Shape::Facet && p.shapeIndex[i] >= p.facets.size()) r.fail("facet index out of range");
    if (p.clump[i] != kNoClump && (p.clump[i] < 0 || static_cast<std::size_t>(p.clump[i]) >= n ||
                                   !p.isClump[static_cast<std::size_t>(p.clump[i])]))
      r.fail("clump id of particle " + std::to_string(i) + " out of range");
  }
  // the angular momenta kept only where some body needs them (Particles::angMom): stored again as
  // the scene stores them, an aspherical body's and any L other than I w (setAngMom)
  std::vector<Vec3> L;
  L.swap(p.angMom);
  for (std::size_t i = 0; i < n; ++i) p.setAngMom(i, L[i]);
  if (version >= 11) {
    p.userId = r.podArray<std::uint32_t>();
    if (p.userId.size() != n) r.fail("user ids of another length than the particle arrays");
  } else {  // (earlier versions: every body in the slot of its user id)
    p.userId.resize(n);
    std::iota(p.userId.begin(), p.userId.end(), std::uint32_t{0});
  }
  // a permutation of 0..n-1 that moves movable bodies only, to the slots of movable bodies
  p.slotOf.assign(n, std::numeric_limits<std::uint32_t>::max());
  p.userOrder = true;
  for (std::size_t i = 0; i < n; ++i) {
    const std::uint32_t u = p.userId[i];
    if (u >= n || p.slotOf[u] != std::numeric_limits<std::uint32_t>::max())
      r.fail("user id " + std::to_string(u) + " of slot " + std::to_string(i) + " out of range or repeated");
    if (u != i && !(p.movable(i) && p.movable(u)))
      r.fail("user id " + std::to_string(u) + " of slot " + std::to_string(i) +
             ": only spheres outside clumps move to other slots");
    p.slotOf[u] = static_cast<std::uint32_t>(i);
    p.userOrder = p.userOrder && u == i;
  }
  return p;
}

// +0.0 (not -0.0, which compares equal)
bool positiveZero(double x) { return x == 0.0 && !std::signbit(x); }
bool positiveZero(const Vec3& v) { return positiveZero(v.x()) && positiveZero(v.y()) && positiveZero(v.z()); }

// A contact that is not real and holds the defaults of a Contact in every field but its pair, law
// parameters, `dissipated` and cellDist (version 7: written as those alone).
bool compactContact(const Contact& c) {
  const Quat id = Quat::Identity();
  return !c.real && positiveZero(c.elastic) && c.frame.w() == id.w() && !std::signbit(c.frame.w()) &&
         positiveZero(c.frame.x()) && positiveZero(c.frame.y()) && positiveZero(c.frame.z()) &&
         positiveZero(c.normal) && positiveZero(c.point) && positiveZero(c.u) && positiveZero(c.phi) &&
         positiveZero(c.force) && positiveZero(c.torque1) && positiveZero(c.torque2) && positiveZero(c.damp);
}

// The form byte of a contact record (version 9; version 7-8: 0 or 1): which fields follow.
namespace form {
enum : std::uint8_t {
  compact = 1,       // compactContact: no history (version 7)
  mixed = 2,         // the law parameters are those of the mixing rule for its bodies (makeContact): omitted
  noDissipated = 4,  // `dissipated` is +0.0: omitted
  smallCell = 8,     // cellDist as three int8 (each within [-127, 127]) instead of three int32
  all = 15
};
}

std::uint8_t contactForm(const Contact& c, const Particles& p, const std::vector<Material>& materials, ContactLaw law) {
  std::uint8_t f = 0;
  if (compactContact(c)) f |= form::compact;
  if (unmixed(c.params)) {
    f |= form::mixed;  // (no parameters stored: the mixing rule's are taken when the contact loop visits it)
  } else {
    const LawValues mixed = makeContact(p, materials, c.id1, c.id2, law).params;
    if (std::memcmp(mixed.data(), c.params.data(), sizeof mixed) == 0) f |= form::mixed;
  }
  if (positiveZero(c.dissipated)) f |= form::noDissipated;
  if (c.cellDist.cwiseAbs().maxCoeff() <= 127) f |= form::smallCell;
  return f;
}

// Version 12: whether the store keeps the contacts' results at this step (ContactStore::useResultColumns);
// where it keeps none, the records hold a default Contact's results and the scene read back keeps
// none either (reading them throws until a step keeps them again, as in the scene written).
void writeContacts(Writer& w, const Scene& s) {
  const ContactStore& cs = s.contacts;
  const bool results = cs.resultColumns();
  w.pod(static_cast<std::uint8_t>(results));
  w.size(cs.size());
  for (std::size_t m = 0; m < cs.size(); ++m) {
    const Contact c = cs.getWithoutResults(m);  // (with its results where the store keeps them)
    w.pod(c.id1);
    w.pod(c.id2);
    w.pod(static_cast<std::uint8_t>(c.type));
    w.pod(c.real);
    const std::uint8_t f = contactForm(c, s.particles, s.materials, s.law);
    w.pod(f);
    if (!(f & form::mixed))
      for (const double v : c.params) w.pod(v);
    if (!(f & form::compact)) {
      w.quat(c.frame);
      for (const Vec3* v : {&c.normal, &c.point, &c.u, &c.phi, &c.force, &c.torque1, &c.torque2, &c.damp}) w.vec(*v);
      w.pod(c.elastic);
    }
    if (!(f & form::noDissipated)) w.pod(c.dissipated);
    for (int k = 0; k < 3; ++k) {
      if (f & form::smallCell) w.pod(static_cast<std::int8_t>(c.cellDist[k]));
      else w.pod(static_cast<std::int32_t>(c.cellDist[k]));
    }
  }
}

void readContacts(Reader& r, Scene& s, std::uint32_t version) {
  ContactStore& cs = s.contacts;
  const Particles& p = s.particles;
  // version 3: the law's kMaxLawParams parameters (versions 1-2: Cundall's kn, ks, tan phi) and the
  // dashpot force; version 7: compact records (the smallest: ids, type, real, form, parameters,
  // dissipated, cellDist); version 9: the form's flags (the smallest: ids, type, real, form, cellDist)
  const std::size_t nParams = version >= 3 ? kMaxLawParams : 3;
  const std::uint8_t results = version >= 12 ? r.pod<std::uint8_t>() : 1;
  if (results > 1) r.fail("bad contacts' results flag");
  const std::size_t n = r.size(version >= 9   ? 8 + 3 + 3
                               : version >= 7 ? 8 + 3 + 8 * nParams + 8 + 12
                                              : 8 + 2 + 8 * nParams + 32 + 7 * 24 + (version >= 3 ? 24 : 0) + 16 +
                                                    (version >= 2 ? 12 : 0));
  cs.clear();
  cs.reserve(n);
  for (std::size_t k = 0; k < n; ++k) {
    Contact c;
    c.id1 = r.pod<std::uint32_t>();
    c.id2 = r.pod<std::uint32_t>();
    const auto type = r.pod<std::uint8_t>();
    if (type > 2) r.fail("unknown contact type");
    c.type = static_cast<ContactType>(type);
    c.real = r.pod<std::uint8_t>();
    if (c.id1 >= p.size() || c.id2 >= p.size() || c.id1 == c.id2) r.fail("contact ids out of range");
    if ((c.type == ContactType::SphereWall) != (p.isWall(c.id1) || p.isWall(c.id2)) ||
        (c.type == ContactType::SphereFacet) != (p.isFacet(c.id1) || p.isFacet(c.id2)))
      r.fail("contact type does not match its bodies");
    // (the ids' order of makeContact, which the shape-pair table and the contact loop assume: two
    // spheres by user id)
    if (c.type == ContactType::SphereSphere ? !p.userBefore(c.id1, c.id2) : p.isBoundary(c.id1))
      r.fail("contact ids out of order");
    if (cs.find(c.id1, c.id2) >= 0) r.fail("repeated contact");
    std::uint8_t f = 0;
    if (version >= 7) {
      f = r.pod<std::uint8_t>();
      if (f > (version >= 9 ? form::all : form::compact) || ((f & form::compact) && c.real))
        r.fail("bad contact record form");
    }
    if (f & form::mixed) c.params = makeContact(p, s.materials, c.id1, c.id2, s.law).params;
    else
      for (std::size_t i = 0; i < nParams; ++i) c.params[i] = r.pod<double>();
    if (!(f & form::compact)) {
      c.frame = r.quat();
      for (Vec3* v : {&c.normal, &c.point, &c.u, &c.phi, &c.force, &c.torque1, &c.torque2}) *v = r.vec();
      if (version >= 3) c.damp = r.vec();
      c.elastic = r.pod<double>();
    }
    if (!(f & form::noDissipated)) c.dissipated = r.pod<double>();
    if (version >= 2)
      for (int w = 0; w < 3; ++w) c.cellDist[w] = f & form::smallCell ? r.pod<std::int8_t>() : r.pod<std::int32_t>();
    cs.add(c);
  }
  cs.useResultColumns(results != 0);
}

void writeClumps(Writer& w, const Clumps& clumps) {
  w.size(clumps.list.size());
  for (const Clump& c : clumps.list) {
    w.size(c.body);
    w.size(c.members.size());
    for (const std::size_t m : c.members) w.size(m);
    w.vecArray(c.relPos);
    w.quatArray(c.relOri);
  }
}

void readClumps(Reader& r, Clumps& clumps, const Particles& p) {
  clumps.list.resize(r.size(32));
  for (Clump& c : clumps.list) {
    c.body = r.size(0);
    if (c.body >= p.size() || !p.isClump[c.body]) r.fail("clump body id out of range");
    c.members.resize(r.size(8));
    for (std::size_t& m : c.members) {
      m = r.size(0);
      if (m >= p.size() || p.clump[m] != static_cast<std::int64_t>(c.body)) r.fail("clump member id out of range");
    }
    c.relPos = r.vecArray();
    c.relOri = r.quatArray();
    if (c.relPos.size() != c.members.size() || c.relOri.size() != c.members.size())
      r.fail("clump member arrays of different lengths");
  }
}

void writeCollider(Writer& w, const Collider& col) {
  w.pod(col.verletDist);
  const Collider::StateView s = col.view();
  w.pod(static_cast<std::uint8_t>(s.initialised));
  w.pod(s.dL);
  w.pod(s.runs);
  for (const auto& list : s.lists) {
    w.size(list.size());
    for (const Collider::Bound& b : list) {
      w.pod(b.coord);
      w.pod(b.tag);
    }
  }
  w.vecArray(s.lo);
  w.vecArray(s.hi);
  w.vecArray(s.refPos);
  w.vecArray(s.refVertices);  // version 8
}

void readCollider(Reader& r, Collider& col, std::size_t nParticles, std::uint32_t version) {
  col.verletDist = r.finite("verletDist");
  Collider::State s;
  s.initialised = r.pod<std::uint8_t>() != 0;
  s.dL = r.pod<double>();
  s.runs = r.pod<std::uint64_t>();
  for (auto& list : s.lists) {
    list.resize(r.size(12));
    for (Collider::Bound& b : list) {
      b.coord = r.pod<double>();
      b.tag = r.pod<std::uint32_t>();
    }
  }
  s.lo = r.vecArray();
  s.hi = r.vecArray();
  s.refPos = r.vecArray();
  if (version >= 8) s.refVertices = r.vecArray();
  try {
    col.restore(std::move(s), nParticles);
  } catch (const std::invalid_argument& e) {
    r.fail(e.what());
  }
}

void writeLedger(Writer& w, const EnergyLedger& e) {
  for (const double v : {e.kinetic, e.rotational, e.gravity, e.elastic, e.dampingDissipated, e.frictionDissipated,
                         e.time, e.dampingPending})
    w.pod(v);
  w.pod(e.step);
}

EnergyLedger readLedger(Reader& r) {
  EnergyLedger e;
  for (double* v : {&e.kinetic, &e.rotational, &e.gravity, &e.elastic, &e.dampingDissipated, &e.frictionDissipated,
                    &e.time, &e.dampingPending})
    *v = r.pod<double>();
  e.step = r.pod<std::uint64_t>();
  return e;
}

// Version 2: the terms of a deforming cell's ledger; version 3: the dashpots' work; version 4: the
// shear springs' stiffness-change term; version 10: the boundary work and its pending half.
void writeLedgerCell(Writer& w, const EnergyLedger& e) {
  w.pod(e.cellWork);
  w.pod(e.kineticTotal);
  w.pod(e.viscousDissipated);
  w.pod(e.springDissipated);
  w.pod(e.boundaryWork);
  w.pod(e.boundaryPending);
}

void readLedgerCell(Reader& r, EnergyLedger& e, std::uint32_t version) {
  e.cellWork = r.pod<double>();
  e.kineticTotal = r.pod<double>();
  if (version >= 3) e.viscousDissipated = r.pod<double>();
  if (version >= 4) e.springDissipated = r.pod<double>();
  if (version >= 10) {
    e.boundaryWork = r.pod<double>();
    e.boundaryPending = r.pod<double>();
  }
}

// Version 2: the automatic timestep and the cell-work trapezoid's previous stress sum.
// Version 11: the spatial order's state.
void writeCarried(Writer& w, const Scene::CarriedState& c) {
  w.pod(c.dtSafety);
  w.pod(c.dtInterval);
  w.pod(c.dtNext);
  w.mat(c.prevStressSum);
  w.pod(static_cast<std::uint8_t>(c.renumberDue));
  w.pod(static_cast<std::uint8_t>(c.measureOrdered));
  w.pod(c.orderedShare);
  w.pod(c.renumberings);
}

void readCarried(Reader& r, Scene& s, std::uint32_t version) {
  Scene::CarriedState c;
  c.dtSafety = r.pod<double>();
  c.dtInterval = r.pod<std::uint64_t>();
  c.dtNext = r.pod<std::uint64_t>();
  c.prevStressSum = r.mat();
  if (version >= 11) {
    c.renumberDue = r.pod<std::uint8_t>() != 0;
    c.measureOrdered = r.pod<std::uint8_t>() != 0;
    c.orderedShare = r.pod<double>();
    c.renumberings = r.pod<std::uint64_t>();
    if (!(c.orderedShare >= 0.0 && c.orderedShare <= 1.0)) r.fail("spatial order share out of [0, 1]");
  }
  try {
    s.setCarriedState(c);
  } catch (const std::invalid_argument& e) {
    r.fail(e.what());
  }
}

// Version 2: the periodic cell (flag, then every matrix of Cell::State), the stress and the
// periodic collider's complete state.
void writeCell(Writer& w, const Scene& s) {
  w.pod(static_cast<std::uint8_t>(s.cell.has_value()));
  if (!s.cell) return;
  const Cell::State c = s.cell->state();
  for (const Mat3* m : {&c.h, &c.hPrev, &c.invH, &c.h0, &c.invH0, &c.t, &c.lPrev, &c.lNext}) w.mat(*m);
  w.pod(static_cast<std::uint8_t>(c.homoDeform));
  w.pod(static_cast<std::uint8_t>(c.flipFlippable));
  w.mat(s.stress);
}

void readCell(Reader& r, Scene& s) {
  const auto has = r.pod<std::uint8_t>();
  if (has > 1) r.fail("bad cell flag");
  if (!has) return;
  Cell::State c;
  for (Mat3* m : {&c.h, &c.hPrev, &c.invH, &c.h0, &c.invH0, &c.t, &c.lPrev, &c.lNext}) *m = r.mat();
  c.homoDeform = r.pod<std::uint8_t>() != 0;
  c.flipFlippable = r.pod<std::uint8_t>() != 0;
  try {
    s.cell = Cell::fromState(c);
  } catch (const std::invalid_argument& e) {
    r.fail(e.what());
  }
  s.stress = r.mat();
}

void writePeriodicCollider(Writer& w, const PeriodicCollider& col) {
  w.pod(col.verletDist);
  const PeriodicCollider::StateView s = col.view();
  w.pod(static_cast<std::uint8_t>(s.initialised));
  w.size(s.s.size());  // bodies
  w.pod(s.dL);
  w.pod(s.runs);
  w.pod(s.fullRuns);
  for (int axis = 0; axis < 3; ++axis) {
    w.size(s.lo[axis]);
    w.size(s.lists[axis].size());
    for (const PeriodicCollider::Bound& b : s.lists[axis]) {
      w.pod(b.coord);
      w.pod(b.period);
      w.pod(b.tag);
    }
  }
  w.vecArray(s.s);
  w.vecArray(s.half);
  w.pod(static_cast<std::uint8_t>(s.hRunValid));  // version 6
  w.mat(s.hRun);
}

void readPeriodicCollider(Reader& r, PeriodicCollider& col, std::size_t nParticles, std::uint32_t version) {
  col.verletDist = r.finite("periodic verletDist");
  PeriodicCollider::State s;
  s.initialised = r.pod<std::uint8_t>() != 0;
  r.size(0);  // bodies: restore() checks the boxes and lists against the scene
  s.dL = r.pod<double>();
  s.runs = r.pod<std::uint64_t>();
  s.fullRuns = r.pod<std::uint64_t>();
  for (int axis = 0; axis < 3; ++axis) {
    s.lo[axis] = r.size(0);
    s.lists[axis].resize(r.size(16));
    for (PeriodicCollider::Bound& b : s.lists[axis]) {
      b.coord = r.pod<double>();
      b.period = r.pod<std::int32_t>();
      b.tag = r.pod<std::uint32_t>();
    }
  }
  s.s = r.vecArray();
  s.half = r.vecArray();
  if (version >= 6) {
    s.hRunValid = r.pod<std::uint8_t>() != 0;
    s.hRun = r.mat();
  }
  try {
    col.restore(std::move(s), nParticles);
  } catch (const std::invalid_argument& e) {
    r.fail(e.what());
  }
}

// Version 4: the output files' state.
void writeOutputs(Writer& w, const OutputState& o) {
  w.size(o.files.size());
  for (const OutputRecord& f : o.files) {
    w.pod(static_cast<std::uint8_t>(f.kind));
    w.size(f.file.size());
    w.bytes(f.file.data(), f.file.size());
    w.pod(f.offset);
    w.pod(f.checksum);
    w.pod(static_cast<std::uint8_t>(f.hasSnapshot));
    w.pod(f.lastStep);
  }
}

OutputState readOutputs(Reader& r) {
  OutputState o;
  o.files.resize(r.size(8 + 8 + 8 + 1 + 8 + 1));
  for (OutputRecord& f : o.files) {
    const auto kind = r.pod<std::uint8_t>();
    if (kind > 1) r.fail("unknown output file kind");
    f.kind = static_cast<OutputRecord::Kind>(kind);
    f.file.resize(r.size(1));
    for (char& c : f.file) c = r.pod<char>();
    if (f.file.empty() || f.file.find('/') != std::string::npos || f.file.find('\0') != std::string::npos)
      r.fail("bad output file name");
    f.offset = r.pod<std::uint64_t>();
    f.checksum = r.pod<std::uint64_t>();
    const auto has = r.pod<std::uint8_t>();
    if (has > 1) r.fail("bad output snapshot flag");
    f.hasSnapshot = has != 0;
    f.lastStep = r.pod<std::uint64_t>();
  }
  return o;
}

}  // namespace

const OutputRecord* OutputState::find(const std::string& file) const {
  for (const OutputRecord& f : files)
    if (f.file == file) return &f;
  return nullptr;
}

std::string checkpointBytes(const Scene& s, const OutputState& outputs) {
  std::string bytes;
  checkpointBytes(s, outputs, bytes);
  sealCheckpoint(bytes);
  return bytes;
}

void sealCheckpoint(std::string& bytes) {
  const std::uint64_t sum = fnv1a(bytes.data(), bytes.size());
  bytes.append(reinterpret_cast<const char*>(&sum), sizeof sum);
}

namespace {

void writeState(Writer& w, const Scene& s, const OutputState& outputs) {
  w.bytes(kMagic, sizeof kMagic);
  w.pod(kCheckpointVersion);
  w.pod(s.time);
  w.pod(s.stepCount);
  w.pod(s.dt());
  w.pod(s.damping());
  w.pod(static_cast<std::uint8_t>(s.adjVel0()));
  w.pod(static_cast<std::uint8_t>(s.rotationAlgorithm()));
  w.vec(s.gravity);
  w.pod(static_cast<std::uint8_t>(s.law));
  w.pod(static_cast<std::uint8_t>(s.dampGravity()));  // version 5
  w.size(s.materials.size());
  for (const Material& m : s.materials)
    for (const double v : {m.density, m.young, m.ksRatio, m.frictionAngle, m.poisson, m.restitution}) w.pod(v);
  writeParticles(w, s.particles);
  writeClumps(w, s.clumps);
  writeLedger(w, s.energy);
  writeContacts(w, s);
  writeCollider(w, s.collider);
  writeLedgerCell(w, s.energy);
  writeCarried(w, s.carriedState());
  writeCell(w, s);
  writePeriodicCollider(w, s.periodicCollider);
  writeOutputs(w, outputs);
}

}  // namespace

void checkpointBytes(const Scene& s, const OutputState& outputs, std::string& bytes) {
  Writer w;
  w.counting = true;  // the size first: the buffer is allocated once, at its final size (+ the seal)
  writeState(w, s, outputs);
  w.out = std::move(bytes);
  w.out.clear();                                                    // (the capacity stays)
  if (w.out.capacity() < w.counted + 8) std::string().swap(w.out);  // (not the old buffer and a new one at once)
  w.out.reserve(w.counted + 8);
  w.counting = false;
  writeState(w, s, outputs);
  bytes = std::move(w.out);
}

Scene sceneFromCheckpointBytes(const std::string& bytes, const std::string& name, CheckpointInfo* info) {
  if (bytes.size() < sizeof kMagic + 4 + 8 || std::memcmp(bytes.data(), kMagic, sizeof kMagic) != 0)
    throw CheckpointError(name + ": not a dem checkpoint file (bad magic)");
  std::uint32_t version;
  std::memcpy(&version, bytes.data() + sizeof kMagic, sizeof version);
  if (version < 1 || version > kCheckpointVersion)
    throw CheckpointError(name + ": checkpoint format version " + std::to_string(version) +
                          " is not supported (this build reads versions 1 to " + std::to_string(kCheckpointVersion) +
                          ")");
  const std::size_t end = bytes.size() - 8;
  std::uint64_t sum;
  std::memcpy(&sum, bytes.data() + end, sizeof sum);
  if (sum != fnv1a(bytes.data(), end))
    throw CheckpointError(name + ": checksum mismatch (truncated or corrupted file)");

  Reader r(bytes, end, name);
  for (std::size_t k = 0; k < sizeof kMagic; ++k) r.pod<char>();
  r.pod<std::uint32_t>();
  Scene s;
  s.time = r.finite("time");
  s.stepCount = r.pod<std::uint64_t>();
  try {
    s.setDt(r.pod<double>());
    s.setDamping(r.pod<double>());
  } catch (const std::invalid_argument& e) {
    r.fail(e.what());
  }
  s.setAdjVel0(r.pod<std::uint8_t>() != 0);
  const auto rot = r.pod<std::uint8_t>();
  if (rot > static_cast<std::uint8_t>(RotationAlgorithm::Spiral)) r.fail("unknown rotation algorithm");
  s.setRotationAlgorithm(static_cast<RotationAlgorithm>(rot));
  s.gravity = r.vec();
  if (version >= 3) {
    const auto law = r.pod<std::uint8_t>();
    if (law > static_cast<std::uint8_t>(ContactLaw::HertzMindlin)) r.fail("unknown contact law");
    s.law = static_cast<ContactLaw>(law);
  }
  if (version >= 5) s.setDampGravity(r.pod<std::uint8_t>() != 0);  // earlier versions: damped gravity
  s.materials.resize(r.size(version >= 3 ? 48 : 32));
  for (Material& m : s.materials) {
    for (double* v : {&m.density, &m.young, &m.ksRatio, &m.frictionAngle}) *v = r.pod<double>();
    if (version >= 3)
      for (double* v : {&m.poisson, &m.restitution}) *v = r.pod<double>();
  }
  try {
    for (std::size_t k = 0; k < s.materials.size(); ++k) validateMaterial(k, s.materials[k]);
  } catch (const std::invalid_argument& e) {
    r.fail(e.what());
  }
  s.particles = readParticles(r, version);
  for (std::size_t i = 0; i < s.particles.size(); ++i)
    if (s.particles.size() > 1 && s.particles.material[i] >= s.materials.size()) r.fail("material index out of range");
  readClumps(r, s.clumps, s.particles);
  s.particles.assertInvariants();
  s.energy = readLedger(r);
  readContacts(r, s, version);
  readCollider(r, s.collider, s.particles.size(), version);
  if (version >= 2) {
    readLedgerCell(r, s.energy, version);
    readCarried(r, s, version);
    readCell(r, s);
    readPeriodicCollider(r, s.periodicCollider, s.particles.size(), version);
  }
  std::optional<OutputState> outputs;
  if (version >= 4) outputs = readOutputs(r);
  if (!r.done()) r.fail("trailing data");
  if (info) *info = CheckpointInfo{version, std::move(outputs)};
  s.recoverContactMarks();
  return s;
}

namespace {
// The stream's bytes, in a string reserved at the file's size (a regular file: no second copy of a
// checkpoint's size while it grows). A read error ends the bytes (the checksum then refuses them).
std::string readAll(std::ifstream& in, const std::string& path) {
  std::string bytes;
  std::error_code ec;
  const std::uintmax_t size = std::filesystem::file_size(path, ec);
  if (!ec) bytes.reserve(static_cast<std::size_t>(size));
  std::vector<char> chunk(std::size_t{1} << 16);
  while (in.read(chunk.data(), static_cast<std::streamsize>(chunk.size())) || in.gcount() > 0)
    bytes.append(chunk.data(), static_cast<std::size_t>(in.gcount()));
  return bytes;
}
}  // namespace

void streamCheckpoint(const Scene& scene, const OutputState& outputs, BufferedFile& file, bool sealed) {
  Writer w;
  w.file = &file;
  writeState(w, scene, outputs);
  if (!sealed) return;
  const std::uint64_t sum = file.hash();  // (sealCheckpoint's seal: the hash of every byte before it)
  file.write(reinterpret_cast<const char*>(&sum), sizeof sum);
}

void sealCheckpointFile(const std::string& path) {
  const auto fail = [&](const char* what) {
    throw std::runtime_error(path + ": " + what + ": " + std::strerror(errno));
  };
  const int fd = ::open(path.c_str(), O_RDWR | O_CLOEXEC);
  if (fd < 0) fail("cannot open");
  const auto failClosing = [&](const char* what) {  // (the file closed, the failure's errno kept)
    const int error = errno;
    ::close(fd);
    errno = error;
    fail(what);
  };
  std::uint64_t sum = kFnvBasis;
  char chunk[1 << 16];
  for (;;) {
    const ssize_t n = ::read(fd, chunk, sizeof chunk);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) failClosing("read failed");
    if (n == 0) break;
    sum = fnv1a64(std::string_view(chunk, static_cast<std::size_t>(n)), sum);
  }
  const char* seal = reinterpret_cast<const char*>(&sum);
  for (std::size_t done = 0; done < sizeof sum;) {  // (at the end: the reads left the offset there)
    const ssize_t n = ::write(fd, seal + done, sizeof sum - done);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) failClosing("write failed");
    done += static_cast<std::size_t>(n);
  }
  if (::close(fd) != 0) fail("close failed");
}

void saveCheckpoint(const Scene& scene, const std::string& path, const OutputState& outputs) {
  writeFileAtomically(path, [&](BufferedFile& file) { streamCheckpoint(scene, outputs, file); });
}

Scene loadCheckpoint(const std::string& path, CheckpointInfo* info) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw CheckpointError(path + ": cannot open the file for reading");
  return sceneFromCheckpointBytes(readAll(in, path), path, info);
}

}  // namespace dem::io
