#include "facet_contacts.hpp"

#include "contact_geometry.hpp"

#include <algorithm>
#include <cmath>

namespace dem {

namespace {

using Candidate = FacetContactScratch::Candidate;

// Whether touching candidate c is left out because of o: o is deeper (ties: the smaller facet id)
// and c's closest point lies on or behind o's contact plane (facet_contacts.hpp).
bool shadowedBy(const Candidate& c, const Candidate& o, const Vec3& centre, double r1) {
  if (!(o.distance < c.distance || (o.distance == c.distance && o.facet < c.facet))) return false;
  if (!(o.distance > 0.0)) return true;  // (the centre on o: everything else is behind)
  const Vec3 n = (centre - o.point) / o.distance;
  return (c.point - o.point).dot(n) <= 1e-9 * r1;
}
bool neighbours(const Particles& p, std::uint32_t facetA, std::uint32_t facetB) {
  const Facet& a = p.facets[p.shapeIndex[facetA]];
  const Facet& b = p.facets[p.shapeIndex[facetB]];
  for (const std::uint32_t v : a.vertex)
    if (std::find(b.vertex.begin(), b.vertex.end(), v) != b.vertex.end()) return true;
  return false;
}

// The history columns of a contact (everything the kernel reads of its last step).
constexpr std::size_t kHistory[] = {col::qw,   col::qx,    col::qy,    col::qz,   col::px,   col::py,
                                    col::pz,   col::ux,    col::uy,    col::uz,   col::phix, col::phiy,
                                    col::phiz, col::dampN, col::dampY, col::dampZ};

// Contact `to` takes over the history of `from`, which is reset to a default contact's.
void moveHistory(ContactStore& cs, std::size_t from, std::size_t to) {
  const Contact d;
  const double defaults[] = {d.frame.w(), d.frame.x(), d.frame.y(), d.frame.z(), 0.0, 0.0, 0.0, 0.0,
                             0.0,         0.0,         0.0,         0.0,         0.0, 0.0, 0.0, 0.0};
  for (std::size_t i = 0; i < std::size(kHistory); ++i) {
    if (!cs.hasColumn(kHistory[i])) continue;  // (a group the store keeps none of: dashpots, results)
    cs.at(kHistory[i], to) = cs.at(kHistory[i], from);
    cs.at(kHistory[i], from) = defaults[i];
  }
  // the giver holds what a contact that is not real holds: no force, torques or energy
  if (cs.resultColumns())
    for (std::size_t c = col::fx; c <= col::dissipated; ++c) cs.at(c, from) = 0.0;
  cs.realData()[to] = 1;
  cs.realData()[from] = 0;
  cs.noteRealChanged(static_cast<std::uint32_t>(from));
  cs.noteRealChanged(static_cast<std::uint32_t>(to));
}

// One sphere's candidates with one mesh [b, e): which are left out, and the histories moved.
bool resolveGroup(const Particles& p, ContactStore& cs, Candidate* b, Candidate* e, std::uint8_t* leftOut) {
  const Vec3& centre = p.pos[b->sphere];
  const double r1 = p.radius[b->sphere];
  for (Candidate* c = b; c != e; ++c) {
    if (!c->touching) continue;
    for (Candidate* o = b; o != e; ++o)
      if (o != c && o->touching && shadowedBy(*c, *o, centre, r1)) {
        leftOut[c->k] = 1;
        break;
      }
  }
  bool changed = false;
  for (Candidate* c = b; c != e; ++c) {
    if (!c->touching || leftOut[c->k] || c->wasReal) continue;
    for (Candidate* o = b; o != e; ++o) {
      const bool counts = o->touching && !leftOut[o->k];
      if (!o->wasReal || counts || !neighbours(p, c->facet, o->facet)) continue;
      moveHistory(cs, o->k, c->k);
      o->wasReal = false;  // (given once)
      c->wasReal = true;
      changed = true;
      break;
    }
  }
  return changed;
}

}  // namespace

Vec3 apartDistance(const Vec3& d, double r1) {
  const double len = d.norm();
  return len > 0.0 ? Vec3((2.0 * r1 / len) * d) : Vec3(2.0 * r1, 0.0, 0.0);
}

bool resolveFacetContacts(const Particles& p, ContactStore& cs, std::size_t end, FacetContactScratch& scratch,
                          const Mat3* H) {
  if (scratch.leftOut.size() < end) scratch.leftOut.resize(end);  // (entries of facet contacts only are read)
  if (scratch.points.size() < end) scratch.points.resize(end);
  auto& cand = scratch.candidates;
  cand.clear();
  const ContactType* type = cs.typeData();
  for (std::size_t k = 0; k < end; ++k) {
    if (type[k] != ContactType::SphereFacet) continue;
    const std::uint32_t s = cs.id1(k), f = cs.id2(k);
    scratch.leftOut[k] = 0;
    const Vec3 q = secondPoint(p, type[k], s, f, cs.cellDist(k), H);
    scratch.points[k] = q;
    // u_N < 0 from the same input and formula as the kernel's
    const bool touching = contactGeometry(pairInput(p, type[k], s, f, q), type[k]).uN < 0.0;
    if (!touching && !cs.real(k)) continue;  // (takes no part: neither counts nor gives a history)
    cand.push_back({s, p.facets[p.shapeIndex[f]].mesh, f, static_cast<std::uint32_t>(k), q, (q - p.pos[s]).norm(),
                    touching, cs.real(k)});
  }
  // groups of one sphere and one mesh, each in increasing facet id (independent of the store's order)
  std::sort(cand.begin(), cand.end(), [](const Candidate& a, const Candidate& b) {
    return a.sphere != b.sphere ? a.sphere < b.sphere : a.mesh != b.mesh ? a.mesh < b.mesh : a.facet < b.facet;
  });
  bool changed = false;
  for (std::size_t i = 0; i < cand.size();) {
    std::size_t j = i + 1;
    while (j < cand.size() && cand[j].sphere == cand[i].sphere && cand[j].mesh == cand[i].mesh) ++j;
    if (j - i > 1) changed = resolveGroup(p, cs, cand.data() + i, cand.data() + j, scratch.leftOut.data()) || changed;
    i = j;
  }
  return changed;
}

}  // namespace dem
