// Case: enduring multi-contact dynamics (verification theory 2, section 5; MFIX DEM03 type): a column
//       of four spheres on a wall under gravity, released from rest with every contact compressed,
//       so that all four contacts stay closed and the whole column oscillates in its four modes.
// Scenario:  R = 0.01 m, rho = 2500 kg/m^3 (m = 0.010472 kg), E = 1e8 Pa, linear Cundall law
//            (kn = E R = 1e6 N/m between spheres; the wall of E = 1e12 Pa gives kw = 1.9998e6 N/m,
//            laws/cundall.hpp), frictionless, g = 9.81 m/s^2, through dem::Scene. Two releases: every
//            overlap 1.3x and 0.5x its static value (sum_j |c_ij| < u_static,i holds for both, checked:
//            the contacts stay closed, and a contact that opens would stop the case). End time
//            T = 5 ms (3 periods of the slowest mode, 15 of the fastest); levels w_max dt = 0.096 ... 0.012.
// Reference: the modal solution (reference/spring_column.hpp, theory 2, 5): w_j from K phi = w^2 m phi
//            (3813, 10858, 16250, 19169 rad/s); from rest with the first-step adjustment the leapfrog
//            is exact per mode, z_n = z_s + sum_j phi_j q_j cos(n th_j), sin(th_j/2) = w_j dt/2, and
//            the continuum is z(t) = z_s + sum_j phi_j q_j cos(w_j t). Contact forces: k u with the
//            overlap u of the same modal sum.
// Tolerance: positions against the discrete modal sum: round-off, 4 eps max|z| n after n steps (each
//            step rounds the heights by eps|z|/2 and the overlaps by eps|z|; a neutrally stable
//            linear scheme carries each rounding on with a gain <= 1/cos(th/2) < 1.01, so the sum
//            grows at most linearly; theory 2, 5 measured eps|z| n). Contact forces: k_max (2 x that
//            + 4 eps max|z|) (an overlap is a difference of two heights). Against the continuum:
//            the bound sum_j max_i |phi_ij q_j| |th_j/dt - w_j| T (|cos a - cos b| <= |a - b|),
//            slope 2 +- 0.05 (theory 2, 5: slope 2.000).
#include "cases/column_scene.hpp"
#include "cases/registry.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>
#include <string>

