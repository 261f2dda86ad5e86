#include "facet_geometry.hpp"

namespace dem {

// Ericson 5.1.5: the Voronoi region of x among the vertices, edges and face of (a, b, c) from the
// signs of the barycentric-type dot products d1 .. d6; the projection on that feature.
Vec3 closestPointOnTriangle(const Vec3& x, const Vec3& a, const Vec3& b, const Vec3& c) {
  const Vec3 ab = b - a, ac = c - a, ax = x - a;
  const double d1 = ab.dot(ax), d2 = ac.dot(ax);
  if (d1 <= 0.0 && d2 <= 0.0) return a;  // vertex a
  const Vec3 bx = x - b;
  const double d3 = ab.dot(bx), d4 = ac.dot(bx);
  if (d3 >= 0.0 && d4 <= d3) return b;  // vertex b
  const double vc = d1 * d4 - d3 * d2;
  if (vc <= 0.0 && d1 >= 0.0 && d3 <= 0.0) return a + (d1 / (d1 - d3)) * ab;  // edge ab
  const Vec3 cx = x - c;
  const double d5 = ab.dot(cx), d6 = ac.dot(cx);
  if (d6 >= 0.0 && d5 <= d6) return c;  // vertex c
  const double vb = d5 * d2 - d1 * d6;
  if (vb <= 0.0 && d2 >= 0.0 && d6 <= 0.0) return a + (d2 / (d2 - d6)) * ac;  // edge ac
  const double va = d3 * d6 - d5 * d4;
  if (va <= 0.0 && (d4 - d3) >= 0.0 && (d5 - d6) >= 0.0)
    return b + ((d4 - d3) / ((d4 - d3) + (d5 - d6))) * (c - b);  // edge bc
  // inside the face: x minus its distance along the unit normal (the projection on the plane)
  const Vec3 n = ab.cross(ac).normalized();
  return x - n.dot(ax) * n;
}

}  // namespace dem
