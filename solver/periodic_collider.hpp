#pragma once
// Sweep and prune in a periodic cell (seed yade-dem-formulation.rst "Collision detection in periodic
// cell", "Periodic insertion sort algorithm"; Yade's InsertionSortCollider in periodic mode).
//
// Particles are never moved back into the cell. Boxes live in the cell's transformed coordinates
// s = H^{-1} x (fractional: the period is 1 along every axis), where a sphere of radius r becomes an
// ellipsoid whose box has the half-widths
//   h_w = (r + dL) |row_w(H^{-1})|                       (support function of the ellipsoid)
// so boxes are cuboids in s and parallelepipeds in space (seed fig. cell-shear-aabb).
//
// Bounds carry their period: a bound stores coord = s_w +- h_w - period, with period = floor of its
// value when the list was built. Each list is circular; `lo` marks the periodic boundary || (the
// first element right of it). The insertion sort compares an element right of || with the one left
// of it after adding the period (1), and when a bound crosses || the boundary moves rather than the
// data: the first element below 0 gets period - 1, coord + 1 and becomes the last (|| moves right);
// the last element moved across || by an insertion gets period + 1, coord - 1 (|| moves left). Every
// exchange of a lower and an upper bound (including across ||) is an inversion, which tests the
// pair's boxes on all three axes with the periodic overlap below and creates or removes the potential
// contact. Passes repeat until one makes no exchange (one pass for the usual nearly sorted lists).
//
// Periodic overlap of bodies 1 < 2: along axis w the image of 2 is chosen as
// k_w = round(s1_w - s2_w), the only candidate when every box is narrower than half the cell;
// the boxes overlap when [lo1, hi1] and [lo2 + k_w, hi2 + k_w] intersect on all three axes. The contact
// stores k as cellDist (Yade's Interaction.cellDist): its geometry uses x2 + H k, and the image's
// velocity v2 + (H_n - H_{n-1}) k / dt (solver/contact_loop.hpp).
//
// Runs every step (the Verlet skip of the aperiodic collider is not used in a deforming cell: the
// boxes change with H even when particles are at rest in s); verletDist still enlarges the boxes.
// Errors (std::invalid_argument): a box as wide as half the cell or more along a transformed axis
// (seed: "particles do not span more than half of the current cell size"), walls in a periodic scene.

#include "cell.hpp"
#include "contacts.hpp"
#include "materials.hpp"
#include "particles.hpp"

#include <array>
#include <cstdint>
#include <tuple>
#include <vector>

namespace dem {

class PeriodicCollider {
 public:
  double verletDist = -0.1;  // as Collider::verletDist

  // Updates the potential contacts for the current positions and cell; returns true (it always runs).
  bool update(const Particles& p, const Cell& cell, const std::vector<Material>& materials, ContactStore& contacts);
  // Forces a full rebuild at the next update (after a cell flip, seed: invalidatePersistentData).
  void invalidate() { initialised_ = false; }
  double sweepLength() const { return dL_; }
  std::uint64_t runs() const { return runs_; }
  std::uint64_t fullRuns() const { return fullRuns_; }

  struct Bound {
    double coord;
    std::int32_t period;
    std::uint32_t tag;  // id << 1 | 1 for an upper bound
  };
  struct List {
    std::vector<Bound> v;
    std::size_t lo = 0;  // index of the first element right of the periodic boundary ||
  };
  // The complete internal state (checkpoint/restart, io/checkpoint.hpp). The bound lists carry the
  // insertion sort's history (bound periods, the position of ||, order among equal coordinates), so
  // a fresh full run would not meet the same inversions nor add contacts in the same order; a
  // collider restored from its state does, and a resumed run is bit-identical.
  struct State {
    List lists[3];
    std::vector<Vec3> s, half;
    double dL = 0.0;
    std::uint64_t runs = 0, fullRuns = 0;
    bool initialised = false;
    std::size_t bodies = 0;
  };
  State state() const;
  // Throws std::invalid_argument unless the state is consistent with nParticles bodies (an
  // initialised state: lists of 2 bodies bounds with every id once as a lower and once as an upper
  // bound, || inside the list, finite coordinates).
  void restore(State s, std::size_t nParticles);

 private:
  List lists_[3];
  std::vector<Vec3> s_, half_;  // transformed centres and half-widths of the boxes
  double dL_ = 0.0;
  std::uint64_t runs_ = 0, fullRuns_ = 0;
  bool initialised_ = false;
  std::size_t bodies_ = 0;

  void computeBoxes(const Particles& p, const Cell& cell);
  void handleInversion(std::uint32_t a, std::uint32_t b, const Particles& p, const std::vector<Material>& materials,
                       ContactStore& contacts) const;
  void fullRun(const Particles& p, const std::vector<Material>& materials, ContactStore& contacts);
  bool insertionSortPass(int axis, const Particles& p, const std::vector<Material>& materials, ContactStore& contacts);
};

// Periodic overlap of the boxes of a and b (transformed centres s, half-widths h); on overlap, k is
// the cell offset of the image of b that overlaps a (b's position + H k).
bool periodicBoxesOverlap(const Vec3& sa, const Vec3& ha, const Vec3& sb, const Vec3& hb, Eigen::Vector3i& k);

// Test oracle only: all pairs (id1 < id2, cellDist) whose boxes overlap in the periodic cell,
// built from the current positions exactly as the collider builds them; O(N^2), sorted.
using PeriodicPair = std::tuple<std::uint32_t, std::uint32_t, std::array<int, 3>>;
std::vector<PeriodicPair> bruteForcePeriodicPairs(const Particles& p, const Cell& cell, double dL);

}  // namespace dem
