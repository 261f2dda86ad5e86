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
// Verlet skip in a deforming cell (the periodic counterpart of the aperiodic collider's reference
// positions, Yade's periodic InsertionSortCollider). A run stores each body's box: centre c_i = s_i
// and half-widths h_i,w = (r_i + dL) |row_w(H_run^{-1})| of the run's configuration. The sphere
// itself now occupies, in the current transformed coordinates, the box centred on s_i(t) = H^{-1} x_i
// with half-widths r_i |row_w(H^{-1})| (support function of the ellipsoid H^{-1} B(x_i, r_i)). The
// collider skips the step only when every such true box is contained in the stored box:
//   |s_i,w(t) - c_i,w| + r_i |row_w(H^{-1}(t))| + eps_i,w <= h_i,w     for every body i, axis w,  (V)
// which accounts for both the particle's displacement (s_i moves) and the change of H since the run
// (the row norms change; an affine motion with the cell keeps s_i and only consumes dL through the
// rows). eps_i,w = 16 eps (|row_w| |x_i| + |c_i,w| + h_i,w) covers the rounding of s and of the
// stored box. Proof that no contact is missed while (V) holds: if the spheres of i and j overlap
// with j's image x_j + H k, a common point p has |(H^{-1} p) - s_i|_w <= r_i |row_w| and
// |(H^{-1} p) - (s_j + k)|_w <= r_j |row_w|, so the true boxes of i and of j shifted by k overlap on
// every axis, hence by (V) the stored boxes overlap with the offset k; as each stored box is
// narrower than half the cell (h < 1/4, checked at the run), |c_i,w - c_j,w - k_w| <= h_i,w + h_j,w
// < 1/2 and k_w = round(c_i,w - c_j,w) is the image the run tested: the pair is in the list with
// cellDist = k (the list holds exactly the pairs whose stored boxes overlap). Clump bodies have no
// box and are not checked (their members are). The check costs one 3x3 product per body. A run is also forced on the
// first update, when the body count or dL changed, and after invalidate() (a cell flip changes the basis of s, so the
// stored boxes are meaningless).
//
// Dormant contacts in a cell (the counterpart of Collider::dormant). While H is still the run's
// H_run, the collider also runs when a centre has moved farther than dL from its place at the run,
// x_i,ref = H_run c_i (criterion (E), the aperiodic collider's trigger; in a static cell it implies
// (V)). A potential contact whose gap at the run, with body 2's image at H_run (c_2 + k), exceeds
// 2 dL by more than round-off cannot touch before the next run or before H changes (dormant());
// the scene wakes every dormant contact as soon as H differs from H_run (dormancyHolds()), and (E)
// applies only while it does not. H_run is part of the State (a state without it marks nothing
// dormant until the next run).
//
// Persistent state (State, for checkpoints): the three bound lists with their boundary index, the
// stored boxes (c, h), dL and the run counters; a collider restored from it continues bit-identically.
// The bound lists carry the insertion sort's history (bound periods, the position of ||, order among
// equal coordinates), so a fresh full run would not meet the same inversions nor add contacts in the
// same order: a checkpoint must save the state rather than rebuild it.
//
// Boundaries (walls and mesh facets) in a cell.
//   Facet: a body of the sweep like a sphere; its box is the box of its vertices' H^{-1} v_k grown
//   by dL |row_w(H^{-1})| (the triangle +- dL), and it too must be narrower than half the cell (a
//   larger facet is refused: subdivide the mesh). Its contacts see the facet's image facet + H k
//   (contact_geometry.hpp, secondPoint: closestPointOnFacetImage). Criterion (V) holds for it with
//   the vertices' current box as its true box (a moving mesh moves its vertices: the collider runs
//   when a facet leaves its stored box), by the proof above with a point of the triangle for the
//   sphere's centre. Criterion (E) and dormancy do not measure vertices: a facet of a moving mesh is
//   never dormant (gapAtRun: -inf), one of a fixed mesh has its vertices of the run.
//   Wall: an infinite plane (normal a through x_w) has the images a . (x - x_w - H k) = 0. They are
//   a lattice of planes only when the plane is parallel to two of the cell's columns, a . h_j = 0
//   (|a . h_j| <= kWallParallel |h_j|) for j != m (wallCellAxis): in transformed coordinates the
//   wall is then the axis-aligned plane s_m = (H^{-1} x_w)_m (row_m(H^{-1}) is parallel to a) and
//   its images s_m + k_m. Its box is that slab, half-width dL |row_m(H^{-1})| on axis m, spanning
//   the other two axes (stored as 0 there); it cannot be sorted, so every run tests each sphere
//   against each wall (wallPass, as the aperiodic collider tests its large bodies against every
//   box) with the nearest image k_m = round(s1_m - s_wall,m), k = k_m e_m (periodicWallOverlap),
//   the pair (sphere, wall) with cellDist k when the boxes overlap along m: |d_k| <= r + 2 dL with
//   d_k the sphere centre's signed distance to the image plane, the aperiodic collider's slab of an
//   axis-aligned wall. (V) holds for a wall along axis m (a wall with a prescribed velocity moves
//   its slab), and a run is forced when a wall's axis is no longer the run's; (E) measures a wall
//   like a sphere. The wall's bounds stay in the lists (zero width on the other axes) but the sweep
//   never pairs them. A sphere sees only the nearest image: as in an aperiodic scene a wall is a
//   half-space only within that slab, and the period along the wall's normal must be large enough
//   that no sphere reaches the next image from behind (a floor with the period far above the bed).
//
// Errors (std::invalid_argument): a box as wide as half the cell or more along a transformed axis
// (seed: "particles do not span more than half of the current cell size"; a facet: subdivide the
// mesh), a wall not parallel to two of the cell's side vectors (at a run, also when the cell has
// deformed so that it no longer is).

