#pragma once
// The point of a facet (a triangle of a mesh wall) closest to a sphere's centre, and the feature of
// the triangle it lies on: the face, an edge or a vertex (Ericson, Real-Time Collision Detection,
// section 5.1.5, by the Voronoi regions of the triangle's features). A sphere touches a facet as it
// would touch a sphere of radius 0 at that point (contact_geometry.hpp, SphereFacet): inside the
// face the normal is the triangle's (to round-off), and it turns continuously around an edge or a
// vertex (a point contact there).

#include "particles.hpp"

#include <cstdint>

namespace dem {

struct FacetPoint {
  Vec3 x;                // the closest point of the triangle
  std::uint8_t feature;  // the triangle's vertices (bits 0, 1, 2) of the feature x lies on:
                         // three bits the face, two an edge, one a vertex
};

inline constexpr std::uint8_t kFaceFeature = 0b111;

// The point of the triangle (a, b, c) closest to x, and its feature (Ericson 5.1.5).
FacetPoint closestPointOnTriangle(const Vec3& x, const Vec3& a, const Vec3& b, const Vec3& c);

inline FacetPoint closestPointOnFacet(const Facet& f, const Vec3& x) {
  return closestPointOnTriangle(x, f.v[0], f.v[1], f.v[2]);
}

}  // namespace dem
