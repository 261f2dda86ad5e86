#include "clump.hpp"

#include <Eigen/Eigenvalues>

#include <algorithm>
#include <cmath>
#include <numbers>
#include <sstream>
#include <stdexcept>

namespace dem {

namespace {

[[noreturn]] void bad(const std::string& what) { throw std::invalid_argument("clump: " + what); }

std::string str(double v) {
  std::ostringstream s;
  s.precision(17);
  s << v;
  return s.str();
}

// Inertia about the centroid from the mass, first and second moments (about an origin o):
// C = S2 - M c c^T, I = tr(C) E - C (seed: I = sum m d^2 ..., tensor form).
MassProperties fromMoments(double M, const Vec3& S1, const Mat3& S2, const Vec3& origin, double cellSelf) {
  MassProperties mp;
  mp.mass = M;
  const Vec3 c = S1 / M;
  const Mat3 C = S2 - M * c * c.transpose();
  mp.inertia = C.trace() * Mat3::Identity() - C + cellSelf * Mat3::Identity();
  mp.centroid = origin + c;
  return mp;
}

}  // namespace

bool membersOverlap(const Particles& p, const std::vector<std::size_t>& members) {
  for (std::size_t a = 0; a < members.size(); ++a)
    for (std::size_t b = a + 1; b < members.size(); ++b) {
      const std::size_t i = members[a], j = members[b];
      if ((p.pos[i] - p.pos[j]).norm() < p.radius[i] + p.radius[j]) return true;
    }
  return false;
}

MassProperties clumpMassParallelAxis(const Particles& p, const std::vector<std::size_t>& members) {
  MassProperties mp;
  Vec3 S1 = Vec3::Zero();
  for (std::size_t i : members) {
    mp.mass += p.mass[i];
    S1 += p.mass[i] * p.pos[i];
  }
  mp.centroid = S1 / mp.mass;
  for (std::size_t i : members) {
    const Vec3 d = p.pos[i] - mp.centroid;
    const Mat3 R = p.ori[i].toRotationMatrix();
    // seed: I_c = sum (m_i d_i^2 + I_i), tensor form of the parallel-axis theorem
    mp.inertia += R * p.inertia[i].asDiagonal() * R.transpose() +
                  p.mass[i] * (d.squaredNorm() * Mat3::Identity() - d * d.transpose());
  }
  return mp;
}

MassProperties clumpMassGrid(const Particles& p, const std::vector<std::size_t>& members, double h, const Vec3& offset) {
  Vec3 lo = Vec3::Constant(std::numeric_limits<double>::infinity()), hi = -lo;
  for (std::size_t i : members) {
    lo = lo.cwiseMin(p.pos[i] - Vec3::Constant(p.radius[i]));
    hi = hi.cwiseMax(p.pos[i] + Vec3::Constant(p.radius[i]));
  }
  const Vec3 origin = 0.5 * (lo + hi), ext = hi - lo;
  Eigen::Array3i n;
  Vec3 start;
  for (int k = 0; k < 3; ++k) {
    n[k] = static_cast<int>(std::ceil(ext[k] / h)) + 1;  // one spare cell covers the offset
    start[k] = -0.5 * n[k] * h + 0.5 * h + offset[k] * h;  // cell centres, symmetric about the box centre
  }
  std::vector<double> density;
  for (std::size_t i : members) density.push_back(p.mass[i] / (4.0 / 3.0 * std::numbers::pi * std::pow(p.radius[i], 3)));
  const double cellVolume = h * h * h;

  // Per-slab partial sums, gathered in slab order: the same bits for any number of threads.
  struct Sums {
    double M = 0.0;
    Vec3 S1 = Vec3::Zero();
    Mat3 S2 = Mat3::Zero();
  };
  std::vector<Sums> slabs(static_cast<std::size_t>(n[0]));
  const std::size_t cells = static_cast<std::size_t>(n[0]) * static_cast<std::size_t>(n[1]) * static_cast<std::size_t>(n[2]);
#pragma omp parallel for schedule(static) if (cells > kParallelThreshold)
  for (int ix = 0; ix < n[0]; ++ix) {
    Sums s;
    for (int iy = 0; iy < n[1]; ++iy)
      for (int iz = 0; iz < n[2]; ++iz) {
        const Vec3 x = start + h * Vec3(ix, iy, iz);  // relative to origin
        for (std::size_t m = 0; m < members.size(); ++m) {
          const std::size_t i = members[m];
          if ((origin + x - p.pos[i]).squaredNorm() < p.radius[i] * p.radius[i]) {
            const double dm = density[m] * cellVolume;
            s.M += dm;
            s.S1 += dm * x;
            s.S2 += dm * x * x.transpose();
            break;
          }
        }
      }
    slabs[static_cast<std::size_t>(ix)] = s;
  }
  Sums total;
  for (const Sums& s : slabs) {
    total.M += s.M;
    total.S1 += s.S1;
    total.S2 += s.S2;
  }
  if (!(total.M > 0.0)) bad("grid spacing " + str(h) + " leaves no cell centre inside any member; use a smaller gridSpacing");
  return fromMoments(total.M, total.S1, total.S2, origin, total.M * h * h / 6.0);  // cube: m h^2/6 per axis
}

std::size_t Clumps::add(Particles& p, const std::vector<std::size_t>& members, const ClumpOptions& options) {
  if (members.empty()) bad("members is empty; a clump needs at least one particle");
  for (std::size_t k = 0; k < members.size(); ++k) {
    const std::size_t i = members[k];
    if (i >= p.size()) bad("member " + std::to_string(i) + " is not a particle id (there are " + std::to_string(p.size()) + ")");
    if (p.isClump[i]) bad("member " + std::to_string(i) + " is itself a clump body");
    if (p.clump[i] != kNoClump)
      bad("particle " + std::to_string(i) + " is already a member of clump " + std::to_string(p.clump[i]) +
          "; a particle can belong to one clump only");
    if (std::find(members.begin(), members.begin() + static_cast<std::ptrdiff_t>(k), i) != members.begin() + static_cast<std::ptrdiff_t>(k))
      bad("particle " + std::to_string(i) + " is listed twice in members");
  }
  double rMin = p.radius[members.front()];
  for (std::size_t i : members) rMin = std::min(rMin, p.radius[i]);
  const double h = options.gridSpacing == 0.0 ? rMin / 20.0 : options.gridSpacing;
  if (!(std::isfinite(h) && h > 0.0)) bad("gridSpacing = " + str(options.gridSpacing) + " is invalid; expected a finite value > 0 (or 0 for the default)");

  const bool overlap = membersOverlap(p, members);
  if (options.method == ClumpInertiaMethod::ParallelAxis && overlap)
    bad("members overlap; the parallel-axis theorem would count the overlap twice; use ClumpInertiaMethod::Grid or Auto");
  const bool grid = options.method == ClumpInertiaMethod::Grid || (options.method == ClumpInertiaMethod::Auto && overlap);
  if (!(options.gridOffset.cwiseAbs().maxCoeff() <= 0.5)) {
    std::ostringstream s;
    s << "gridOffset = (" << options.gridOffset.transpose() << ") is invalid; expected components in [-0.5, 0.5]";
    bad(s.str());
  }
  const MassProperties mp = grid ? clumpMassGrid(p, members, h, options.gridOffset) : clumpMassParallelAxis(p, members);

  // Principal axes: columns of V, right-handed; q_c = V maps the clump's body frame to space.
  Eigen::SelfAdjointEigenSolver<Mat3> es(mp.inertia);
  Mat3 V = es.eigenvectors();
  if (V.determinant() < 0) V.col(2) *= -1.0;
  const Vec3 principal = es.eigenvalues();
  for (int k = 0; k < 3; ++k)
    if (!(std::isfinite(principal[k]) && principal[k] > 0.0)) {
      std::ostringstream s;
      s.precision(17);
      s << "principal inertia (" << principal.transpose() << ") of the members is not finite and > 0";
      bad(s.str());
    }
  const Quat qc = Quat(V).normalized();

  // Initial motion from the members' momentum and angular momentum about the centroid.
  Vec3 P = Vec3::Zero(), L = Vec3::Zero();
  double mMembers = 0.0, radius = 0.0;
  for (std::size_t i : members) {
    const Vec3 d = p.pos[i] - mp.centroid;
    const Mat3 R = p.ori[i].toRotationMatrix();
    mMembers += p.mass[i];
    P += p.mass[i] * p.vel[i];
    L += p.mass[i] * d.cross(p.vel[i]) + R * p.inertia[i].asDiagonal() * R.transpose() * p.angVel[i];
    radius = std::max(radius, d.norm() + p.radius[i]);
  }

  ParticleSpec spec;
  spec.pos = mp.centroid;
  spec.ori = qc;
  spec.mass = mp.mass;
  spec.inertia = principal;
  spec.radius = radius;
  spec.vel = P / mMembers;
  spec.angVel = mp.inertia.ldlt().solve(L);
  spec.material = p.material[members.front()];
  const std::size_t body = p.add(spec);
  p.isClump[body] = 1;

  Clump c;
  c.body = body;
  c.members = members;
  for (std::size_t i : members) {
    p.clump[i] = static_cast<std::int64_t>(body);
    c.relPos.push_back(V.transpose() * (p.pos[i] - mp.centroid));
    c.relOri.push_back(qc.conjugate() * p.ori[i]);
  }
  placeClumpMembers(p, c);
  list.push_back(std::move(c));
  return body;
}

// v_c, w_c given; L_c = R diag(I) R^T w_c; members v_i = v_c + w_c x r_i, w_i = w_c (Clump::moveMembers)
void Clumps::setMotion(Particles& p, std::size_t body, const Vec3& vel, const Vec3& angVel) const {
  const auto c = std::find_if(list.begin(), list.end(), [&](const Clump& k) { return k.body == body; });
  if (c == list.end())
    throw std::invalid_argument("particle " + std::to_string(body) + ": not a clump body; cannot set a clump's motion");
  if (p.velMidstep[body] != 0)
    throw std::invalid_argument("clump " + std::to_string(body) +
                                ": already integrated; its motion is set before the first step");
  if (!allFinite(vel) || !allFinite(angVel))
    throw std::invalid_argument("clump " + std::to_string(body) + ": velocity and angular velocity must be finite");
  const Mat3 R = p.ori[body].toRotationMatrix();
  p.vel[body] = vel;
  p.angVel[body] = angVel;
  p.setAngMom(body, R * p.inertia[body].asDiagonal() * R.transpose() * angVel);
  placeClumpMembers(p, *c);
}

void Clumps::aggregate(Particles& p) const {
  const std::size_t n = list.size();
#pragma omp parallel for schedule(static) if (n > kParallelThreshold)
  for (std::size_t k = 0; k < n; ++k) {
    const Clump& c = list[k];
    Vec3 F = Vec3::Zero(), T = Vec3::Zero();
    for (std::size_t i : c.members) {
      F += p.force[i];                                                  // seed: F_c = sum F_i
      T += (p.pos[i] - p.pos[c.body]).cross(p.force[i]) + p.torque[i];  // seed: T_c = sum r_i x F_i + T_i
    }
    p.force[c.body] += F;
    p.torque[c.body] += T;
  }
}

void placeClumpMembers(Particles& p, const Clump& c) {
  const Vec3 xc = p.pos[c.body], vc = p.vel[c.body], wc = p.angVel[c.body];
  const Quat qc = p.ori[c.body];
  const Mat3 R = qc.toRotationMatrix();
  for (std::size_t m = 0; m < c.members.size(); ++m) {
    const std::size_t i = c.members[m];
    p.pos[i] = xc + R * c.relPos[m];
    p.ori[i] = (qc * c.relOri[m]).normalized();
    p.vel[i] = vc + wc.cross(p.pos[i] - xc);
    p.angVel[i] = wc;
    p.velMidstep[i] = p.velMidstep[c.body];
  }
}

void Clumps::placeMembers(Particles& p) const {
  const std::size_t n = list.size();
#pragma omp parallel for schedule(static) if (n > kParallelThreshold)
  for (std::size_t k = 0; k < n; ++k) placeClumpMembers(p, list[k]);
}

}  // namespace dem
