#pragma once
// Which of a sphere's contacts with the facets of one mesh count, and the tangential history carried
// from facet to facet (issue: no force jump and no lost spring across a shared edge).
//
// Each facet contact is a point contact with the triangle's point closest to the sphere's centre
// (contact_geometry.hpp, SphereFacet), on the triangle's face, one of its edges or one of its
// vertices (facet_geometry.hpp). Near an edge or a vertex shared by several facets of a mesh the
// sphere overlaps each of them; counted alone, a sphere rolling over a flat mesh would feel two or
// more forces there. The rule (shadowed contacts are eliminated, in the spirit of Kremmer & Favier
// 2001 and Hu et al. 2013): among the touching contacts of one sphere with one mesh, contact c is
// left out when another touching contact o is deeper (a smaller distance |x_o - x1| from the centre
// x1 to its closest point; on a tie, the smaller facet id) and c's closest point lies on or behind
// o's contact plane (through x_o, normal (x1 - x_o)/|x1 - x_o|; within 1e-9 r1):
//   - flat mesh: every other facet's closest point lies in the plane: one contact, the deepest
//     (the face under the centre, or one of the facets meeting at the edge or vertex under it);
//   - convex edge or vertex: the mesh lies behind the contact plane: one contact;
//   - concave edge (a container's corner): each face's closest point lies in front of the other's
//     plane: both count, as against two walls; likewise a sphere on a floor touching a step's edge.
// A contact left out is given to the kernel as apart (u_N > 0): if it was real, it separates with
// the usual booking of its stored shear energy.
// History: a contact that counts and was not real at the last step takes over the history (frame,
// shear state, rotation, dashpot force: every history column) of the same sphere's contact with a
// neighbouring facet of the same mesh (one sharing a vertex) that was real at the last step and
// does not count now (left out or apart): the lowest facet id of those, each one given once. The
// spring then continues across the edge; the giver is reset as a contact that separated without
// releasing its energy (it moved with the history). Both flags changes are noted in the store.
//
// Limits. Flat and convex meshes: one contact where the sphere crosses an edge, no jump in the
// force on a flat mesh (the closest point and the normal are continuous there). Facets of
// different meshes never merge. History moves only between facets sharing a vertex, and a mesh's
// vertices are shared only where their coordinates are equal (Particles::addMesh): on a mesh whose
// neighbouring triangles do not share exact vertices a rolling sphere keeps one contact but its
// spring restarts at each edge.

#include "contacts.hpp"
#include "particles.hpp"

#include <cstdint>
#include <vector>

namespace dem {

struct FacetContactScratch {
  struct Candidate {
    std::uint32_t sphere, mesh, facet;  // particle ids of the sphere and the facet, the mesh index
    std::uint32_t k;                    // the contact's index
    Vec3 point;                         // the closest point x_o
    double distance;                    // |x_o - x1|
    bool touching;                      // u_N < 0
    bool wasReal;
  };
  std::vector<Candidate> candidates;
  std::vector<std::uint8_t> leftOut;  // per contact index, facet contacts only: 1 = given to the kernel as apart
  std::vector<Vec3> points;           // per contact index, facet contacts only: the closest point (secondPoint)
};

// Decides, for the active contacts [0, end) of `cs`, which sphere-facet contacts are left out
// (scratch.leftOut, at least `end` entries; only the sphere-facet contacts' are set, the others are
// not meaningful) and moves histories as described above. Returns whether any real flag changed (noted in the store).
// H: the periodic cell's (nullptr without a cell); a contact sees the facet's image by its cellDist
// (contact_geometry.hpp, secondPoint).
bool resolveFacetContacts(const Particles& p, ContactStore& cs, std::size_t end, FacetContactScratch& scratch,
                          const Mat3* H);

// The input distance vector that a contact left out is given: the same direction at twice the
// sphere's radius (u_N = r1 > 0), or along x when the centre lies on the facet.
Vec3 apartDistance(const Vec3& d, double r1);

}  // namespace dem
