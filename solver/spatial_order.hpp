#pragma once
// Spatial order of the bodies in storage (issue: particles stored in input order make consecutive
// contacts read bodies far apart in memory). The movable bodies (Particles::movable: spheres that
// are no clump members) are renumbered in slabs of a grid along the longest extent of the packing,
// then the next, then the shortest (within a slab the bodies with a blocked axis and aspherical
// ones after the others, which the integrator steps in lanes): a contact's two bodies then lie
// within about two slabs' bodies of each other in storage. Scene::renumber applies it; no result depends on it (sums in
// the order of user ids: Particles::userId).

#include "cell.hpp"
#include "contacts.hpp"
#include "particles.hpp"

#include <cstdint>
#include <vector>

namespace dem {

// Contacts whose bodies' slots differ by more than this are counted as far apart (farContactShare):
// a few thousand bodies' state fits the core's second-level cache.
inline constexpr std::uint32_t kLocalityWindow = 4096;

// The share of the active contacts (those before activeEnd(): real, or may touch before the
// collider's next run) between two spheres whose slots differ by more than kLocalityWindow (0
// without such contacts).
double farContactShare(const ContactStore& contacts);

// newSlot for Particles::permute: the movable bodies in the slots the movable bodies hold now, in
// the order of the grid's slabs (cell: the bodies' places wrapped into the cell, whose lattice
// makes the two ends of each slab neighbours), the others where they are.
std::vector<std::uint32_t> spatialOrder(const Particles& p, const Cell* cell);

}  // namespace dem
