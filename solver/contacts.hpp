#pragma once
// Flat contact storage: one array of plain Contact records (ids, physics, local-frame history,
// this step's force), a pair -> index map for the collider, and a per-particle adjacency (CSR) so
// that each particle gathers its contacts' forces in a fixed order (same bits for any thread count).
//
// The array holds *potential* contacts (pairs whose enlarged bounding boxes overlap, from the
// collider); `real` marks those whose bodies overlap now. A potential contact that is not real has
// no force and no history. Readers such as a global-stiffness timestep estimator can use
// id1, id2, type, real, phys.kn, phys.ks and normal of each item directly.

#include "materials.hpp"
#include "math.hpp"

#include <cstdint>
#include <unordered_map>
#include <vector>

namespace dem {

enum class ContactType : std::uint8_t { SphereSphere = 0, SphereWall = 1 };

// The frame without Eigen's 32-byte alignment (no padding in the record).
using PackedQuat = Eigen::Quaternion<double, Eigen::DontAlign>;

// Layout (264 bytes): the contact loop streams through the records every step, so they hold no
// padding, and the first 64 bytes (ids to phys) are all that a contact that is not real reads.
struct Contact {
  std::uint32_t id1 = 0, id2 = 0;  // sphere-sphere: id1 < id2; sphere-wall: id1 = sphere, id2 = wall
  ContactType type = ContactType::SphereSphere;
  std::uint8_t real = 0;           // 1 while the bodies overlap (u_N < 0)
  // Periodic cell (solver/periodic_collider.hpp): particle 2 takes part through its image shifted by
  // H cellDist (Yade's Interaction.cellDist); zero in aperiodic scenes.
  Eigen::Vector3i cellDist = Eigen::Vector3i::Zero();
  double elastic = 0.0;            // energy stored in the springs at t_n
  double dissipated = 0.0;         // work dissipated by Coulomb sliding during this step
  ContactPhysics phys;             // kn, ks, tan(phi): created once with the contact

  // History in local contact coordinates (seed "Local contact coordinates"); valid while real.
  PackedQuat frame = PackedQuat::Identity();  // local -> global rotation; its local x axis is the normal
  Vec3 normal = Vec3::Zero();      // n (global), from particle 1 towards particle 2
  Vec3 point = Vec3::Zero();       // contact point c (middle of the overlap zone)
  Vec3 u = Vec3::Zero();           // (u_N, u_T,y, u_T,z), local coordinates
  Vec3 phi = Vec3::Zero();         // relative rotation (twist, bending y, bending z), local

  // Results of the current step (zero when not real).
  Vec3 force = Vec3::Zero();       // force on particle 1 (global); particle 2 receives -force
  Vec3 torque1 = Vec3::Zero();     // torque on particle 1, arm c - x1
  Vec3 torque2 = Vec3::Zero();     // torque on particle 2, arm c - x2
};

inline std::uint64_t pairKey(std::uint32_t a, std::uint32_t b) {
  const std::uint64_t lo = a < b ? a : b, hi = a < b ? b : a;
  return (lo << 32) | hi;
}

class ContactStore {
 public:
  std::vector<Contact> items;

  std::size_t size() const { return items.size(); }
  // Index of the contact between a and b (either order), or -1.
  std::int64_t find(std::uint32_t a, std::uint32_t b) const {
    const auto it = index_.find(pairKey(a, b));
    return it == index_.end() ? -1 : static_cast<std::int64_t>(it->second);
  }
  void add(const Contact& c) {
    index_.emplace(pairKey(c.id1, c.id2), static_cast<std::uint32_t>(items.size()));
    items.push_back(c);
    adjacencyValid_ = false;
    activeEnd_ = SIZE_MAX;
  }
  // Removes the contact at `index` (the last one takes its place).
  void remove(std::size_t index) {
    index_.erase(pairKey(items[index].id1, items[index].id2));
    if (index + 1 != items.size()) {
      items[index] = items.back();
      index_[pairKey(items[index].id1, items[index].id2)] = static_cast<std::uint32_t>(index);
    }
    items.pop_back();
    adjacencyValid_ = false;
    activeEnd_ = SIZE_MAX;
  }
  void clear() {
    items.clear();
    index_.clear();
    realEnd_ = SIZE_MAX;
    activeEnd_ = SIZE_MAX;
    adjacencyValid_ = false;
  }
  // Moves the contacts that are real in front of those that are not (swapping pairs that are out of
  // place; the pair map follows) and remembers where the real ones end. The contact loop reads a
  // whole record only for real contacts and the first cache line of the others (about half of the
  // potential contacts in a dense bed): kept apart, the others' records are not streamed through
  // the cache. Called after each collider run; the order depends only on the previous order.
  void partitionReal() { partition([](const Contact&) { return false; }); }
  // The same, and then the contacts that are not real are split in two: first those that may touch
  // before the collider's next run, then the dormant ones (dormant(c) true; only contacts that are
  // not real are asked), which cannot: the contact loop skips them until the next partition. A
  // dormant contact holds no force and no history; its `dissipated` is zeroed here (a separation's
  // release was booked at the step it happened, and the loop would zero it at the next).
  template <class Dormant>
  void partition(Dormant&& dormant) {
    const std::size_t real = partitionBy(0, [](const Contact& c) { return c.real != 0; });
    realEnd_ = real;
    activeEnd_ = partitionBy(real, [&](const Contact& c) { return !dormant(c); });
    for (std::size_t k = activeEnd_; k < items.size(); ++k) items[k].dissipated = 0.0;
  }
  // The end of the real contacts at the last partition (contacts formed or separated since are on
  // either side); the whole list before the first partition.
  std::size_t realEnd() const { return realEnd_ < items.size() ? realEnd_ : items.size(); }
  // The end of the contacts that are not dormant: those from here on cannot touch before the
  // collider's next run. The whole list when the set changed since the last partition.
  std::size_t activeEnd() const { return activeEnd_ < items.size() ? activeEnd_ : items.size(); }
  std::size_t countReal() const {
    std::size_t n = 0;
    for (const auto& c : items) n += c.real;
    return n;
  }

  // Per-particle list of (contact index << 1 | side), side 0 = particle is id1, 1 = id2, in
  // increasing contact index; rebuilt only after the contact set changed.
  void updateAdjacency(std::size_t nParticles);
  const std::vector<std::uint32_t>& adjOffset() const { return adjOffset_; }
  const std::vector<std::uint32_t>& adjEntry() const { return adjEntry_; }

 private:
  std::unordered_map<std::uint64_t, std::uint32_t> index_;
  std::vector<std::uint32_t> adjOffset_, adjEntry_;
  bool adjacencyValid_ = false;
  std::size_t adjParticles_ = 0;
  std::size_t realEnd_ = SIZE_MAX, activeEnd_ = SIZE_MAX;
  void place(std::size_t index);
  // Moves the contacts from `from` on that satisfy `first` in front of the others (swapping pairs
  // out of place, the pair map following) and returns where they end.
  template <class First>
  std::size_t partitionBy(std::size_t from, First&& first) {
    std::size_t front = from, back = items.size();
    while (true) {
      while (front < back && first(items[front])) ++front;
      while (front < back && !first(items[back - 1])) --back;
      if (front >= back) return front;
      std::swap(items[front], items[back - 1]);
      place(front);
      place(back - 1);
      adjacencyValid_ = false;
    }
  }
};

}  // namespace dem
