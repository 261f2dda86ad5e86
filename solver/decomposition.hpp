#pragma once
// Brick decomposition of a scene's space among ranks (issue "Beyond one machine", docs/mpi.md):
// recursive coordinate bisection by body count. In a periodic cell the bricks are boxes in the
// cell's fractional coordinates s = H^-1 x wrapped into [0, 1)^3, so that a sheared, stretched or
// flipped cell is cut as well as a box; without a cell they are boxes in space whose outer faces
// lie at infinity (a body that leaves the packing's box still has an owner).
//
// Bisection: the ranks [r0, r1) of a node split into a lower half of (r1 - r0) / 2 ranks and an
// upper half; the node's bodies split at the coordinate below which the lower half's share of them
// lies (counts in proportion to the ranks), along the axis where the node's bodies spread farthest
// (in a cell: the extent in fractional coordinates times the length of the cell's side). A body
// with coordinate c goes to the lower half when c < cut. The cut is a coordinate of one of the
// bodies (the k-th smallest), so the decomposition depends only on the set of positions, never on
// their order or on which rank computed it: every rank computes the same one.
//
// Ghosts: a body is needed on another rank when it lies within the pair-detection reach w of that
// rank's brick. In fractional coordinates a displacement dx changes s_i by at most
// |row_i(H^-1)| |dx|, so the brick grown by w |row_i(H^-1)| along axis i (periodic images
// included) contains every point within distance w of it; without a cell the brick grows by w.

#include "math.hpp"

#include <cstdint>
#include <optional>
#include <span>
#include <vector>

namespace dem {

class Decomposition {
 public:
  // A brick: the points s with lo <= s < hi on every axis (in a cell lo, hi in [0, 1]; without one
  // the outer faces at -+infinity).
  struct Brick {
    Vec3 lo, hi;
    bool contains(const Vec3& s) const {
      return (s.array() >= lo.array()).all() && (s.array() < hi.array()).all();
    }
  };

  // Bisects the bodies at positions x among `ranks` bricks; H: the periodic cell's side vectors (none:
  // an aperiodic scene). Throws std::invalid_argument for ranks < 1.
  static Decomposition bisect(std::span<const Vec3> x, int ranks, const std::optional<Mat3>& H);

  // A cell that deformed (or flipped) since the bisection: the bricks stay where they are in
  // fractional coordinates, which are now those of H (a partition of space all the same).
  void setCell(const Mat3& H);

  int ranks() const { return static_cast<int>(bricks_.size()); }
  const Brick& brick(int rank) const { return bricks_[static_cast<std::size_t>(rank)]; }
  // The coordinates the bricks are cut in: fractional and wrapped into [0, 1) in a cell, x otherwise.
  Vec3 coordinates(const Vec3& x) const;
  // The rank whose brick holds a body at x.
  int owner(const Vec3& x) const;
  // The ranks other than `self` whose bricks lie within distance `reach` of a body at x (with the
  // periodic images in a cell), in increasing order: where a copy of the body (a ghost) is needed.
  // In a cell the grown bricks must not wrap onto themselves: reach below half the cell's thickness
  // along each axis (throws std::invalid_argument otherwise).
  void ranksNear(const Vec3& x, double reach, int self, std::vector<int>& out) const;

 private:
  struct Node {
    int axis = -1;       // -1: a leaf, the brick of rank `rank`
    double cut = 0.0;    // lower child: coordinate < cut
    int lower = -1, upper = -1, rank = -1;
  };
  std::vector<Node> nodes_;  // nodes_[0] the root
  std::vector<Brick> bricks_;
  std::optional<Mat3> H_;
  Mat3 invH_ = Mat3::Identity();
  Vec3 rowNorm_ = Vec3::Ones();  // |row_i(H^-1)|: a distance's bound on the change of s_i

  int build(std::vector<Vec3>& s, std::size_t begin, std::size_t end, int r0, int r1, const Brick& box);
};

}  // namespace dem