#include "cell.hpp"
#include "collider.hpp"
#include "contact_law.hpp"
#include "contacts.hpp"
#include "materials.hpp"
#include "particles.hpp"

#include <array>
#include <cstdint>
#include <limits>
#include <span>
#include <string>
#include <tuple>
#include <vector>

namespace dem {

// Relative round-off of the test a . h_j = 0 (a unit wall normal, h_j a column of H):
// |a . h_j| <= kWallParallel |h_j|. Normalising a and forming the dot product err by a few eps; the
// margin leaves room for the round-off that H's update (cell.hpp, eq. (33)) may accumulate.
inline constexpr double kWallParallel = 1e-12;
// The column m of H to which a wall with unit normal `normal` is not parallel, when it is parallel
// to the two others (normal . h_j = 0 to round-off); -1 otherwise (not meaningful in the cell).
int wallCellAxis(const Vec3& normal, const Mat3& H);
// Periodic overlap of body 1's box (s1, h1) with a wall's slab (s2, h2) along its cell axis m: on
// overlap, k = k_m e_m with k_m = round(s1_m - s2_m), the wall's nearest image.
bool periodicWallOverlap(const Vec3& s1, const Vec3& h1, const Vec3& s2, const Vec3& h2, int m, Eigen::Vector3i& k);
// What is wrong with body i in this cell with sweep length dL (its box as wide as half the cell, a
// wall not parallel to two side vectors), as the collider's run reports it; empty when nothing.
std::string periodicBodyProblem(const Particles& p, std::size_t i, const Cell& cell, double dL);

// Gives the vertices of each mesh that lie at the same place modulo the cell's lattice (their
// reference positions v0 differ by H k, k integer, to round-off: fractional coordinates equal modulo
// 1 within 1e-12) the same id, so that a mesh periodic in the cell (a floor whose edge vertices at
// x = 0 and x = L_x meet) is connected across the periodic boundary: a sphere rolling over the seam
// keeps one contact and its spring (facet_contacts.hpp). Ids stay below Mesh::vertices. Idempotent.
void sharePeriodicVertices(Particles& p, const Mat3& H);

class PeriodicCollider {
 public:
  double verletDist = -0.1;  // as Collider::verletDist
  // An incremental run is a full run instead when its bounds' lists hold more than
  // kScrambledDescents descents per body (a bound before a smaller one: at least one move each), and
  // gives up for a full run once its insertion sort has done about the work of a full run:
  // kSortWorkPerBody per body, a bound's move counting 1 and an inversion of a pair the sweep tests
  // kInversionWork (its boxes' test and the pair map's lookup). Bodies that overtake many others
  // between two runs (a cloud poured from a grid, whose layers' bounds, nearly equal, are shuffled)
  // made the insertion sort quadratic: up to 2.4e6 moves, 60-100 ms per run of 10^4 bodies, against
  // about 20 ms for a full run (docs/performance.md, dynamic scenes).
  static constexpr double kScrambledDescents = 0.75;
  static constexpr std::size_t kSortWorkPerBody = 200, kInversionWork = 12;

