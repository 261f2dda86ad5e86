#include "contact_loop.hpp"

#include "contact_geometry.hpp"
#include "contact_law.hpp"
#include "integrator.hpp"

#include <algorithm>

namespace dem {

namespace {

// Drops the history of a contact whose bodies no longer overlap (seed: the contact gives no force).
// With F_N = 0 the Coulomb cap is zero, so the shear spring's stored energy |F_T|^2/(2 ks) is
// released by slip: it is booked as friction dissipation of this step (leaving it out makes the
// ledger drift at first order in dt in granular scenes).
inline void separate(Contact& c) {
  const double shearEnergy = c.elastic - 0.5 * c.phys.kn * c.u[0] * c.u[0];
  c.real = 0;
  c.u.setZero();
  c.phi.setZero();
  c.force.setZero();
  c.torque1.setZero();
  c.torque2.setZero();
  c.elastic = 0.0;
  c.dissipated = std::max(0.0, shearEnergy);
}

// Geometry + law for one contact at t_n; a contact whose bodies do not overlap gives no force.
inline void evaluate(const Particles& p, Contact& c, double dt, const PeriodicShift* shift) {
  const std::uint32_t i1 = c.id1, i2 = c.id2;
  SpherePair s;
  Vec3 x2 = p.pos[i2], v2 = p.vel[i2];
  if (shift && !c.cellDist.isZero()) {  // periodic image of particle 2
    const Vec3 k = c.cellDist.cast<double>();
    x2 += shift->H * k;
    v2 += shift->vel * k;
  }
  switch (c.type) {  // dispatch on the shape pair
    case ContactType::SphereSphere: {
      const double rs = p.radius[i1] + p.radius[i2];
      if (!((x2 - p.pos[i1]).squaredNorm() < rs * rs)) {  // quick exit: no overlap
        if (c.real) separate(c);
        else if (c.dissipated != 0.0) c.dissipated = 0.0;
        return;
      }
      s = sphereSpherePair(p.pos[i1], p.radius[i1], x2, p.radius[i2]);
      break;
    }
    case ContactType::SphereWall:
      s = sphereWallPair(p.pos[i1], p.radius[i1], p.pos[i2], p.walls[p.shapeIndex[i2]].normal);
      break;
  }
  if (!(s.uN < 0.0)) {
    if (c.real) separate(c);
    else if (c.dissipated != 0.0) c.dissipated = 0.0;  // the separation's release was booked last step
    return;
  }
  s.v1 = p.vel[i1];
  s.v2 = v2;
  s.w1 = p.angVel[i1];
  s.w2 = p.angVel[i2];
  const bool isNew = c.real == 0;
  const double uPrevY = isNew ? 0.0 : c.u[1], uPrevZ = isNew ? 0.0 : c.u[2];
  c.real = 1;
  const ContactGeom g = isNew ? formContact(s, c, dt) : updateContact(s, c, dt);
  const CundallResult r = cundallLaw(c.phys, g.u, uPrevY, uPrevZ);
  c.u[1] = r.uTy;
  c.u[2] = r.uTz;
  c.force = g.frame * r.forceLocal;  // local -> global
  const Vec3 nxF = g.n.cross(c.force);
  c.torque1 = g.a1 * nxF;  // b1 x F, arm b1 = c - x1 = a1 n
  c.torque2 = g.a2 * nxF;  // b2 x (-F), arm b2 = c - x2 = -a2 n
  c.elastic = r.elastic;
  c.dissipated = r.dissipated;
}

}  // namespace

ContactStageResult contactStage(Particles& p, ContactStore& contacts, double dt, ContactScratch& scratch,
                                const PeriodicShift* shift) {
  const std::size_t nc = contacts.size();
  const std::size_t nBlocks = (nc + kEnergyBlock - 1) / kEnergyBlock;
  scratch.blocks.assign(nBlocks, ContactStageResult{});
  Contact* items = contacts.items.data();

#pragma omp parallel for schedule(static) if (nc > kParallelThreshold)
  for (std::size_t b = 0; b < nBlocks; ++b) {
    ContactStageResult sums;
    const std::size_t end = std::min(nc, (b + 1) * kEnergyBlock);
    for (std::size_t k = b * kEnergyBlock; k < end; ++k) {
      evaluate(p, items[k], dt, shift);
      sums.elastic += items[k].elastic;
      sums.dissipated += items[k].dissipated;
    }
    scratch.blocks[b] = sums;
  }

  // Force gather: each particle sums its own contacts in increasing contact index.
  contacts.updateAdjacency(p.size());
  const auto& off = contacts.adjOffset();
  const auto& ent = contacts.adjEntry();
  const std::size_t n = p.size();
#pragma omp parallel for schedule(static) if (n > kParallelThreshold)
  for (std::size_t i = 0; i < n; ++i) {
    Vec3 f = Vec3::Zero(), t = Vec3::Zero();
    // A contact that is not real holds zero force and torques (created so, and zeroed by
    // separate()), so every entry is added without a branch on `real`: adding +0 changes no sum.
    // Side 1 receives -force (negation is exact).
    for (std::uint32_t e = off[i]; e < off[i + 1]; ++e) {
      const Contact& c = items[ent[e] >> 1];
      const bool second = (ent[e] & 1u) != 0;
      f += (second ? -1.0 : 1.0) * c.force;
      t += second ? c.torque2 : c.torque1;
    }
    p.force[i] += f;
    p.torque[i] += t;
  }

  ContactStageResult total;
  for (const auto& s : scratch.blocks) {
    total.elastic += s.elastic;
    total.dissipated += s.dissipated;
  }
  return total;
}

}  // namespace dem
