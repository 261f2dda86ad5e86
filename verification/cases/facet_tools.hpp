#pragma once
// Shared by the facet cases: meshes built from quads, and the comparison of a scene with mesh walls
// against the same scene with analytic walls, step by step.

#include "harness/case.hpp"
#include "solver/scene.hpp"
#include "solver/triangle.hpp"

#include <algorithm>
#include <cstdint>
#include <initializer_list>
#include <limits>
#include <string>

namespace dem::verify {

// The quad (a, b, c, d) (counter-clockwise) as two triangles split along a-c.
inline void addQuad(TriangleMesh& m, const Vec3& a, const Vec3& b, const Vec3& c, const Vec3& d) {
  m.push_back({{a, b, c}});
  m.push_back({{a, c, d}});
}

// An n x n grid of squares of side h in the plane z = z0 from (x0, y0), each split into two
// triangles along alternating diagonals (vertices shared by up to six triangles).
inline TriangleMesh gridMesh(double x0, double y0, double z0, double h, int n) {
  TriangleMesh m;
  const auto v = [&](int i, int j) { return Vec3(x0 + i * h, y0 + j * h, z0); };
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < n; ++j) {
      if ((i + j) % 2 == 0) addQuad(m, v(i, j), v(i + 1, j), v(i + 1, j + 1), v(i, j + 1));
      else addQuad(m, v(i + 1, j), v(i + 1, j + 1), v(i, j + 1), v(i, j));
    }
  return m;
}

// Largest differences between two runs of one sphere (particle ids sa, sb in scenes a, b), over all
// steps: position / lengthScale, velocity and R w / velocityScale, total contact force on the sphere
// / forceScale.
struct Divergence {
  double pos = 0.0, vel = 0.0, spin = 0.0, force = 0.0;
};

// The sum of the contact forces on sphere i (contacts where it is particle 1).
inline Vec3 contactForceOn(const Scene& s, std::uint32_t i) {
  Vec3 f = Vec3::Zero();
  for (std::size_t k = 0; k < s.contacts.size(); ++k)
    if (s.contacts.real(k) && s.contacts.id1(k) == i) f += s.contacts.vec(col::fx, k);
  return f;
}

// How many of sphere i's contacts with facets are real.
inline int realFacetContacts(const Scene& s, std::uint32_t i) {
  int n = 0;
  for (std::size_t k = 0; k < s.contacts.size(); ++k)
    n += s.contacts.real(k) && s.contacts.id1(k) == i && s.contacts.type(k) == ContactType::SphereFacet;
  return n;
}

inline void accumulate(Divergence& d, const Scene& a, std::uint32_t sa, const Scene& b, std::uint32_t sb, double R,
                       double lengthScale, double velocityScale, double forceScale) {
  const Particles& p = a.particles;
  const Particles& q = b.particles;
  d.pos = std::max(d.pos, (p.pos[sa] - q.pos[sb]).norm() / lengthScale);
  d.vel = std::max(d.vel, (p.vel[sa] - q.vel[sb]).norm() / velocityScale);
  d.spin = std::max(d.spin, R * (p.angVel[sa] - q.angVel[sb]).norm() / velocityScale);
  d.force = std::max(d.force, (contactForceOn(a, sa) - contactForceOn(b, sb)).norm() / forceScale);
}

// Round-off bound for the comparison of two runs of n steps whose every step differs by a few
// ulps of the same operations (the facet's normal d/|d| against the wall's exact normal): the
// differences add up at most linearly, 16 eps per step relative to the quantity's scale.
inline double roundOffBound(std::uint64_t steps) {
  return 16.0 * static_cast<double>(steps) * std::numeric_limits<double>::epsilon();
}

// The four divergence quantities (Divergence: position_diff .. force_diff, prefixed) with the
// round-off bound of `steps` steps, and checks that must be exactly zero (`exact`, prefixed).
inline void addComparisonQuantities(Case& c, std::uint64_t steps, const std::string& prefix,
                                    std::initializer_list<const char*> exact) {
  const double bound = roundOffBound(steps);
  for (const char* q : {"position_diff", "velocity_diff", "spin_diff", "force_diff"})
    c.quantities.push_back(
        roundOffTolerance({prefix + q, [=](double) { return bound; }, std::nullopt}, "16 eps n (n steps)"));
  for (const char* q : exact)
    c.quantities.push_back(roundOffTolerance({prefix + q, [](double) { return 0.0; }, std::nullopt}));
}

inline void storeDivergence(RunOutput& out, const Divergence& d, const std::string& prefix) {
  out.errors[prefix + "position_diff"] = d.pos;
  out.errors[prefix + "velocity_diff"] = d.vel;
  out.errors[prefix + "spin_diff"] = d.spin;
  out.errors[prefix + "force_diff"] = d.force;
}

}  // namespace dem::verify