  // Updates the potential contacts for the current positions and cell when needsRun(); returns
  // whether it ran.
  bool update(const Particles& p, const Cell& cell, const std::vector<Material>& materials, ContactStore& contacts);
  // The law of the contacts it creates (their parameters from the law's mixing rule).
  ContactLaw law = ContactLaw::Cundall;
  // True unless criterion (V) above (and (E) while H is the run's: see dormant contacts) holds for
  // every body (and the lists are valid for these bodies and this dL).
  // With bodyMove2 (p.size() entries): each sphere's squared distance from its place at the last run
  // while H is the run's (ContactStore::bodyMove2), +inf for the other bodies.
  bool needsRun(const Particles& p, const Cell& cell, float* bodyMove2 = nullptr) const;
  // Whether contact c cannot touch before the next run while H stays the run's (see above); false
  // before the first run and without H_run.
  bool dormant(const Particles& p, const ContactPair& c) const;
  // As Collider::moveSinceRun, while H is the run's (criterion E, from the last needsRun); +inf
  // otherwise. And a lower bound of contact c's gap at the last run (its image's place at the run;
  // -inf before the first run and without H_run).
  double moveSinceRun() const { return moveSinceRun_; }
  double runGap(const Particles& p, const ContactPair& c) const;
  // Whether the dormant marks of the last run still hold: H is the run's.
  bool dormancyHolds(const Cell& cell) const { return hRunValid_ && cell.H() == hRun_; }
  // Forces a full rebuild at the next update (after a cell flip, seed: invalidatePersistentData).
  void invalidate() {
    initialised_ = false;
    hRunValid_ = false;
  }
  double sweepLength() const { return dL_; }
  std::uint64_t runs() const { return runs_; }
  std::uint64_t fullRuns() const { return fullRuns_; }
  // Of the full runs since this collider was made or restored (restore), those chosen because
  // the incremental run would have cost more (kScrambledDescents, kSortWorkPerBody).
  std::uint64_t fullRunsForCost() const { return fullRunsForCost_; }

  struct Bound {
    double coord;
    std::int32_t period;
    std::uint32_t tag;  // id << 1 | 1 for an upper bound
  };
  // The complete internal state (checkpoint/restart): lists[w] with the index lo[w] of its first
  // element right of the periodic boundary, the stored boxes (centres s, half-widths half, in the
  // transformed coordinates of the last run), dL, the run counters, and whether the lists are valid
  // (false before the first run and after a flip: nothing else is needed then).
  struct State {
    std::vector<Bound> lists[3];
    std::size_t lo[3] = {0, 0, 0};
    std::vector<Vec3> s, half;
    double dL = 0.0;
    std::uint64_t runs = 0, fullRuns = 0;
    bool initialised = false;
    Mat3 hRun = Mat3::Zero();  // H at the last run, when hRunValid (dormancy; checkpoints since version 6)
    bool hRunValid = false;
  };
  State state() const;
  // The same state without copying it (a checkpoint is written from it): views of the collider's
  // arrays, valid while the collider is not changed.
  struct StateView {
    std::span<const Bound> lists[3];
    std::size_t lo[3] = {0, 0, 0};
    std::span<const Vec3> s, half;
    double dL = 0.0;
    std::uint64_t runs = 0, fullRuns = 0;
    bool initialised = false;
    Mat3 hRun = Mat3::Zero();
    bool hRunValid = false;
  };
  StateView view() const;
  // The bodies moved to other slots (Particles::permute with newSlot): the lists and boxes follow.
  void renumber(const std::vector<std::uint32_t>& newSlot);
  // Throws std::invalid_argument unless the state is consistent with nParticles bodies (list sizes,
  // boundary indices, every id once as a lower and once as an upper bound on each axis, finite
  // boxes).
  void restore(State s, std::size_t nParticles);

