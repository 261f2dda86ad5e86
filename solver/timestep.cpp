#include "timestep.hpp"

#include "contact_geometry.hpp"
#include "laws.hpp"
#include "shared_sums.hpp"

#include <Eigen/Eigenvalues>

#include <algorithm>
#include <cmath>
#include <limits>
#include <sstream>
#include <stdexcept>

namespace dem {

namespace {

// Normal (from 1 towards 2), contact point and u_N of a contact whose bodies overlap (or, with
// Potential, of any contact); false when it does not count. H: the cell's, for particle 2's image.
bool activeGeometry(const Particles& p, const Contact& c, ContactSelection selection, const Mat3* H, Vec3& n,
                    Vec3& point, double& uN) {
  if (c.real) {
    // the history's normal and u_N; the point where the contact stage puts it, a1 = r1 + u_N / 2
    // along the normal from particle 1's centre (a result, not kept at every step: ContactStore;
    // r1 is particle 1's radius for every shape pair: pairInput)
    n = c.normal;
    uN = c.u[0];
    point = p.pos[c.id1] + (p.radius[c.id1] + 0.5 * uN) * n;
    return true;
  }
  const PairGeometry<double> g =
      contactGeometry(pairInput(p, c.type, c.id1, c.id2, secondPoint(p, c.type, c.id1, c.id2, c.cellDist, H)), c.type);
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
  if (p.isBoundary(i)) return TimestepEstimate::npos;
  return p.clump[i] != kNoClump ? static_cast<std::size_t>(p.clump[i]) : i;
}

// This rank's estimate against the minimum over the ranks (a minimum: the same for any order).
TimestepEstimate overRanks(TimestepEstimate e, const SharedSums& shared) {
  const double all = shared.min(e.dt);
  if (!(e.dt == all)) {  // (another rank's body sets it; a NaN never does)
    e.dt = all;
    e.particle = TimestepEstimate::npos;
    e.rotational = false;
  }
  return e;
}

}  // namespace

TimestepEstimate pWaveTimestep(const Particles& p, const std::vector<Material>& materials, const SharedSums* shared) {
  TimestepEstimate e;
  for (std::size_t u = 0; u < p.size(); ++u) {  // (in the order of user ids: the lowest on ties)
    const std::size_t i = p.slotOf[u];
    if (p.isBoundary(i) || p.isClump[i] || (shared && !shared->owns(i))) continue;
    if (p.material[i] >= materials.size()) {
      std::ostringstream s;
      s << "p-wave timestep: particle " << p.userId[i] << ": material = " << p.material[i]
        << " is invalid; expected an index into scene.materials (size " << materials.size() << ")";
      throw std::invalid_argument(s.str());
    }
    const Material& m = materials[p.material[i]];
    if (!(m.density > 0.0 && m.young > 0.0 && std::isfinite(m.density) && std::isfinite(m.young))) {
      std::ostringstream s;
      s << "p-wave timestep: particle " << p.userId[i] << ": material " << p.material[i]
        << " has density = " << m.density << ", young = " << m.young << "; expected finite values > 0";
      throw std::invalid_argument(s.str());
    }
    const double dt = p.radius[i] * std::sqrt(m.density / m.young);  // seed: dt_p = R sqrt(rho/E)
    if (dt < e.dt) {
      e.dt = dt;
      e.particle = i;
    }
  }
  return shared ? overRanks(e, *shared) : e;
}

namespace {

// [r]x, the matrix of x -> r x x.
Mat3 skew(const Vec3& r) {
  Mat3 m;
  m << 0.0, -r.z(), r.y(), r.z(), 0.0, -r.x(), -r.y(), r.x(), 0.0;
  return m;
}

// Per-body blocks of sum_c B_c^T (a n n^T + b (I - n n^T)) B_c, (a, b) = coefficients(law params, u_N).
template <class Coefficients>
std::vector<BodyStiffness> bodyBlocks(const Particles& p, const ContactStore& contacts,
                                      const std::vector<Material>& materials, ContactSelection selection,
                                      const Mat3* cellH, ContactLaw law, Coefficients coefficients) {
  std::vector<BodyStiffness> k(p.size());
  // the contacts in the order of their bodies' user ids: each body sums its contacts in an order
  // independent of the storage (of the contacts and the bodies)
  std::vector<std::pair<std::uint64_t, std::uint32_t>> order(contacts.size());
  for (std::size_t q = 0; q < contacts.size(); ++q)
    order[q] = {(std::uint64_t{p.userId[contacts.id1(q)]} << 32) | p.userId[contacts.id2(q)],
                static_cast<std::uint32_t>(q)};
  std::sort(order.begin(), order.end());
  for (const auto& [key, q] : order) {
    Contact c = contacts.getWithoutResults(q);  // (the pair, history and parameters: at any step)
    Vec3 n, point;
    double uN = 0.0;
    if (!activeGeometry(p, c, selection, cellH, n, point, uN)) continue;
    if (unmixed(c.params))  // (a lean contact: its bodies' mixing rule, as the contact loop would take)
      c.params = mixParams(law, pairMaterials(p, materials, c.id1, c.id2, c.type != ContactType::SphereSphere));
    const auto [a, b] = withLaw(law, [&](auto l) { return coefficients(l, decltype(l)::params(c.params.data()), uN); });
    // seed (Chareyre): K_c = kn n n^T + ks (I - n n^T)
    const Mat3 nn = n * n.transpose();
    const Mat3 kc = a * nn + b * (Mat3::Identity() - nn);
    if (!kc.allFinite()) continue;  // a normal from non-finite positions (after a runaway)
    for (std::uint32_t id : {c.id1, c.id2}) {
      const std::size_t body = bodyOf(p, id);
      if (body == TimestepEstimate::npos) continue;
      k[body].translation += kc;
      // arm from the body's centre (particle 2 at its periodic image, seed "Collision detection in
      // periodic cell"): [r]x^T K_c [r]x = ks (|r|^2 I - r r^T) + (kn - ks) (n x r)(n x r)^T, -K_c [r]x
      const Vec3 r = point - (id == c.id2 ? Vec3(p.pos[body] + imageOffset(c.cellDist, cellH)) : p.pos[body]);
      const Mat3 rx = skew(r);
      const Mat3 kr = rx.transpose() * kc * rx, kx = -kc * rx;
      if (kr.allFinite() && kx.allFinite()) {
        k[body].rotation += kr;
        k[body].coupling += kx;
      }
    }
  }
  return k;
}

// A body's 6x6 block scaled by its mass and inertia, M^-1/2 K M^-1/2 (M = diag(m I, J)), as 3x3
// blocks, with the rows and columns of blocked axes zeroed (bits 0-2 translation, 3-5 rotation).
struct ScaledBlock {
  Mat3 t, c, r;  // [[t, c], [c^T, r]]
};

ScaledBlock scaledBlock(const Particles& p, std::size_t b, const BodyStiffness& k) {
  const Mat3 R = p.isAspherical(b) ? p.ori[b].toRotationMatrix() : Mat3::Identity();
  const Vec3 inertia = p.isAspherical(b) ? p.inertia[b] : Vec3::Constant(p.inertia[b][0]);
  const Mat3 jInvSqrt = R * inertia.cwiseInverse().cwiseSqrt().asDiagonal() * R.transpose();
  const double mInvSqrt = 1.0 / std::sqrt(p.mass[b]);
  ScaledBlock s{k.translation * (mInvSqrt * mInvSqrt), mInvSqrt * k.coupling * jInvSqrt,
                jInvSqrt * k.rotation * jInvSqrt};
  const unsigned blocked = p.blocked[b];
  for (int w = 0; w < 3; ++w) {
    if (blocked & (1u << w)) {
      s.t.row(w).setZero();
      s.t.col(w).setZero();
      s.c.row(w).setZero();
    }
    if (blocked & (8u << w)) {
      s.r.row(w).setZero();
      s.r.col(w).setZero();
      s.c.col(w).setZero();
    }
  }
  return s;
}

// lambda_max of the 6x6 block; also whether its mode is mostly a rotation.
double largestEigenvalue(const ScaledBlock& s, bool* rotational) {
  using Mat6 = Eigen::Matrix<double, 6, 6>;
  Mat6 m;
  m << s.t, s.c, s.c.transpose(), s.r;
  if (!m.allFinite()) return 0.0;
  Eigen::SelfAdjointEigenSolver<Mat6> es(m, rotational ? Eigen::ComputeEigenvectors : Eigen::EigenvaluesOnly);
  if (rotational) *rotational = es.eigenvectors().col(5).tail<3>().squaredNorm() > 0.5;
  return es.eigenvalues()[5];
}

// lambda_max of [[a, b], [b, d]].
double largest2(double a, double b, double d) { return 0.5 * (a + d) + std::sqrt(0.25 * (a - d) * (a - d) + b * b); }

// Bounds of that lambda_max from 3x3 pieces (closed forms), widened by 1e-9 for their round-off.
// With lambda_t, u and lambda_r, w the largest eigenvalues and unit eigenvectors of t and r:
// at least the largest eigenvalue of the form on the plane of (u, 0) and (0, w) (Rayleigh-Ritz),
// [[lambda_t, u.c w], [u.c w, lambda_r]]; at most that of [[lambda_t, |c|], [|c|, lambda_r]] with
// |c| the Frobenius norm (>= the spectral norm), since x.t x + 2 x.c y + y.r y <= lambda_t |x|^2 +
// 2 |c| |x| |y| + lambda_r |y|^2.
void eigenvalueBounds(const ScaledBlock& s, double& lo, double& hi) {
  Eigen::SelfAdjointEigenSolver<Mat3> et, er;
  et.computeDirect(s.t, Eigen::ComputeEigenvectors);
  er.computeDirect(s.r, Eigen::ComputeEigenvectors);
  const double lt = std::max(et.eigenvalues()[2], 0.0), lr = std::max(er.eigenvalues()[2], 0.0);
  const double cuw = et.eigenvectors().col(2).dot(s.c * er.eigenvectors().col(2));
  lo = largest2(lt, cuw, lr) * (1.0 - 1e-9);
  hi = largest2(lt, s.c.norm(), lr) * (1.0 + 1e-9);
}

// dt_b = 2 / (kappa + sqrt(kappa^2 + 2 lambda)): sqrt(2/lambda) without dashpots   seed eq. (eq-dtcr-global)
double bodyTimestep(double lambda, double kappa) { return 2.0 / (kappa + std::sqrt(kappa * kappa + 2.0 * lambda)); }

}  // namespace

std::vector<BodyStiffness> bodyStiffness(const Particles& p, const ContactStore& contacts,
                                         const std::vector<Material>& materials, ContactSelection selection,
                                         const Mat3* cellH, ContactLaw law) {
  return bodyBlocks(p, contacts, materials, selection, cellH, law, [](auto l, const auto& params, double uN) {
    const ContactStiffness s = decltype(l)::stiffness(params, uN);
    return std::pair{s.kn, s.ks};
  });
}

std::vector<BodyStiffness> bodyDashpots(const Particles& p, const ContactStore& contacts,
                                        const std::vector<Material>& materials, ContactSelection selection,
                                        const Mat3* cellH, ContactLaw law) {
  return bodyBlocks(p, contacts, materials, selection, cellH, law, [](auto l, const auto& params, double uN) {
    const ContactDashpots d = decltype(l)::dashpots(params, uN);
    return std::pair{d.cn, d.cs};
  });
}

TimestepEstimate globalStiffnessTimestep(const Particles& p, const ContactStore& contacts,
                                         const std::vector<Material>& materials, ContactSelection selection,
                                         const Mat3* cellH, ContactLaw law, const SharedSums* shared) {
  const std::vector<BodyStiffness> k = bodyStiffness(p, contacts, materials, selection, cellH, law);
  std::vector<BodyStiffness> c;
  bool dashpots = false;
  for (const Material& m : materials) dashpots = dashpots || m.restitution < 1.0;
  if (dashpots) c = bodyDashpots(p, contacts, materials, selection, cellH, law);
  // The exact 6x6 eigenvalues (an iterative solve, ~1 us) only for the bodies that can set the
  // minimum: a first pass bounds every body's dt from the closed-form 3x3 eigenvalues of its
  // diagonal blocks (eigenvalueBounds), and a body whose smallest possible dt exceeds the smallest
  // largest possible dt of all bodies cannot be the minimum. The result, the body included (the
  // lowest id among equal values), is that of the exact solve over all bodies.
  const auto has = [&k, shared](std::size_t b) {
    return (!shared || shared->owns(b)) && !(k[b].translation.isZero(0.0) && k[b].rotation.isZero(0.0));
  };
  std::vector<double> dtLow(p.size(), std::numeric_limits<double>::infinity());
  double bestHigh = std::numeric_limits<double>::infinity();
  for (std::size_t b = 0; b < p.size(); ++b) {  // (a minimum: the same for any order)
    if (!has(b)) continue;
    double kLo = 0.0, kHi = 0.0, cLo = 0.0, cHi = 0.0;
    eigenvalueBounds(scaledBlock(p, b, k[b]), kLo, kHi);
    if (dashpots) eigenvalueBounds(scaledBlock(p, b, c[b]), cLo, cHi);
    if (!(kHi > 0.0)) continue;
    dtLow[b] = bodyTimestep(kHi, cHi);
    if (kLo > 0.0) bestHigh = std::min(bestHigh, bodyTimestep(kLo, cLo));
  }
  TimestepEstimate e;
  for (std::size_t u = 0; u < p.size(); ++u) {  // (in the order of user ids: the lowest on ties)
    const std::size_t b = p.slotOf[u];
    if (!has(b) || !(dtLow[b] <= bestHigh)) continue;
    const double lambda = largestEigenvalue(scaledBlock(p, b, k[b]), nullptr);
    if (!(lambda > 0.0)) continue;
    const double kappa = dashpots ? largestEigenvalue(scaledBlock(p, b, c[b]), nullptr) : 0.0;
    const double dt = bodyTimestep(lambda, kappa);
    if (dt < e.dt) {
      e.dt = dt;
      e.particle = b;
      e.fromContacts = true;
    }
  }
  if (shared) {
    e = overRanks(e, *shared);
    e.fromContacts = e.dt < std::numeric_limits<double>::infinity();
  }
  if (!e.fromContacts) return pWaveTimestep(p, materials, shared);
  if (e.particle != TimestepEstimate::npos)
    largestEigenvalue(scaledBlock(p, e.particle, k[e.particle]), &e.rotational);  // the limiting body's mode
  return e;
}

}  // namespace dem
