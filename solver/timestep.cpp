#include "timestep.hpp"

#include "contact_geometry.hpp"
#include "laws.hpp"

#include <Eigen/Eigenvalues>

#include <algorithm>
#include <cmath>
#include <sstream>
#include <stdexcept>

namespace dem {

namespace {

// Normal (from 1 towards 2), contact point and u_N of a contact whose bodies overlap (or, with
// Potential, of any contact); false when it does not count. H: the cell's, for particle 2's image.
bool activeGeometry(const Particles& p, const Contact& c, ContactSelection selection, const Mat3* H, Vec3& n, Vec3& point,
                    double& uN) {
  if (c.real) {
    n = c.normal;
    point = c.point;
    uN = c.u[0];
    return true;
  }
  const PairGeometry<double> g = contactGeometry(pairInput(p, c.type, c.id1, c.id2, secondPosition(p, c.id2, c.cellDist, H)), c.type);
  n = vec3(g.n);
  uN = g.uN;
  if (g.uN < 0.0) {
    point = p.pos[c.id1] + (g.r1 + 0.5 * g.uN) * n;  // middle of the overlap zone
    return true;
  }
  point = p.pos[c.id1] + g.r1 * n;  // apart: the point where they would touch first
  return selection == ContactSelection::Potential;
}

// The body that moves with particle i: its clump, or itself; npos for a wall.
std::size_t bodyOf(const Particles& p, std::uint32_t i) {
  if (p.isWall(i)) return TimestepEstimate::npos;
  return p.clump[i] != kNoClump ? static_cast<std::size_t>(p.clump[i]) : i;
}

// Largest eigenvalue of a symmetric 3x3 matrix with the rows and columns of blocked axes dropped
// (bits of `blocked`, axis w = bit w).
double largestEigenvalue(Mat3 k, unsigned blocked) {
  for (int w = 0; w < 3; ++w)
    if (blocked & (1u << w)) {
      k.row(w).setZero();
      k.col(w).setZero();
    }
  Eigen::SelfAdjointEigenSolver<Mat3> es;
  es.computeDirect(k, Eigen::EigenvaluesOnly);
  return es.eigenvalues()[2];
}

}  // namespace

TimestepEstimate pWaveTimestep(const Particles& p, const std::vector<Material>& materials) {
  TimestepEstimate e;
  for (std::size_t i = 0; i < p.size(); ++i) {
    if (p.isWall(i) || p.isClump[i]) continue;
    if (p.material[i] >= materials.size()) {
      std::ostringstream s;
      s << "p-wave timestep: particle " << i << ": material = " << p.material[i]
        << " is invalid; expected an index into scene.materials (size " << materials.size() << ")";
      throw std::invalid_argument(s.str());
    }
    const Material& m = materials[p.material[i]];
    if (!(m.density > 0.0 && m.young > 0.0 && std::isfinite(m.density) && std::isfinite(m.young))) {
      std::ostringstream s;
      s << "p-wave timestep: particle " << i << ": material " << p.material[i] << " has density = " << m.density
        << ", young = " << m.young << "; expected finite values > 0";
      throw std::invalid_argument(s.str());
    }
    const double dt = p.radius[i] * std::sqrt(m.density / m.young);  // seed: dt_p = R sqrt(rho/E)
    if (dt < e.dt) {
      e.dt = dt;
      e.particle = i;
    }
  }
  return e;
}

std::vector<BodyStiffness> bodyStiffness(const Particles& p, const ContactStore& contacts, ContactSelection selection,
                                         const Mat3* cellH, ContactLaw law) {
  std::vector<BodyStiffness> k(p.size());
  for (const Contact& c : contacts.records()) {
    Vec3 n, point;
    double uN = 0.0;
    if (!activeGeometry(p, c, selection, cellH, n, point, uN)) continue;
    const ContactStiffness s =
        withLaw(law, [&](auto l) { return decltype(l)::stiffness(decltype(l)::params(c.params.data()), uN); });
    const double kn = s.kn, ks = s.ks;
    // seed (Chareyre): K = kn n n^T + ks (I - n n^T)
    const Mat3 nn = n * n.transpose();
    const Mat3 kt = kn * nn + ks * (Mat3::Identity() - nn);
    if (!kt.allFinite()) continue;  // a normal from non-finite positions (after a runaway)
    for (std::uint32_t id : {c.id1, c.id2}) {
      const std::size_t b = bodyOf(p, id);
      if (b == TimestepEstimate::npos) continue;
      k[b].translation += kt;
      // [r]x^T K_c [r]x = ks (|r|^2 I - r r^T) + (kn - ks) (n x r)(n x r)^T
      // (particle 2 at its periodic image, seed "Collision detection in periodic cell")
      const Vec3 r = point - (id == c.id2 ? Vec3(p.pos[b] + imageOffset(c.cellDist, cellH)) : p.pos[b]);
      const Vec3 nr = n.cross(r);
      const Mat3 kr = ks * (r.squaredNorm() * Mat3::Identity() - r * r.transpose()) + (kn - ks) * nr * nr.transpose();
      if (kr.allFinite()) k[b].rotation += kr;
    }
  }
  return k;
}

TimestepEstimate globalStiffnessTimestep(const Particles& p, const ContactStore& contacts,
                                         const std::vector<Material>& materials, ContactSelection selection,
                                         const Mat3* cellH, ContactLaw law) {
  const std::vector<BodyStiffness> k = bodyStiffness(p, contacts, selection, cellH, law);
  TimestepEstimate e;
  // omega^2 = lambda_max(K M^-1); dt = sqrt(2 / omega^2)                 seed eq. (eq-dtcr-global)
  const auto consider = [&e](double omega2, std::size_t b, bool rotational) {
    if (!(omega2 > 0.0)) return;
    const double dt = std::sqrt(2.0 / omega2);
    if (dt < e.dt) {
      e.dt = dt;
      e.particle = b;
      e.rotational = rotational;
      e.fromContacts = true;
    }
  };
  for (std::size_t b = 0; b < p.size(); ++b) {
    if (k[b].translation.isZero(0.0) && k[b].rotation.isZero(0.0)) continue;
    const unsigned blocked = p.blocked[b];
    consider(largestEigenvalue(k[b].translation, blocked & 7u) / p.mass[b], b, false);
    // J^-1/2 K_rot J^-1/2 with J = R diag(I) R^T (R = I for a spherical body: K_rot / I11)
    const Mat3 R = p.isAspherical(b) ? p.ori[b].toRotationMatrix() : Mat3::Identity();
    const Vec3 inertia = p.isAspherical(b) ? p.inertia[b] : Vec3::Constant(p.inertia[b][0]);
    const Mat3 jInvSqrt = R * inertia.cwiseInverse().cwiseSqrt().asDiagonal() * R.transpose();
    consider(largestEigenvalue(jInvSqrt * k[b].rotation * jInvSqrt, (blocked >> 3) & 7u), b, true);
  }
  if (!e.fromContacts) return pWaveTimestep(p, materials);
  // dashpots: dt x (sqrt(1 + zeta^2) - zeta) with the largest damping ratio
  double zeta = 0.0;
  for (const Contact& c : contacts.records()) {
    Vec3 n, point;
    double uN = 0.0;
    if (!activeGeometry(p, c, selection, cellH, n, point, uN)) continue;
    const double mStar = pairMaterials(p, materials, c.id1, c.id2, c.type == ContactType::SphereWall).reducedMass();
    zeta = std::max(zeta, withLaw(law, [&](auto l) { return decltype(l)::dampingRatio(decltype(l)::params(c.params.data()), uN, mStar); }));
  }
  e.dt *= std::sqrt(1.0 + zeta * zeta) - zeta;
  return e;
}

}  // namespace dem
