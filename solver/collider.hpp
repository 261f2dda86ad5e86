#pragma once
// Sweep and prune collider with insertion sort and Verlet distance (seed "Sweep and prune",
// "Optimization with Verlet distances"; Yade's InsertionSortCollider, aperiodic).
//
// Each body has an axis-aligned box enlarged by the sweep length dL on every side:
//   sphere  x +- (r + dL);
//   wall    on its normal axis (axis-aligned planes) p +- dL, on the tangent axes -inf..+inf;
//           a wall with a general normal spans -inf..+inf on every axis (a potential contact with
//           every sphere);
//   facet   the box of its three vertices +- dL. A facet moves with its mesh (translation and
//           rotation), so the run trigger measures its vertices' displacements, not its centroid's.
// dL comes from verletDist: > 0 absolute, < 0 a fraction of the smallest sphere radius, 0 none.
// Three lists of bounds (one per axis) are kept sorted. The first run sorts them from scratch and
// sweeps the x list for overlaps (each box's candidates from a grid of box centres, cell_grid.hpp,
// in the sweep's order); later runs re-sort by insertion sort, and every inversion of a
// lower and an upper bound tests the pair's boxes on all three axes, creating the potential contact
// (overlap) or removing it (no overlap). Equal coordinates order a lower bound before an upper
// bound, so that "touching" boxes count as overlapping both here and in the brute-force oracle.
//
// An inversion of two boxes that do not overlap now needs the pair map only when they overlapped at
// the previous run: the contact list holds exactly the allowed pairs whose boxes overlapped then,
// so a pair that did not overlap then and does not now has no entry to remove (most inversions on
// the bed's short axis are of such far-apart pairs; the map lookup was the collider's main cost).
//
// The collider runs only when some body has moved farther than dL since the last run (reference
// positions, seed eq. (eq-verlet-trigger)): until then no two bodies can have approached by more
// than 2 dL, so no pair outside the list can touch, and contacts that are real stay in the list.
// Pairs of two walls never form contacts.
// For the same reason a potential contact whose gap exceeds 2 dL at a run cannot touch before the
// next run (gap = |x2 - x1| - (r1 + r2), sphere-wall (x1 - p).n_wall - r1): the scene marks such
// contacts dormant and the contact loop skips them until then (Collider::dormant). Both the boxes
// and this criterion take the radii as fixed between runs.

#include "contact_law.hpp"
#include "contacts.hpp"
#include "materials.hpp"
#include "particles.hpp"

#include <cstdint>
#include <limits>
#include <span>
#include <utility>
#include <vector>

namespace dem {

// The gap of the bodies of contact c, body 1 at x1 and body 2 at x2 (its reference point, of the
// periodic image in a cell), and a margin for its round-off and that of the run trigger's distance
// test, for gaps up to `reach`.
struct GapAtRun {
  double gap = -std::numeric_limits<double>::infinity(), margin = 0.0;
  // a lower bound of the gap: while neither body moves farther than m/2, with m below it, they
  // cannot touch
  double lowerBound() const { return gap - margin; }
};
GapAtRun gapAtRun(const Particles& p, const ContactPair& c, const Vec3& x1, const Vec3& x2, double reach);
// Whether that gap exceeds `reach` beyond round-off: then, while neither body moves farther than
// reach/2, they cannot touch. The dormancy test of both colliders.
inline bool apartBeyond(const GapAtRun& g, double reach) { return g.gap > reach + g.margin; }

class Collider {
 public:
  double verletDist = -0.1;  // > 0: absolute sweep length; < 0: fraction of the smallest radius

  // Runs the sweep and prune when needed (first call, body count changed, a body moved farther
  // than dL since the last run). New potential contacts get their physics from the materials.
  // Returns true when it ran.
  bool update(const Particles& p, const std::vector<Material>& materials, ContactStore& contacts);
  // The law of the contacts it creates (their parameters from the law's mixing rule).
  ContactLaw law = ContactLaw::Cundall;