 private:
  // needsRun's test of the kLanes bodies from i0 at once (while H is the run's): true if every one is
  // a sphere within dL - margin of its place at the run; their radii, squared moves and move2Rung
  // then go to rMin, move2 and bodyMove2 as the body-by-body test gives them. False otherwise (the
  // group then takes that test).
  bool withinMargin(const Particles& p, std::size_t i0, double kappa, double& rMin, double& move2,
                    float* bodyMove2) const;
  struct List {
    std::vector<Bound> v;
    std::size_t lo = 0;  // index of the first element right of the periodic boundary ||
  };
  List lists_[3];
  std::vector<Vec3> s_, half_;  // transformed centres and half-widths of the boxes (last run)
  double dL_ = 0.0;
  std::uint64_t runs_ = 0, fullRuns_ = 0, fullRunsForCost_ = 0;
  bool initialised_ = false;
  Mat3 hRun_ = Mat3::Zero();  // H at the last run (criterion (E) and dormancy), when hRunValid_
  bool hRunValid_ = false;
  // (a by-product of needsRun's pass over the bodies, kept for moveSinceRun)
  mutable double moveSinceRun_ = std::numeric_limits<double>::infinity();
  // body 1's and body 2's image's places at the run (GapAtRun{} without H_run)
  GapAtRun gapAtRun(const Particles& p, const ContactPair& c) const;
  void computeBoxes(const Particles& p, const Cell& cell);
  // Whether the stored boxes of bodies i1, i2 (a contact's order) overlap, through i2's image k.
  bool overlapAt(const Particles& p, std::uint32_t i1, std::uint32_t i2, Eigen::Vector3i& k) const;
  void wallPass(const Particles& p, const std::vector<Material>& materials, ContactStore& contacts) const;
  void handleInversion(std::uint32_t a, std::uint32_t b, const Particles& p, const std::vector<Material>& materials,
                       ContactStore& contacts) const;
  // The pair (i1, i2) (a contact's order) whose boxes overlap through i2's image k: added, or its
  // image updated while it is not real.
  void addOverlapping(std::uint32_t i1, std::uint32_t i2, const Eigen::Vector3i& k, const Particles& p,
                      const std::vector<Material>& materials, ContactStore& contacts) const;
  // A box in fullRun's grid: transformed centre and half-widths as floats, the place of its lower
  // bound in the x list, its body.
  struct GridBox {
    Eigen::Vector3f s, h;
    std::uint32_t posLo, id;
  };
  void fullRun(const Particles& p, const std::vector<Material>& materials, ContactStore& contacts);
  // One pass; `work` is what is left of the run's budget (kSortWorkPerBody per body, a move of a
  // bound costing 1 and an inversion of a pair the sweep tests kInversionWork): when it is spent the
  // pass stops between two elements (the list a valid permutation, the contacts those of the
  // inversions handled) and returns true.
  bool insertionSortPass(int axis, const Particles& p, const std::vector<Material>& materials, ContactStore& contacts,
                         std::size_t& work);
};

// Periodic overlap of the boxes of a and b (transformed centres s, half-widths h); on overlap, k is
// the cell offset of the image of b that overlaps a (b's position + H k).
bool periodicBoxesOverlap(const Vec3& sa, const Vec3& ha, const Vec3& sb, const Vec3& hb, Eigen::Vector3i& k);

// Test oracle only: all pairs (id1, id2 in a contact's order, cellDist) whose boxes overlap in the
// periodic cell, built from the current positions exactly as the collider builds them (walls with
// their nearest image); O(N^2), sorted.
using PeriodicPair = std::tuple<std::uint32_t, std::uint32_t, std::array<int, 3>>;
std::vector<PeriodicPair> bruteForcePeriodicPairs(const Particles& p, const Cell& cell, double dL);

}  // namespace dem
