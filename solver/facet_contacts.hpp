#pragma once
// Which of a sphere's contacts with the facets of one mesh count, and the tangential history carried
// from facet to facet (issue: no force jump and no lost spring across a shared edge).
//
// Each facet contact is a point contact with the triangle's point closest to the sphere's centre
// (contact_geometry.hpp, SphereFacet), on the triangle's face, one of its edges or one of its
// vertices (facet_geometry.hpp). Near an edge or a vertex shared by several facets of a mesh the
// sphere overlaps each of them; counted alone, a sphere rolling over a flat mesh would feel two or
// more forces there. The rule (contact-feature elimination on the mesh's connectivity, in the
// spirit of Kremmer & Favier 2001 and Hu et al. 2013): among the touching contacts of one sphere
// with one mesh, a contact whose closest point lies on an edge or a vertex is left out when
//   - another touching contact's feature contains that edge or vertex (the face of a facet having
//     that edge, or an edge having that vertex), or
//   - another touching contact lies on the same edge or vertex and its facet has a smaller id
//     (one contact per shared feature).
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
// force on a flat mesh (the closest point and the normal are continuous there). At a concave edge
// (a corner of a container) the sphere touching both faces has two face contacts, as against two
// walls. Facets of different meshes never merge. The rule takes a mesh's vertices as shared only
// where their coordinates are equal (Particles::addMesh): a mesh whose neighbouring triangles do not
// share exact vertices is a set of separate triangles.

#include "contacts.hpp"
#include "particles.hpp"

#include <cstdint>
#include <vector>

namespace dem {

struct FacetContactScratch {
  struct Candidate {
    std::uint32_t sphere, mesh, facet;  // particle ids of the sphere and the facet, the mesh index
    std::uint32_t k;                    // the contact's index
    std::uint8_t feature;               // the facet's vertices of the closest point's feature (bits)
    bool touching;                      // u_N < 0
    bool wasReal;
  };
  std::vector<Candidate> candidates;
  std::vector<std::uint8_t> leftOut;  // per contact index: 1 = given to the kernel as apart
};

// Decides, for the active contacts [0, end) of `cs`, which sphere-facet contacts are left out
// (scratch.leftOut, sized to end; all zero without facet contacts) and moves histories as described
// above. Returns whether any real flag changed (noted in the store).
bool resolveFacetContacts(const Particles& p, ContactStore& cs, std::size_t end, FacetContactScratch& scratch);

// The input distance vector that a contact left out is given: the same direction at twice the
// sphere's radius (u_N = r1 > 0), or along x when the centre lies on the facet.
Vec3 apartDistance(const Vec3& d, double r1);

}  // namespace dem
