#pragma once
// Linear mass-spring systems applied through Scene::externalForces, so that the integrator is
// verified on the linear oscillator independently of the contact machinery (verification theory,
// sections 2 and 5).
//
// Particles i = 0..n-1 rest at origin + (i+1) spacing dir; the left anchor is at origin, the right
// anchor at origin + (n+1) spacing dir. Link l (l = 0..n) joins (l-1) and l, where -1 is the left
// anchor and n the right one; kLinks[l] = 0 means no spring. Each spring is a linear vector spring
// F_b = -k ((x_b - x_a) - spacing dir) = -F_a, so every component obeys M xi'' = -K xi exactly, with
// xi the displacement from rest: a linear system with the stiffness matrix stiffness().

#include "solver/scene.hpp"

#include <Eigen/Core>

#include <algorithm>
#include <cmath>
#include <limits>
#include <vector>

namespace dem::verify {

struct SpringSystem {
  Vec3 dir = Vec3(2.0, -1.0, 2.0) / 3.0;  // unit; a diagonal direction exercises all components
  double spacing = 1.0;
  Vec3 origin = Vec3::Zero();
  std::vector<double> masses;
  std::vector<double> kLinks;  // size masses.size() + 1

  std::size_t size() const { return masses.size(); }
  Vec3 restPos(std::size_t i) const { return origin + static_cast<double>(i + 1) * spacing * dir; }

  Eigen::MatrixXd stiffness() const {
    const auto n = static_cast<Eigen::Index>(size());
    Eigen::MatrixXd K = Eigen::MatrixXd::Zero(n, n);
    for (Eigen::Index l = 0; l <= n; ++l) {
      const double k = kLinks[static_cast<std::size_t>(l)];
      if (l > 0) K(l - 1, l - 1) += k;
      if (l < n) K(l, l) += k;
      if (l > 0 && l < n) {
        K(l - 1, l) -= k;
        K(l, l - 1) -= k;
      }
    }
    return K;
  }
  Eigen::VectorXd massVector() const {
    return Eigen::Map<const Eigen::VectorXd>(masses.data(), static_cast<Eigen::Index>(size()));
  }

  // A scene with particle i displaced by xi0[i] dir and moving with v0[i] dir (on-step values).
  Scene build(double dt, const std::vector<double>& xi0, const std::vector<double>& v0,
              const Vec3& gravity = Vec3::Zero()) const {
    Scene s;
    s.materials.push_back(Material{});  // a scene of several bodies needs one; no contacts arise here
    for (std::size_t i = 0; i < size(); ++i) {
      ParticleSpec p;
      p.pos = restPos(i) + xi0[i] * dir;
      p.vel = v0[i] * dir;
      p.radius = 0.1;
      p.mass = masses[i];
      p.inertia = sphereInertia(p.radius, p.mass);
      s.particles.add(p);
    }
    s.gravity = gravity;
    s.setDt(dt);
    s.setDamping(0.0);
    const SpringSystem sys = *this;
    s.externalForces = [sys](Particles& p, double) {
      const std::size_t n = sys.size();
      const Vec3 right = sys.origin + static_cast<double>(n + 1) * sys.spacing * sys.dir;
      for (std::size_t l = 0; l <= n; ++l) {
        const double k = sys.kLinks[l];
        if (k == 0.0) continue;
        const Vec3 xa = l == 0 ? sys.origin : p.pos[l - 1];
        const Vec3 xb = l == n ? right : p.pos[l];
        const Vec3 f = -k * ((xb - xa) - sys.spacing * sys.dir);
        if (l < n) p.force[l] += f;
        if (l > 0) p.force[l - 1] -= f;
      }
    };
    return s;
  }

  // Displacement of particle i from rest along dir.
  double xi(const Particles& p, std::size_t i) const { return dir.dot(p.pos[i] - restPos(i)); }
  // Mass-weighted norm of the displacement, sqrt(sum m_i |x_i - rest_i|^2): with the modes
  // M-orthogonal it never exceeds its initial value while the scheme is stable (theory 2.3).
  double massNorm(const Particles& p) const {
    double s = 0;
    for (std::size_t i = 0; i < size(); ++i) s += masses[i] * (p.pos[i] - restPos(i)).squaredNorm();
    return std::sqrt(s);
  }
};

// Stability detector of theory 2.3: N = 400 steps, G = max over the last 50 steps of the
// displacement norm / max over the first 50 (the first window includes the initial state).
inline double growthRatio(const SpringSystem& sys, double dt, const std::vector<double>& xi0,
                          std::vector<double>* history = nullptr) {
  Scene s = sys.build(dt, xi0, std::vector<double>(sys.size(), 0.0));
  double first = 0, last = 0;
  for (int n = 0; n < 400; ++n) {
    const double a = sys.massNorm(s.particles);
    if (history) history->push_back(a);
    if (n < 50) first = std::max(first, a);
    if (n >= 350) last = std::max(last, std::isfinite(a) ? a : std::numeric_limits<double>::infinity());
    try {
      s.step();
    } catch (const RunawayError&) {
      return std::numeric_limits<double>::infinity();  // the solver's own detector: unstable
    }
  }
  return last / first;
}

}  // namespace dem::verify
