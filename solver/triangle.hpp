#pragma once
// A triangle in space (a facet of a mesh wall): three vertices in counter-clockwise order seen from
// the side its normal (v1 - v0) x (v2 - v0) points to. Meshes read from STL files and built by the
// generators (mesh_generators.hpp) are lists of triangles.

#include "math.hpp"

#include <array>
#include <vector>

namespace dem {

struct Triangle {
  std::array<Vec3, 3> v;
  // (v1 - v0) x (v2 - v0): twice the area times the unit normal
  Vec3 areaNormal() const { return (v[1] - v[0]).cross(v[2] - v[0]); }
};

using TriangleMesh = std::vector<Triangle>;

}  // namespace dem
