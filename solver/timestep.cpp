#include "timestep.hpp"

#include "contact_geometry.hpp"

#include <Eigen/Eigenvalues>

#include <cmath>
#include <sstream>
#include <stdexcept>

namespace dem {

namespace {

// Normal (from 1 towards 2) and contact point of a contact whose bodies overlap (or, with
// Potential, of any contact); false when it does not count. image: offset of particle 2's image.
bool activeGeometry(const Particles& p, const Contact& c, ContactSelection selection, const Vec3& image, Vec3& n,
                    Vec3& point) {
  if (c.real) {
    n = c.normal;
    point = c.point;
    return true;
  }
  const SpherePair s =
      c.type == ContactType::SphereSphere
          ? sphereSpherePair(p.pos[c.id1], p.radius[c.id1], Vec3(p.pos[c.id2] + image), p.radius[c.id2])
          : sphereWallPair(p.pos[c.id1], p.radius[c.id1], p.pos[c.id2], p.walls[p.shapeIndex[c.id2]].normal);
  n = s.n;
  if (s.uN < 0.0) {
    point = s.x1 + (s.r1 + 0.5 * s.uN) * s.n;  // middle of the overlap zone
    return true;
  }
  point = s.x1 + s.r1 * s.n;  // apart: the point where they would touch first
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
                                         const Mat3* cellH) {
  std::vector<BodyStiffness> k(p.size());
  for (const Contact& c : contacts.records()) {
    // periodic image of particle 2: x2 + H k (seed "Collision detection in periodic cell")
    const Vec3 image = cellH && !c.cellDist.isZero() ? Vec3(*cellH * c.cellDist.cast<double>()) : Vec3::Zero();
    Vec3 n, point;
    if (!activeGeometry(p, c, selection, image, n, point)) continue;
    const double kn = c.phys.kn, ks = c.phys.ks;
    // seed (Chareyre): K = kn n n^T + ks (I - n n^T)
    const Mat3 nn = n * n.transpose();
    const Mat3 kt = kn * nn + ks * (Mat3::Identity() - nn);
    if (!kt.allFinite()) continue;  // a normal from non-finite positions (after a runaway)
    for (std::uint32_t id : {c.id1, c.id2}) {
      const std::size_t b = bodyOf(p, id);
      if (b == TimestepEstimate::npos) continue;
      k[b].translation += kt;
      // [r]x^T K_c [r]x = ks (|r|^2 I - r r^T) + (kn - ks) (n x r)(n x r)^T
      const Vec3 r = point - (id == c.id2 ? Vec3(p.pos[b] + image) : p.pos[b]);
      const Vec3 nr = n.cross(r);
      const Mat3 kr = ks * (r.squaredNorm() * Mat3::Identity() - r * r.transpose()) + (kn - ks) * nr * nr.transpose();
      if (kr.allFinite()) k[b].rotation += kr;
    }
  }
  return k;
}

TimestepEstimate globalStiffnessTimestep(const Particles& p, const ContactStore& contacts,
                                         const std::vector<Material>& materials, ContactSelection selection,
                                         const Mat3* cellH) {
  const std::vector<BodyStiffness> k = bodyStiffness(p, contacts, selection, cellH);
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
  return e.fromContacts ? e : pWaveTimestep(p, materials);
}

}  // namespace dem
