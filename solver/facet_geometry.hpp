#pragma once
// The point of a facet (a triangle of a mesh wall) closest to a sphere's centre: on the face, an
// edge or a vertex (Ericson, Real-Time Collision Detection, section 5.1.5, by the Voronoi regions
// of the triangle's features). A sphere touches a facet as it
// would touch a sphere of radius 0 at that point (contact_geometry.hpp, SphereFacet): inside the
// face the normal is the triangle's (to round-off), and it turns continuously around an edge or a
// vertex (a point contact there).

#include "particles.hpp"

namespace dem {

// The point of the triangle (a, b, c) closest to x (Ericson 5.1.5).
Vec3 closestPointOnTriangle(const Vec3& x, const Vec3& a, const Vec3& b, const Vec3& c);

inline Vec3 closestPointOnFacet(const Facet& f, const Vec3& x) {
  return closestPointOnTriangle(x, f.v[0], f.v[1], f.v[2]);
}

// The point of the facet's periodic image f + offset (offset = H k, contact_geometry.hpp) closest to
// x: the image's closest point is the facet's closest point to x - offset, shifted back (the one
// image-aware closest point, for every reader of a facet contact's geometry or gap).
inline Vec3 closestPointOnFacetImage(const Facet& f, const Vec3& x, const Vec3& offset) {
  if (offset == Vec3::Zero()) return closestPointOnFacet(f, x);  // (the same bits as without a cell)
  return closestPointOnFacet(f, x - offset) + offset;
}

}  // namespace dem
