#include "start_overlap.hpp"

#include "solver/contact_geometry.hpp"

#include <algorithm>
#include <sstream>

namespace dem::io {

// Overlap of a pair the collider holds: -u_N of its shape-pair geometry (solver/contact_geometry.hpp).
StartOverlap startOverlap(Scene& scene) {
  StartOverlap o;
  if (scene.particles.size() < 2) return o;
  scene.updateCollider();
  const Particles& p = scene.particles;
  const Mat3* H = scene.cell ? &scene.cell->H() : nullptr;
  const ContactStore& c = scene.contacts;
  for (std::size_t k = 0; k < c.size(); ++k) {
    const std::uint32_t i1 = c.id1(k), i2 = c.id2(k);
    const Vec3 x2 = secondPoint(p, c.type(k), i1, i2, c.cellDist(k), H);
    const double overlap = -contactGeometry(pairInput(p, c.type(k), i1, i2, x2), c.type(k)).uN;
    if (!(overlap > 0.0)) continue;
    ++o.pairs;
    if (overlap <= o.largest) continue;
    o.largest = overlap;
    o.id1 = p.userId[i1];  // (user ids)
    o.id2 = p.userId[i2];
    o.smallerRadius = p.isBoundary(i2) ? p.radius[i1] : std::min(p.radius[i1], p.radius[i2]);
  }
  return o;
}

std::string formatStartOverlap(const StartOverlap& o) {
  std::ostringstream s;
  s.precision(4);
  s << o.pairs << (o.pairs == 1 ? " pair" : " pairs") << " of bodies overlap at the start; the largest overlap is "
    << o.largest << " m (bodies " << o.id1 << " and " << o.id2 << ", " << o.largest / o.smallerRadius
    << " of the smaller radius): the contact force of the overlap pushes them apart at the first step";
  return s.str();
}

}  // namespace dem::io
