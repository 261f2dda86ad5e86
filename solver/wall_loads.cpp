#include "wall_loads.hpp"

#include "contact_geometry.hpp"
#include "mesh_motion.hpp"
#include "shared_sums.hpp"

#include <algorithm>

namespace dem {

// F_w = sum (-F_c), T_w = sum (c - H k - x_w) x (-F_c) over the wall's real contacts
std::vector<WallLoad> wallLoads(const Particles& p, const ContactStore& contacts, const Mat3* H) {
  std::vector<WallLoad> loads;
  std::vector<std::size_t> slot(p.size(), 0);
  for (std::size_t i = 0; i < p.size(); ++i)
    if (p.isWall(i)) {
      slot[i] = loads.size();
      loads.push_back({i, Vec3::Zero(), Vec3::Zero()});
    }
  contacts.forEachRealInUserOrder(p, [&](std::size_t k) {
    if (contacts.type(k) != ContactType::SphereWall) return;
    WallLoad& w = loads[slot[contacts.id2(k)]];
    const Vec3 f = -contacts.vec(col::fx, k);
    w.force += f;
    w.torque += (contacts.vec(col::px, k) - secondPosition(p, contacts.id2(k), contacts.cellDist(k), H)).cross(f);
  });
  return loads;
}

std::vector<MeshLoad> meshLoads(const Particles& p, const ContactStore& contacts, double t, const Mat3* H) {
  std::vector<MeshLoad> loads(p.meshes.size());
  std::vector<Vec3> centre(p.meshes.size());
  for (std::size_t m = 0; m < p.meshes.size(); ++m) {
    loads[m].mesh = m;
    centre[m] = rotationCentre(p.meshes[m].motion, t);
  }
  contacts.forEachRealInUserOrder(p, [&](std::size_t k) {
    if (contacts.type(k) != ContactType::SphereFacet) return;
    const std::uint32_t m = p.facets[p.shapeIndex[contacts.id2(k)]].mesh;
    const Vec3 f = -contacts.vec(col::fx, k);
    loads[m].force += f;
    loads[m].torque += (contacts.vec(col::px, k) - (centre[m] + imageOffset(contacts.cellDist(k), H))).cross(f);
  });
  return loads;
}

// P = sum_k (-F_k) . (v_m + V k + w_m x (c_k - (centre + H k)))
double meshLoadPower(const Particles& p, const ContactStore& contacts, double t, const PeriodicShift* shift,
                     const SharedSums* shared) {
  if (std::none_of(p.meshes.begin(), p.meshes.end(), [](const Mesh& m) { return moves(m.motion); })) return 0.0;
  const auto term = [&](std::size_t k) {
    const MeshMotion& mo = p.meshes[p.facets[p.shapeIndex[contacts.id2(k)]].mesh].motion;
    const Eigen::Vector3i cell = contacts.cellDist(k);
    const Vec3 centre = rotationCentre(mo, t) + imageOffset(cell, shift ? &shift->H : nullptr);
    const Vec3 vel = shift && !cell.isZero() ? Vec3(mo.vel + shift->vel * cell.cast<double>()) : mo.vel;
    return -contacts.vec(col::fx, k).dot(vel + mo.angVel.cross(contacts.vec(col::px, k) - centre));
  };
  // The real facet contacts in the order of forEachRealInUserOrder, from a scan of the flags: walking
  // every body's contacts to find them was a few per cent of a drum's step.
  const ContactType* type = contacts.typeData();
  const std::vector<std::uint32_t> facetContacts =
      contacts.realInUserOrder(p, [&](std::size_t k) { return type[k] == ContactType::SphereFacet; });
  double power = 0.0;
  std::array<ExactSum, 1> exact;
  for (const std::uint32_t k : facetContacts) {
    if (!shared) {
      power += term(k);
    } else if (shared->owns(contacts.id1(k))) {
      exact[0] += term(k);
    }
  }
  if (!shared) return power;
  shared->combine(exact);
  return exact[0].value();
}

}  // namespace dem