namespace dem::verify {

namespace {

constexpr double kColumnEnd = 5e-3;

struct ColumnSetup {
  Material sphere{2500.0, 1e8, 0.2, 0.0}, wall{2500.0, 1e12, 0.2, 0.0};
  ref::SpringColumn col = cundallColumn(sphere, wall);
  // Heights with every overlap `factor` times its static value.
  Eigen::VectorXd release(double factor) const { return col.heights(factor * col.staticOverlaps()); }
};

// The push of contact i (under sphere i) on the body above it; throws if the contact is not real.
double contactPush(const Scene& s, Eigen::Index i) {
  const auto id = static_cast<std::uint32_t>(i + 1);
  const std::int64_t k = s.contacts.find(id, i == 0 ? 0u : id - 1);
  if (k < 0 || !s.contacts.get(static_cast<std::size_t>(k)).real)
    throw std::runtime_error("column_modes: contact " + std::to_string(i) + " opened");
  const Contact c = s.contacts.get(static_cast<std::size_t>(k));
  return i == 0 ? c.force.z() : -c.force.z();  // wall contact: force on the sphere (id1); else on the lower sphere
}

struct ColumnErrors {
  double modal = 0, force = 0, continuum = 0, bound = 0;
};

ColumnErrors runColumn(const ColumnSetup& c, double factor, double dt, Series* series) {
  const Eigen::VectorXd z0 = c.release(factor);
  const ref::ColumnModes modes(c.col, z0);
  if (!modes.staysClosed()) throw std::logic_error("column_modes: this release may open a contact");
  Scene s = columnScene(c.sphere, c.wall, c.col, z0, Eigen::VectorXd::Zero(c.col.size()), 0, dt);
  const long steps = std::lround(kColumnEnd / dt);
  const Eigen::Index n = c.col.size();
  ColumnErrors e;
  for (long k = 1; k <= steps; ++k) {
    s.step();  // positions z_k, contact forces at z_{k-1}
    const Eigen::VectorXd zd = modes.zs + modes.discrete(k, dt),
                          zc = modes.zs + modes.continuum(static_cast<double>(k) * dt);
    const Eigen::VectorXd uPrev = c.col.staticOverlaps() + [&] {
      const Eigen::VectorXd d = modes.discrete(k - 1, dt);
      Eigen::VectorXd du(n);
      for (Eigen::Index i = 0; i < n; ++i) du[i] = -(d[i] - (i == 0 ? 0.0 : d[i - 1]));
      return du;
    }();
    for (Eigen::Index i = 0; i < n; ++i) {
      const double z = s.particles.pos[static_cast<std::size_t>(i + 1)].z();
      e.modal = std::max(e.modal, std::abs(z - zd[i]));
      e.continuum = std::max(e.continuum, std::abs(z - zc[i]));
      e.force = std::max(e.force, std::abs(contactPush(s, i) - (i == 0 ? c.col.kw : c.col.ks) * uPrev[i]));
    }
    if (series && k % 4 == 0)
      series->rows.push_back({s.time, s.particles.pos[static_cast<std::size_t>(n)].z() - modes.zs[n - 1],
                              zd[n - 1] - modes.zs[n - 1], zc[n - 1] - modes.zs[n - 1]});
  }
  e.bound = modes.continuumBound(dt, kColumnEnd);
  return e;
}

double columnRoundOff(double dt) {
  const ColumnSetup c;
  const double zMax = c.release(0.0).maxCoeff();
  return 4.0 * std::numeric_limits<double>::epsilon() * zMax * (kColumnEnd / dt + 1.0);
}

}  // namespace

Case columnModesCase() {
  const ColumnSetup setup;
  const double kMax = std::max(setup.col.kw, setup.col.ks), eps = std::numeric_limits<double>::epsilon();
  const double zMax = setup.release(0.0).maxCoeff();
  Case c;
  c.name = "column_modes";
  c.title = "column of 4 spheres on a wall, all contacts closed: leapfrog = discrete modal solution, continuum O(dt^2)";
  c.dts = halvings(5e-6, 4);
  c.quantities = {
      roundOffTolerance({"position_modal", columnRoundOff, std::nullopt, "m"}, "4 eps max|z| n (n steps)"),
      roundOffTolerance({"force_modal", [=](double dt) { return kMax * (2.0 * columnRoundOff(dt) + 4.0 * eps * zMax); },
                         std::nullopt, "N"},
                        "k_max (2 x 4 eps max|z| n + 4 eps max|z|)"),
      {"position_continuum",
       [setup](double dt) {
         double b = 0;
         for (const double f : {1.3, 0.5})
           b = std::max(b, ref::ColumnModes(setup.col, setup.release(f)).continuumBound(dt, kColumnEnd));
         return b;
       },
       OrderSpec{2.0, 1.95, 2.05}, "m"},
  };
  c.run = [setup](double dt) {
    RunOutput out;
    Series top{"top_sphere", {"t", "z_dem", "z_modal_discrete", "z_continuum"},
               {},           "top sphere, release at 1.3x the static overlaps",
               "t [s]",      "z - z_static [m]"};
    ColumnErrors m;
    for (const double f : {1.3, 0.5}) {
      const ColumnErrors e = runColumn(setup, f, dt, f == 1.3 ? &top : nullptr);
      m.modal = std::max(m.modal, e.modal);
      m.force = std::max(m.force, e.force);
      m.continuum = std::max(m.continuum, e.continuum);
    }
    out.errors["position_modal"] = m.modal;
    out.errors["force_modal"] = m.force;
    out.errors["position_continuum"] = m.continuum;
    out.series.push_back(std::move(top));
    return out;
  };
  return c;
}

}  // namespace dem::verify
