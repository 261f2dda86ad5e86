#pragma once
// Triangle meshes of the usual containers (issue 21), pure geometry: a box, a cylinder (a drum with
// both caps), a hopper (a frustum open at both ends), and a similarity transform of any mesh. Every
// normal (solver/triangle.hpp: the vertex order, counter-clockwise seen from the side it points to)
// points into the container, towards the side where the particles live. Adjacent triangles share
// their vertices bit for bit, so a closed shape is a closed 2-manifold. Invalid arguments throw
// std::invalid_argument naming the function and the argument.

#include "math.hpp"
#include "triangle.hpp"

namespace dem {

// The box [lo, hi], 12 triangles (10 when open_top: no face z = hi.z), normals inward (to its centre).
// Two triangles per face; needs lo < hi in every component.
TriangleMesh boxMesh(const Vec3& lo, const Vec3& hi, bool open_top);

// A cylinder (a drum with both caps): side and optional caps, normals inward (to the axis; caps to each other).
// The axis runs through base_centre along axis_unit (normalised here: finite and non-zero), from
// base_centre to base_centre + height axis. The side is the prism on the regular polygon of
// `segments` (>= 3) vertices on the circle of `radius`, 2 triangles per segment; each cap (bottom
// at base_centre, top at the other end) a fan of `segments` triangles around its centre. With both
// caps the surface is closed.
TriangleMesh cylinderMesh(const Vec3& base_centre, const Vec3& axis_unit, double radius, double height, int segments,
                          bool bottom_cap, bool top_cap);

// A hopper: frustum from the outlet (r_outlet) up to r_top, open at both ends, normals inward (to the axis).
// The axis runs through outlet_centre along axis_unit (normalised here: finite and non-zero); the
// outlet is the circle of radius r_outlet at outlet_centre (the hole), the top the circle of radius
// r_top at outlet_centre + height axis; regular polygons of `segments` (>= 3) vertices, 2 triangles
// per segment.
TriangleMesh coneMesh(const Vec3& outlet_centre, const Vec3& axis_unit, double r_outlet, double r_top, double height,
                      int segments);

// The mesh moved by x -> R (scale x) + translation, normals turned with it (inward stays inward).
// R is the rotation of `rotation` (normalised here: finite and non-zero); scale > 0 (a reflection
// would turn the normals over).
TriangleMesh transformMesh(TriangleMesh mesh, double scale, const Quat& rotation, const Vec3& translation);

}  // namespace dem
