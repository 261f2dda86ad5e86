#pragma once
// Packing (solid volume) fraction: the volume of the spheres (every particle with a spherical
// shape: spheres, clump members, bodies; overlapping clump members counted in full) over a volume.
//   box:  the spheres whose centre lies in [lo, hi) (a sphere cut by the box's faces counts in
//         full or not at all: an error of the order of (surface / volume) x radius of the box)
//   cell: every sphere over the cell's volume det H
// Positions and H at `time` (after the step). Sums run serially in id order.

#include "cell.hpp"
#include "particles.hpp"

namespace dem {

double packingFractionInBox(const Particles& p, const Vec3& lo, const Vec3& hi);
double packingFractionInCell(const Particles& p, const Cell& cell);

}  // namespace dem