  // With bodyMove2 (p.size() entries): each body's squared distance from its place at the last run
  // (ContactStore::bodyMove2), where the check reaches every body.
  bool needsRun(const Particles& p, float* bodyMove2 = nullptr) const;
  // The farthest any body (a facet: any of its vertices) has moved from its place at the last run,
  // as the last needsRun() found it (0 after a run; +inf before the first): until the next run a
  // contact's gap is at least runGap - 2 moveSinceRun().
  double moveSinceRun() const { return moveSinceRun_; }
  // A lower bound of contact c's gap at the last run (reference positions), less round-off; -inf
  // before the first run.
  double runGap(const Particles& p, const ContactPair& c) const;
  // Whether contact c cannot become real before the next run (for the contact loop to skip it;
  // ContactStore::partition): its gap at the last run (reference positions) exceeds 2 dL by more
  // than round-off, and until the next run no body moves farther than dL from there.
  bool dormant(const Particles& p, const ContactPair& c) const;
  double sweepLength() const { return dL_; }
  std::uint64_t runs() const { return runs_; }
  // Positions at the last run (the boxes were built from them).
  const std::vector<Vec3>& refPos() const { return refPos_; }

  struct Bound {
    double coord;
    std::uint32_t tag;  // id << 1 | 1 for an upper bound
  };
  // The complete internal state (checkpoint/restart, io/checkpoint.hpp): a collider restored from it
  // meets the same inversions in the same order as the original, so the contact list keeps its
  // order and a resumed run is bit-identical (a fresh full sort would not be).
  struct State {
    std::vector<Bound> lists[3];
    std::vector<Vec3> lo, hi, refPos;
    std::vector<Vec3> refVertices;  // the facets' vertices at the last run (3 per facet)
    double dL = 0.0;
    std::uint64_t runs = 0;
    bool initialised = false;
  };
  State state() const;
  // The same state without copying it (a checkpoint is written from it): views of the collider's
  // arrays, valid while the collider is not changed.
  struct StateView {
    std::span<const Bound> lists[3];
    std::span<const Vec3> lo, hi, refPos, refVertices;
    double dL = 0.0;
    std::uint64_t runs = 0;
    bool initialised = false;
  };
  StateView view() const;
  // The bodies moved to other slots (Particles::permute with newSlot): the lists and boxes follow.
  void renumber(const std::vector<std::uint32_t>& newSlot);
  // Throws std::invalid_argument unless the state is consistent with nParticles bodies (list sizes,
  // every id once as a lower and once as an upper bound on each axis).
  void restore(State s, std::size_t nParticles);

 private:
  std::vector<Bound> lists_[3];
  std::vector<Vec3> lo_, hi_, refPos_;
  std::vector<Vec3> refVertices_;
  std::vector<Vec3> loPrev_, hiPrev_;  // boxes of the previous run (incremental runs only)
  double dL_ = 0.0;
  std::uint64_t runs_ = 0;
  bool initialised_ = false;
  // (a by-product of needsRun's pass over the bodies, kept for moveSinceRun)
  mutable double moveSinceRun_ = std::numeric_limits<double>::infinity();
  GapAtRun gapAtRun(const Particles& p, const ContactPair& c) const;

  void computeBoxes(const Particles& p);
  bool overlap(std::uint32_t a, std::uint32_t b) const;
  bool overlappedBefore(std::uint32_t a, std::uint32_t b) const;
  void handleInversion(std::uint32_t a, std::uint32_t b, const Particles& p, const std::vector<Material>& materials,
                       ContactStore& contacts) const;
  void fullRun(const Particles& p, const std::vector<Material>& materials, ContactStore& contacts);
  void sweep(const Particles& p, const std::vector<Material>& materials, ContactStore& contacts) const;
  void insertionSort(int axis, const Particles& p, const std::vector<Material>& materials, ContactStore& contacts);
};

// Sweep length dL for a verletDist setting (negative: fraction of the smallest sphere radius).
double sweepLengthFor(const Particles& p, double verletDist);
// The same from that radius (rMin: the smallest radius of a sphere not in a clump, inf if none).
double sweepLengthFor(double rMin, double verletDist);

// A new potential contact between a and b: ids ordered (sphere-sphere: id1 before id2 in user ids (Particles::userId);
// sphere-wall: id1 = sphere; the shape-pair table), type set, the parameters of law `law` from the materials.
Contact makeContact(const Particles& p, const std::vector<Material>& materials, std::uint32_t a, std::uint32_t b,
                    ContactLaw law = ContactLaw::Cundall);

// Test oracle only: all pairs (lo id, hi id) whose boxes, built from `positions` with sweep length
// dL exactly as the collider builds them, overlap; O(N^2), sorted.
std::vector<std::pair<std::uint32_t, std::uint32_t>> bruteForcePairs(const Particles& p,
                                                                     const std::vector<Vec3>& positions, double dL);

}  // namespace dem
