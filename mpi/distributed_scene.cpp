#include "distributed_scene.hpp"

#include "exact_allreduce.hpp"

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstring>
#include <exception>
#include <limits>
#include <optional>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <utility>

namespace dem::mpi {

namespace {

// A body as sent at an epoch's start: plain numbers, sent as bytes.
struct BodyRecord {
  std::uint32_t id = 0, material = 0;
  std::uint8_t blocked = 0, velMidstep = 0, wall = 0, owned = 0;  // owned: by the receiving rank
  std::int32_t wallAxis = -1;
  double mass = 0.0, radius = 0.0;
  double pos[3], vel[3], angVel[3], angMom[3], ori[4], inertia[3], force[3], torque[3], wallNormal[3];
};
static_assert(std::is_trivially_copyable_v<BodyRecord>);

// A contact with its whole history (the store's record, as a checkpoint keeps it), by global ids.
struct ContactRecord {
  std::uint32_t id1 = 0, id2 = 0;
  std::uint8_t type = 0, real = 0;
  std::int32_t cellDist[3];
  double elastic = 0.0, dissipated = 0.0;
  double params[kMaxLawParams];
  double frame[4], normal[3], point[3], u[3], phi[3], damp[3], force[3], torque1[3], torque2[3];
};
static_assert(std::is_trivially_copyable_v<ContactRecord>);

// The state a ghost takes from its owner after each step.
constexpr std::size_t kGhostValues = 17;  // pos, vel, angVel, angMom, ori (w x y z), velMidstep
constexpr int kGhostTag = 17;             // the ghosts' messages after each step

void put3(double* d, const Vec3& v) {
  for (int k = 0; k < 3; ++k) d[k] = v[k];
}
Vec3 get3(const double* d) { return {d[0], d[1], d[2]}; }

// Sends out[q] to rank q and returns what the ranks sent here, in the order of the senders.
// (At an epoch's start: the counts are exchanged first.)
template <class T>
std::vector<T> allToAll(const std::vector<std::vector<T>>& out, MPI_Comm comm) {
  const auto n = out.size();
  std::vector<int> sendCount(n), recvCount(n), sendAt(n), recvAt(n);
  std::vector<T> send;
  for (std::size_t q = 0; q < n; ++q) {
    if (out[q].size() * sizeof(T) > static_cast<std::size_t>(std::numeric_limits<int>::max()))
      throw std::runtime_error("mpi exchange: more than 2 GB for one rank");
    sendAt[q] = static_cast<int>(send.size() * sizeof(T));
    sendCount[q] = static_cast<int>(out[q].size() * sizeof(T));
    send.insert(send.end(), out[q].begin(), out[q].end());
  }
  MPI_Alltoall(sendCount.data(), 1, MPI_INT, recvCount.data(), 1, MPI_INT, comm);
  std::size_t total = 0;
  for (std::size_t q = 0; q < n; ++q) {
    recvAt[q] = static_cast<int>(total);
    total += static_cast<std::size_t>(recvCount[q]);
  }
  std::vector<T> recv(total / sizeof(T));
  MPI_Alltoallv(send.data(), sendCount.data(), sendAt.data(), MPI_BYTE, recv.data(), recvCount.data(), recvAt.data(),
                MPI_BYTE, comm);
  return recv;
}

// The bytes of `mine`, as an MPI count (a message of at most 2 GB).
template <class T>
int bytesOf(const std::vector<T>& mine) {
  if (mine.size() * sizeof(T) > static_cast<std::size_t>(std::numeric_limits<int>::max()))
    throw std::runtime_error("mpi gather: more than 2 GB from one rank");
  return static_cast<int>(mine.size() * sizeof(T));
}

// Every rank's `mine` (count[q] bytes from rank q), in the order of the ranks, on the rank `root`
// (root < 0: on every rank; no copy of it per rank). Empty on the other ranks.
template <class T>
std::vector<T> gatherv(const std::vector<T>& mine, const std::vector<int>& count, int root, MPI_Comm comm) {
  std::vector<int> at(count.size());
  std::size_t total = 0;
  for (std::size_t q = 0; q < count.size(); ++q) {
    at[q] = static_cast<int>(total);
    total += static_cast<std::size_t>(count[q]);
  }
  std::vector<T> all(total / sizeof(T));
  if (root < 0)
    MPI_Allgatherv(mine.data(), bytesOf(mine), MPI_BYTE, all.data(), count.data(), at.data(), MPI_BYTE, comm);
  else MPI_Gatherv(mine.data(), bytesOf(mine), MPI_BYTE, all.data(), count.data(), at.data(), MPI_BYTE, root, comm);
  return all;
}

// Every rank's `mine`, in the order of the ranks, on every rank.
template <class T>
std::vector<T> allGather(const std::vector<T>& mine, MPI_Comm comm) {
  int n = 1;
  MPI_Comm_size(comm, &n);
  const int bytes = bytesOf(mine);
  std::vector<int> count(static_cast<std::size_t>(n));
  MPI_Allgather(&bytes, 1, MPI_INT, count.data(), 1, MPI_INT, comm);
  return gatherv(mine, count, -1, comm);
}

// Every rank's `a` and `b`, each in the order of the ranks, on the rank `root` (root < 0: on every
// rank), with one exchange of the sizes; empty on the other ranks.
template <class A, class B>
std::pair<std::vector<A>, std::vector<B>> gather(const std::vector<A>& a, const std::vector<B>& b, int root,
                                                 MPI_Comm comm) {
  int n = 1, rank = 0;
  MPI_Comm_size(comm, &n);
  MPI_Comm_rank(comm, &rank);
  const int sizes[2] = {bytesOf(a), bytesOf(b)};
  std::vector<int> all(2 * static_cast<std::size_t>(n));
  if (root < 0) MPI_Allgather(sizes, 2, MPI_INT, all.data(), 2, MPI_INT, comm);
  else MPI_Gather(sizes, 2, MPI_INT, all.data(), 2, MPI_INT, root, comm);
  // (a rank other than the root receives nothing: its counts stay zero)
  if (root >= 0 && rank != root) all.assign(all.size(), 0);
  std::vector<int> countA(static_cast<std::size_t>(n)), countB(static_cast<std::size_t>(n));
  for (std::size_t q = 0; q < countA.size(); ++q) {
    countA[q] = all[2 * q];
    countB[q] = all[2 * q + 1];
  }
  std::vector<A> allA = gatherv(a, countA, root, comm);
  return {std::move(allA), gatherv(b, countB, root, comm)};
}

BodyRecord bodyRecord(const Particles& p, std::size_t i, std::uint32_t id) {
  BodyRecord r;
  r.id = id;
  r.material = p.material[i];
  r.blocked = p.blocked[i];
  r.velMidstep = p.velMidstep[i];
  r.wall = p.isWall(i) ? 1 : 0;
  r.mass = p.mass[i];
  r.radius = p.radius[i];
  put3(r.pos, p.pos[i]);
  put3(r.vel, p.vel[i]);
  put3(r.angVel, p.angVel[i]);
  put3(r.angMom, p.angMomOf(i));
  const Quat& q = p.ori[i];
  r.ori[0] = q.w();
  r.ori[1] = q.x();
  r.ori[2] = q.y();
  r.ori[3] = q.z();
  put3(r.inertia, p.inertia[i]);
  put3(r.force, p.force[i]);
  put3(r.torque, p.torque[i]);
  const Wall w = r.wall ? p.walls[p.shapeIndex[i]] : Wall{};
  put3(r.wallNormal, w.normal);
  r.wallAxis = w.axis;
  return r;
}

// Appends the body to p with every bit of its state (Particles::add would normalise the orientation
// and recompute the angular momentum).
void addBody(Particles& p, const BodyRecord& r) {
  std::size_t i = 0;
  if (r.wall) {
    i = p.addWall(get3(r.pos), get3(r.wallNormal), r.material);
    p.walls[p.shapeIndex[i]] = Wall{get3(r.wallNormal), r.wallAxis};
  } else {
    ParticleSpec s;
    s.pos = get3(r.pos);
    s.radius = r.radius;
    s.mass = r.mass;
    s.inertia = get3(r.inertia);
    s.material = r.material;
    s.blocked = r.blocked;
    i = p.add(s);
  }
  p.vel[i] = get3(r.vel);
  p.angVel[i] = get3(r.angVel);
  p.setAngMom(i, get3(r.angMom));
  p.ori[i] = Quat(r.ori[0], r.ori[1], r.ori[2], r.ori[3]);
  p.force[i] = get3(r.force);
  p.torque[i] = get3(r.torque);
  p.velMidstep[i] = r.velMidstep;
}

ContactRecord contactRecord(const Contact& c, std::uint32_t id1, std::uint32_t id2) {
  ContactRecord r;
  r.id1 = id1;
  r.id2 = id2;
  r.type = static_cast<std::uint8_t>(c.type);
  r.real = c.real;
  for (int k = 0; k < 3; ++k) r.cellDist[k] = c.cellDist[k];
  r.elastic = c.elastic;
  r.dissipated = c.dissipated;
  for (std::size_t k = 0; k < kMaxLawParams; ++k) r.params[k] = c.params[k];
  r.frame[0] = c.frame.w();
  r.frame[1] = c.frame.x();
  r.frame[2] = c.frame.y();
  r.frame[3] = c.frame.z();
  put3(r.normal, c.normal);
  put3(r.point, c.point);
  put3(r.u, c.u);
  put3(r.phi, c.phi);
  put3(r.damp, c.damp);
  put3(r.force, c.force);
  put3(r.torque1, c.torque1);
  put3(r.torque2, c.torque2);
  return r;
}

Contact contact(const ContactRecord& r, std::uint32_t slot1, std::uint32_t slot2) {
  Contact c;
  c.id1 = slot1;
  c.id2 = slot2;
  c.type = static_cast<ContactType>(r.type);
  c.real = r.real;
  for (int k = 0; k < 3; ++k) c.cellDist[k] = r.cellDist[k];
  c.elastic = r.elastic;
  c.dissipated = r.dissipated;
  for (std::size_t k = 0; k < kMaxLawParams; ++k) c.params[k] = r.params[k];
  c.frame = Quat(r.frame[0], r.frame[1], r.frame[2], r.frame[3]);
  c.normal = get3(r.normal);
  c.point = get3(r.point);
  c.u = get3(r.u);
  c.phi = get3(r.phi);
  c.damp = get3(r.damp);
  c.force = get3(r.force);
  c.torque1 = get3(r.torque1);
  c.torque2 = get3(r.torque2);
  return c;
}

// Whether a contact has state of its own to carry: real, or holding the release of its separation
// (`dissipated`, booked at the next step). The others hold nothing a result depends on (the
// collider's next run finds them again, as after a restart), and which of them a rank holds
// depends on when its collider ran: a gathered scene leaves them out, so that its store, and a
// checkpoint's bytes, are the same for any number of ranks.
bool carried(const Contact& c) { return c.real != 0 || std::bit_cast<std::uint64_t>(c.dissipated) != 0; }

// The Verlet distance of the scene's collider as a length (Collider::verletDist).
double verletLength(const Scene& s) {
  const double v = s.cell ? s.periodicCollider.verletDist : s.collider.verletDist;
  double rMin = std::numeric_limits<double>::infinity();
  for (std::size_t i = 0; i < s.particles.size(); ++i)
    if (!s.particles.isBoundary(i)) rMin = std::min(rMin, s.particles.radius[i]);
  if (!std::isfinite(rMin)) rMin = 0.0;
  return v > 0.0 ? v : v < 0.0 ? -v * rMin : 0.1 * rMin;
}

void requireSupported(const Scene& s) {
  const Particles& p = s.particles;
  for (std::size_t i = 0; i < p.size(); ++i)
    if (p.isWall(i) && p.blocked[i] != dof::all)  // (its load is spread over the ranks: not integrated)
      throw std::invalid_argument("distributed scene: a wall with a free axis is not supported");
  if (s.externalForces)  // (a function of the whole scene's slots, which a rank's scene does not have)
    throw std::invalid_argument("distributed scene: external forces (Scene::externalForces) are not supported");
}

// The mesh walls of a scene. Every rank holds them all and places them from the time as a scene
// alone does (Scene::step, mesh_motion.hpp): no rank owns or sends them.
struct MeshPart {
  Particles facets;                  // the meshes alone (Particles::copyMesh)
  std::vector<std::uint32_t> first;  // per mesh: the global id of its first facet
};
MeshPart meshPart(const Particles& p, const std::vector<std::uint32_t>& global) {
  MeshPart m;
  for (std::size_t k = 0; k < p.meshes.size(); ++k) {
    m.facets.copyMesh(p, k);
    m.first.push_back(global[p.meshes[k].first]);
  }
  return m;
}

// Puts the bodies (sorted here by global id), the meshes and the contacts among them (by global
// ids) into s in place of its own, with fresh colliders of its settings (their first run keeps the
// contacts whose boxes overlap and finds the others, as after a restart). A contact whose bodies are
// not both among them is left out (it cannot touch before the next epoch; a real one is an error).
// Returns the global id of each slot; the local user ids keep the global ids' order.
std::vector<std::uint32_t> fill(Scene& s, std::vector<BodyRecord>& bodies, std::vector<ContactRecord>& contacts,
                                const MeshPart& meshes, const std::vector<ClumpParts>& clumps) {
  std::sort(bodies.begin(), bodies.end(), [](const BodyRecord& a, const BodyRecord& b) { return a.id < b.id; });
  // (the contacts in the order of their ids, not of the ranks they came from: a gathered scene's
  // store, and so its checkpoint's bytes, are the same for any number of ranks)
  std::sort(contacts.begin(), contacts.end(), [](const ContactRecord& a, const ContactRecord& b) {
    return a.id1 != b.id1 ? a.id1 < b.id1 : a.id2 < b.id2;
  });
  s.particles = Particles{};
  s.particles.reserve(bodies.size() + meshes.facets.size());
  std::vector<std::uint32_t> global;
  global.reserve(bodies.size() + meshes.facets.size());
  std::size_t m = 0;  // the next mesh, in the places of its global ids
  const auto meshesBefore = [&](std::uint64_t id) {
    for (; m < meshes.first.size() && meshes.first[m] < id; ++m) {
      s.particles.copyMesh(meshes.facets, m);
      for (std::uint32_t j = 0; j < meshes.facets.meshes[m].count; ++j) global.push_back(meshes.first[m] + j);
    }
  };
  for (const BodyRecord& r : bodies) {
    meshesBefore(r.id);
    addBody(s.particles, r);
    global.push_back(r.id);
  }
  meshesBefore(std::numeric_limits<std::uint64_t>::max());
  const auto slotOf = [&](std::uint32_t id) -> std::int64_t {
    const auto it = std::lower_bound(global.begin(), global.end(), id);
    return it != global.end() && *it == id ? it - global.begin() : -1;
  };
  // the clumps whose parts are here (all of them or none)
  s.clumps = Clumps{};
  for (const ClumpParts& k : clumps) {
    const std::int64_t body = slotOf(k.body);
    if (body < 0) continue;
    Clump c;
    c.body = static_cast<std::size_t>(body);
    for (const std::uint32_t member : k.members) {
      const std::int64_t i = slotOf(member);
      if (i < 0) throw std::logic_error("distributed scene: a clump's member is not on its body's rank");
      c.members.push_back(static_cast<std::size_t>(i));
      s.particles.clump[static_cast<std::size_t>(i)] = body;
    }
    s.particles.isClump[c.body] = 1;
    c.relPos = k.relPos;
    c.relOri = k.relOri;
    s.clumps.list.push_back(std::move(c));
  }
  s.contacts = ContactStore{};
  for (const ContactRecord& r : contacts) {
    const std::int64_t a = slotOf(r.id1), b = slotOf(r.id2);
    if (a < 0 || b < 0) {
      if (r.real) throw std::logic_error("distributed scene: a real contact's body is not on the rank");
      continue;
    }
    s.contacts.add(contact(r, static_cast<std::uint32_t>(a), static_cast<std::uint32_t>(b)));
  }
  Collider collider;
  collider.verletDist = s.collider.verletDist;
  collider.law = s.collider.law;
  s.collider = collider;
  PeriodicCollider periodic;
  periodic.verletDist = s.periodicCollider.verletDist;
  periodic.law = s.periodicCollider.law;
  s.periodicCollider = periodic;
  return global;
}

}  // namespace

DistributedScene::DistributedScene(const Scene& whole, MPI_Comm comm, double move) : comm_(comm), local_(whole) {
  MPI_Comm_rank(comm_, &rank_);
  MPI_Comm_size(comm_, &ranks_);
  requireSupported(whole);
  const Particles& p = whole.particles;
  for (std::size_t i = 0; i < p.size(); ++i) drives_ = drives_ || p.isDriven(i);
  move_ = move > 0.0 ? move : verletLength(whole);
  double rMax = 0.0;
  std::vector<Vec3> x;
  for (std::size_t i = 0; i < p.size(); ++i)
    if (!p.isBoundary(i)) {
      rMax = std::max(rMax, p.radius[i]);
      x.push_back(p.pos[i]);
    }
  reach_ = 2.0 * (rMax + move_) * (1.0 + 1e-9);
  decomposition_ = Decomposition::bisect(x, ranks_, whole.cell ? std::optional<Mat3>(whole.cell->H()) : std::nullopt);
  local_.setUserIdSums(true);  // (sums in the order of user ids: the same on every rank)
  local_.setSpatialOrder(false);
  // Every rank holds the whole scene: each takes every ranks_-th body as its own for the first
  // epoch's start, which sends every body and contact to its place.
  clumpOf_.assign(p.size(), -1);
  for (const Clump& c : whole.clumps.list) {
    ClumpParts k;
    k.body = p.userId[c.body];
    for (const std::size_t m : c.members) k.members.push_back(p.userId[m]);
    k.relPos = c.relPos;
    k.relOri = c.relOri;
    clumpOf_[k.body] = static_cast<std::int32_t>(clumps_.size());
    for (const std::uint32_t m : k.members) clumpOf_[m] = static_cast<std::int32_t>(clumps_.size());
    clumps_.push_back(std::move(k));
  }
  global_.resize(p.size());
  owned_.resize(p.size());
  for (std::size_t i = 0; i < p.size(); ++i) {
    global_[i] = p.userId[i];
    const std::int32_t k = clumpOf_[global_[i]];
    const std::uint32_t by =
        k < 0 ? global_[i] : clumps_[static_cast<std::size_t>(k)].body;  // (a clump's parts together)
    owned_[i] = !p.isFacet(i) && static_cast<int>(by % static_cast<std::uint32_t>(ranks_)) == rank_ ? 1 : 0;
  }
  beginEpoch();
  migrations_ = 0;  // (the first distribution is not a migration)
}

std::size_t DistributedScene::ownedCount() const {
  return static_cast<std::size_t>(std::count(owned_.begin(), owned_.end(), std::uint8_t{1}));
}

std::size_t DistributedScene::ghostsSent() const {
  std::size_t n = 0;
  for (const auto& s : sendSlots_) n += s.size();
  return n;
}

std::size_t DistributedScene::slotOfGlobal(std::uint32_t id) const {
  const auto it = std::lower_bound(global_.begin(), global_.end(), id);
  if (it == global_.end() || *it != id) throw std::logic_error("distributed scene: a clump's part is not on the rank");
  return static_cast<std::size_t>(it - global_.begin());
}

// A function of the places only, so that every rank that holds the body finds the same.
int DistributedScene::ownerOf(std::size_t i) const {
  const Particles& p = local_.particles;
  if (p.isWall(i)) return 0;
  const std::int32_t k = clumpOf_[global_[i]];
  return decomposition_.owner(p.pos[k < 0 ? i : slotOfGlobal(clumps_[static_cast<std::size_t>(k)].body)]);
}

void DistributedScene::ghostRanks(std::size_t i, int owner, std::vector<int>& out) const {
  const Particles& p = local_.particles;
  out.clear();
  if (p.isWall(i)) {
    for (int q = 0; q < ranks_; ++q)
      if (q != owner) out.push_back(q);
    return;
  }
  const std::int32_t k = clumpOf_[global_[i]];
  if (k < 0) {
    decomposition_.ranksNear(p.pos[i], reach_, owner, out);
    return;
  }
  const ClumpParts& c = clumps_[static_cast<std::size_t>(k)];
  std::vector<int> some;
  const auto add = [&](std::uint32_t id) {
    decomposition_.ranksNear(p.pos[slotOfGlobal(id)], reach_, owner, some);
    out.insert(out.end(), some.begin(), some.end());
  };
  add(c.body);
  for (const std::uint32_t m : c.members) add(m);
  std::sort(out.begin(), out.end());
  out.erase(std::unique(out.begin(), out.end()), out.end());
}

void DistributedScene::beginEpoch() {
  if (local_.cell) decomposition_.setCell(local_.cell->H());  // (a deforming cell: the bricks' places now)
  rebalanceIfNeeded();
  const Particles& p = local_.particles;
  const auto near = [&](std::size_t i, int owner, std::vector<int>& out) { ghostRanks(i, owner, out); };
  std::vector<std::vector<BodyRecord>> bodiesOut(static_cast<std::size_t>(ranks_));
  std::vector<std::vector<ContactRecord>> contactsOut(static_cast<std::size_t>(ranks_));
  std::vector<int> ranksNear;
  std::uint64_t moved = 0;
  for (std::size_t i = 0; i < p.size(); ++i) {
    if (!owned_[i]) continue;
    const int o = ownerOf(i);
    if (o != rank_) ++moved;
    BodyRecord r = bodyRecord(p, i, global_[i]);
    r.owned = 1;
    bodiesOut[static_cast<std::size_t>(o)].push_back(r);
    r.owned = 0;
    near(i, o, ranksNear);
    for (const int q : ranksNear) bodiesOut[static_cast<std::size_t>(q)].push_back(r);
  }
  // each contact from the rank that owned its first body through the epoch (its history is right
  // there) to the new owners of its two bodies (a wall's owner only if the sphere is its own: the
  // walls are on every rank, the spheres near their contacts only)
  for (const Contact& c : local_.contacts.records()) {
    if (!owned_[c.id1] || !carried(c)) continue;
    const ContactRecord r = contactRecord(c, global_[c.id1], global_[c.id2]);
    const int o1 = ownerOf(c.id1), o2 = ownerOf(c.id2);
    contactsOut[static_cast<std::size_t>(o1)].push_back(r);
    if (o2 != o1 && !p.isBoundary(c.id2)) contactsOut[static_cast<std::size_t>(o2)].push_back(r);
  }
  std::vector<BodyRecord> bodies = allToAll(bodiesOut, comm_);
  std::vector<ContactRecord> contacts = allToAll(contactsOut, comm_);
  std::uint64_t movedAll = 0;
  MPI_Allreduce(&moved, &movedAll, 1, MPI_UINT64_T, MPI_SUM, comm_);
  migrations_ += movedAll;

  // the rank's scene anew (fill): its own bodies and the ghosts, the carried contacts
  global_ = fill(local_, bodies, contacts, meshPart(local_.particles, global_), clumps_);  // (sorts the records)
  owned_.assign(global_.size(), 0);
  for (std::size_t i = 0, slot = 0; i < bodies.size(); ++i, ++slot) {
    while (global_[slot] != bodies[i].id) ++slot;  // (past the meshes' facets)
    owned_[slot] = bodies[i].owned;
  }
  epochStart_ = local_.particles.pos;
  if (local_.cell) epochH_ = local_.cell->H();

  // the ghost lists of the epoch: what this rank sends after each step, and where it receives
  sendSlots_.assign(static_cast<std::size_t>(ranks_), {});
  recvSlots_.assign(static_cast<std::size_t>(ranks_), {});
  const Particles& q = local_.particles;
  for (std::size_t i = 0; i < q.size(); ++i) {
    if (q.isFacet(i)) continue;  // (every rank places the meshes itself)
    if (owned_[i]) {
      ghostRanks(i, rank_, ranksNear);
      for (const int r : ranksNear) sendSlots_[static_cast<std::size_t>(r)].push_back(static_cast<std::uint32_t>(i));
    } else {
      recvSlots_[static_cast<std::size_t>(ownerOf(i))].push_back(static_cast<std::uint32_t>(i));
    }
  }
  // the ledger's sums over this rank's own bodies, combined over the ranks
  MPI_Comm comm = comm_;
  const auto minimum = [comm](double x) {
    double all = x;
    MPI_Allreduce(&x, &all, 1, MPI_DOUBLE, MPI_MIN, comm);
    return all;
  };
  local_.setSharedSums(
      SharedSums{owned_, [comm](std::span<ExactSum> sums) { allreduce(sums, comm); }, drives_, minimum});
  ++epochs_;
}

void DistributedScene::updateGhosts() {
  Particles& p = local_.particles;
  std::vector<std::vector<double>> out(static_cast<std::size_t>(ranks_));
  for (std::size_t r = 0; r < out.size(); ++r) {
    std::vector<double>& o = out[r];
    o.reserve(sendSlots_[r].size() * kGhostValues);
    for (const std::uint32_t i : sendSlots_[r]) {
      const Quat& q = p.ori[i];
      const Vec3 L = p.angMomOf(i);
      for (const Vec3* v : {&std::as_const(p.pos[i]), &std::as_const(p.vel[i]), &std::as_const(p.angVel[i]), &L})
        o.insert(o.end(), v->data(), v->data() + 3);
      o.insert(o.end(), {q.w(), q.x(), q.y(), q.z(), static_cast<double>(p.velMidstep[i])});
    }
  }
  // Only with the ranks in the epoch's lists (the bricks within reach), whose counts are known on
  // both sides: no exchange of counts, and no message to a rank that has no ghost of this one.
  std::vector<double> in;
  {
    std::vector<std::size_t> at(recvSlots_.size() + 1, 0);
    for (std::size_t r = 0; r < recvSlots_.size(); ++r) at[r + 1] = at[r] + recvSlots_[r].size() * kGhostValues;
    in.resize(at.back());
    std::vector<MPI_Request> requests;
    for (std::size_t r = 0; r < recvSlots_.size(); ++r)
      if (!recvSlots_[r].empty())
        MPI_Irecv(in.data() + at[r], static_cast<int>(at[r + 1] - at[r]), MPI_DOUBLE, static_cast<int>(r), kGhostTag,
                  comm_, &requests.emplace_back());
    for (std::size_t r = 0; r < out.size(); ++r)
      if (!out[r].empty())
        MPI_Isend(out[r].data(), static_cast<int>(out[r].size()), MPI_DOUBLE, static_cast<int>(r), kGhostTag, comm_,
                  &requests.emplace_back());
    std::vector<MPI_Status> status(requests.size());
    MPI_Waitall(static_cast<int>(requests.size()), requests.data(), status.data());
    std::size_t k = 0;  // (the receives come first)
    for (std::size_t r = 0; r < recvSlots_.size(); ++r) {
      if (recvSlots_[r].empty()) continue;
      int count = 0;
      MPI_Get_count(&status[k++], MPI_DOUBLE, &count);
      if (static_cast<std::size_t>(count) != at[r + 1] - at[r])
        throw std::logic_error("distributed scene: the ghost lists of two ranks differ");
    }
  }
  std::size_t at = 0;
  for (std::size_t r = 0; r < recvSlots_.size(); ++r)
    for (const std::uint32_t i : recvSlots_[r]) {
      const double* d = in.data() + at;
      p.pos[i] = get3(d);
      p.vel[i] = get3(d + 3);
      p.angVel[i] = get3(d + 6);
      p.setAngMom(i, get3(d + 9));
      p.ori[i] = Quat(d[12], d[13], d[14], d[15]);
      p.velMidstep[i] = static_cast<std::uint8_t>(d[16]);
      at += kGhostValues;
    }
}

double DistributedScene::farthestMove() const {
  const Particles& p = local_.particles;
  double farthest = 0.0;
  for (std::size_t i = 0; i < p.size(); ++i)
    if (owned_[i]) {
      const double d = (p.pos[i] - epochStart_[i]).norm();
      farthest = std::isnan(d) ? std::numeric_limits<double>::infinity() : std::max(farthest, d);
      if (std::isinf(farthest)) break;  // (a non-finite place ends the epoch; MPI_MAX of a NaN is not defined)
    }
  return farthest;
}

bool DistributedScene::epochOver(double farthest) const {
  // a deforming cell moves the periodic images too: H k for |k_j| <= 1 by at most the sum of its
  // columns' changes (a flip's change ends the epoch at once); two bodies approach by at most
  // 2 farthest + that
  double images = 0.0;
  if (local_.cell)
    for (int j = 0; j < 3; ++j) images += (local_.cell->H().col(j) - epochH_.col(j)).norm();
  return !(farthest + 0.5 * images <= move_);  // (a non-finite place ends the epoch too)
}

void DistributedScene::step() {
  // every rank learns whether any failed (a runaway, an error of the solver), so that none waits
  // for the others in the exchanges while they unwind; in the same reduction, how far the bodies
  // have moved in this epoch
  std::exception_ptr error;
  try {
    local_.step();
  } catch (...) {
    error = std::current_exception();
  }
  double mine[2] = {error ? 1.0 : 0.0, error ? 0.0 : farthestMove()}, all[2] = {0.0, 0.0};
  MPI_Allreduce(mine, all, 2, MPI_DOUBLE, MPI_MAX, comm_);
  if (error) std::rethrow_exception(error);
  if (all[0] != 0.0)
    throw std::runtime_error("distributed scene: another rank failed at step " + std::to_string(local_.stepCount + 1) +
                             " (its message names the reason)");
  updateGhosts();
  if (epochOver(all[1])) beginEpoch();
}

void DistributedScene::run(std::uint64_t steps) {
  for (std::uint64_t s = 0; s < steps; ++s) step();
}

Scene DistributedScene::gatherScene() { return std::move(*gatherOn(-1)); }

std::optional<Scene> DistributedScene::gatherSceneOn(int root) {
  if (root < 0 || root >= ranks_) throw std::invalid_argument("distributed scene: no rank " + std::to_string(root));
  return gatherOn(root);
}

std::optional<Scene> DistributedScene::gatherOn(int root) {
  const Particles& p = local_.particles;
  // A wall's or facet's contacts are spread over the ranks (its copies hold only their own): its
  // force and torque are the field's (applyFields) and the exact sum of the reactions of the real
  // contacts whose spheres each rank owns, the same bits for any number of ranks. Only the
  // boundaries with such contacts on some rank take exact sums (the others hold the field alone):
  // every rank holds every boundary, in the order of global ids, and marks those of its own
  // spheres' real contacts; the marks are united over the ranks.
  std::vector<std::uint32_t> boundaries;  // local slots
  for (std::size_t i = 0; i < p.size(); ++i)
    if (p.isBoundary(i)) boundaries.push_back(static_cast<std::uint32_t>(i));
  const auto boundaryIndex = [&](std::uint32_t slot) {
    return static_cast<std::size_t>(std::lower_bound(boundaries.begin(), boundaries.end(), slot) - boundaries.begin());
  };
  std::vector<std::uint8_t> marked((boundaries.size() + 7) / 8, 0);
  for (const Contact& c : local_.contacts.records())
    if (c.real && p.isBoundary(c.id2) && owned_[c.id1]) {
      const std::size_t b = boundaryIndex(c.id2);
      marked[b / 8] |= static_cast<std::uint8_t>(1u << (b % 8));
    }
  if (!marked.empty())
    MPI_Allreduce(MPI_IN_PLACE, marked.data(), static_cast<int>(marked.size()), MPI_UNSIGNED_CHAR, MPI_BOR, comm_);
  std::vector<std::uint32_t> walls;  // local slots of the marked boundaries
  for (std::size_t b = 0; b < boundaries.size(); ++b)
    if ((marked[b / 8] >> (b % 8)) & 1u) walls.push_back(boundaries[b]);
  std::vector<ExactSum> load(6 * walls.size());
  for (const Contact& c : local_.contacts.records()) {
    if (!c.real || !p.isBoundary(c.id2) || !owned_[c.id1]) continue;
    ExactSum* w =
        &load[6 * static_cast<std::size_t>(std::lower_bound(walls.begin(), walls.end(), c.id2) - walls.begin())];
    for (int k = 0; k < 3; ++k) {
      w[k] += -c.force[k];
      w[3 + k] += c.torque2[k];
    }
  }
  if (!walls.empty()) reduce(load, root, comm_);  // (the same walls on every rank)

  std::vector<BodyRecord> bodies;
  std::vector<ContactRecord> contacts;
  for (std::size_t i = 0; i < p.size(); ++i)
    if (owned_[i]) bodies.push_back(bodyRecord(p, i, global_[i]));
  for (const Contact& c : local_.contacts.records())  // (each from the rank that owns its first body)
    if (owned_[c.id1] && carried(c)) contacts.push_back(contactRecord(c, global_[c.id1], global_[c.id2]));
  auto [allBodies, allContacts] = mpi::gather(bodies, contacts, root, comm_);
  if (root >= 0 && rank_ != root) return std::nullopt;
  bodies = {};
  contacts = {};
  // the rank's scene copied without its bodies and contacts (the whole scene's replace them)
  Particles mine = std::move(local_.particles);
  ContactStore mineContacts = std::move(local_.contacts);
  local_.particles = Particles{};
  local_.contacts = ContactStore{};
  std::optional<Scene> copy;
  try {
    copy.emplace(local_);
  } catch (...) {
    local_.particles = std::move(mine);
    local_.contacts = std::move(mineContacts);
    throw;
  }
  local_.particles = std::move(mine);
  local_.contacts = std::move(mineContacts);
  Scene& whole = *copy;
  fill(whole, allBodies, allContacts, meshPart(local_.particles, global_),
       clumps_);  // (every global id: the slots are the user ids)
  whole.setSharedSums(std::nullopt);
  Particles& q = whole.particles;
  for (std::size_t i = 0; i < q.size(); ++i)
    if (q.isBoundary(i)) {
      q.force[i] = Vec3(q.mass[i] * whole.gravity);
      q.torque[i].setZero();
    }
  for (std::size_t w = 0; w < walls.size(); ++w) {
    const std::uint32_t i = global_[walls[w]];
    const Vec3 field = q.mass[i] * whole.gravity;
    for (int k = 0; k < 3; ++k) {
      load[6 * w + static_cast<std::size_t>(k)] += field[k];
      q.force[i][k] = load[6 * w + static_cast<std::size_t>(k)].value();
      q.torque[i][k] = load[6 * w + 3 + static_cast<std::size_t>(k)].value();
    }
  }
  return copy;
}

void DistributedScene::rebalanceIfNeeded() {
  const Particles& p = local_.particles;
  std::vector<double> mine;
  for (std::size_t i = 0; i < p.size(); ++i)
    if (owned_[i] && !p.isBoundary(i)) mine.insert(mine.end(), p.pos[i].data(), p.pos[i].data() + 3);
  const std::uint64_t count = mine.size() / 3;
  std::uint64_t most = 0, total = 0;
  MPI_Allreduce(&count, &most, 1, MPI_UINT64_T, MPI_MAX, comm_);
  MPI_Allreduce(&count, &total, 1, MPI_UINT64_T, MPI_SUM, comm_);
  if (total == 0 || static_cast<double>(most) * ranks_ <= rebalanceAbove_ * static_cast<double>(total)) return;
  // the bricks anew from every body's place (a function of the set of places: the same on every rank)
  const std::vector<double> all = allGather(mine, comm_);
  std::vector<Vec3> x(all.size() / 3);
  for (std::size_t k = 0; k < x.size(); ++k) x[k] = get3(all.data() + 3 * k);
  decomposition_ = Decomposition::bisect(x, ranks_, local_.cell ? std::optional<Mat3>(local_.cell->H()) : std::nullopt);
  ++rebalances_;
}

}  // namespace dem::mpi
