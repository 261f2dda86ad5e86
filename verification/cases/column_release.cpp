// Case: column released from an unstressed state (BANNER TO BE WRITTEN)
#include "cases/column_scene.hpp"
#include "cases/registry.hpp"

#include <dem_reference/unilateral_column.hpp>

#include <algorithm>
#include <cmath>
#include <memory>
#include <numbers>
#include <string>
#include <vector>

namespace dem::verify {

namespace {

constexpr double kReleaseEnd = 3e-3;
constexpr double kReleaseRefTol = 1e-12;

struct ReleaseSetup {
  Material sphere{2500.0, 1e8, 0.2, 0.0}, wall{2500.0, 1e12, 0.2, 0.0};
  // The frictional variant: friction angle 0.5 rad, ks = 0.2 kn (Cundall).
  Material sphereFriction{2500.0, 1e8, 0.2, 0.5}, wallFriction{2500.0, 1e12, 0.2, 0.5};
  ref::SpringColumn col = cundallColumn(sphere, wall);
  // Release A: every contact just touching. Release B: gaps under each sphere (bottom first).
  std::vector<double> gaps{1.0e-6, 0.4e-6, 0.7e-6, 0.2e-6};
  Eigen::VectorXd release(bool apart) const {
    Eigen::VectorXd z = col.touching();
    if (!apart) return z;
    double lift = 0;
    for (Eigen::Index i = 0; i < col.size(); ++i) z[i] += (lift += gaps[static_cast<std::size_t>(i)]);
    return z;
  }
  ref::UnilateralColumnSolution reference(bool apart, double dt, double tol = kReleaseRefTol) const {
    const long steps = std::lround(kReleaseEnd / dt);
    std::vector<double> t(static_cast<std::size_t>(steps) + 1);
    for (long k = 0; k <= steps; ++k) t[static_cast<std::size_t>(k)] = static_cast<double>(k) * dt;
    return ref::solveUnilateralColumn(col, release(apart), Eigen::VectorXd::Zero(col.size()), t, tol);
  }
  double stiffness(Eigen::Index i) const { return i == 0 ? col.kw : col.ks; }
};

// The push of contact i (under sphere i) on the body above it; 0 while the bodies do not touch.
double releasePush(const Scene& s, Eigen::Index i) {
  const auto id = static_cast<std::uint32_t>(i + 1);
  const std::int64_t k = s.contacts.find(id, i == 0 ? 0u : id - 1);
  if (k < 0) return 0.0;
  const Contact c = s.contacts.get(static_cast<std::size_t>(k));
  return i == 0 ? c.force.z() : -c.force.z();
}

// The linear-drift bound on max |z_n - z(t_n)| (banner): each contact event e adds a velocity defect
// <= sqrt(2) (k_e/m) |u'_e| dt^2 / 12, the smooth motion a velocity defect rate <= |x''''| dt^2 / 12;
// a velocity defect dv drifts into at most |dv| t of position. Returns the coefficient of dt^2.
struct DriftBound {
  double events = 0, smooth = 0;
  double operator()(double dt) const { return (events + smooth) * dt * dt; }
};

DriftBound driftBound(const ReleaseSetup& c, bool apart, double dt) {
  const ref::UnilateralColumnSolution r = c.reference(apart, dt);
  DriftBound b;
  for (const ref::ColumnEvent& e : r.events)
    b.events += std::sqrt(2.0) * c.stiffness(e.contact) / c.col.m * std::abs(e.rate) / 12.0 * (kReleaseEnd - e.t);
  const Eigen::Index n = c.col.size();
  double x4 = 0;
  for (const Eigen::VectorXd& u : r.u) {
    Eigen::VectorXd a = Eigen::VectorXd::Constant(n, -c.col.g), x4v = Eigen::VectorXd::Zero(n);
    Eigen::VectorXd f(n);
    for (Eigen::Index i = 0; i < n; ++i) f[i] = c.stiffness(i) * std::max(u[i], 0.0);
    for (Eigen::Index i = 0; i < n; ++i) {
      a[i] += f[i] / c.col.m;
      if (i > 0) a[i - 1] -= f[i] / c.col.m;
    }
    // x'''' = -(1/m) K_A a: contact i closed adds k_i (a_i - a_{i-1}) to the force rate on i and its negative below
    for (Eigen::Index i = 0; i < n; ++i) {
      if (u[i] <= 0) continue;
      const double fdd = -c.stiffness(i) * (a[i] - (i == 0 ? 0.0 : a[i - 1])) / c.col.m;
      x4v[i] += fdd;
      if (i > 0) x4v[i - 1] -= fdd;
    }
    x4 = std::max(x4, x4v.norm());
  }
  b.smooth = kReleaseEnd * kReleaseEnd / 2.0 * x4 / 12.0;
  return b;
}

struct ReleaseErrors {
  double position = 0, force = 0, reference = 0, frictionPosition = 0, frictionTangential = 0;
};

ReleaseErrors runRelease(const ReleaseSetup& c, bool apart, double dt, RunOutput* out) {
  const ref::UnilateralColumnSolution r = c.reference(apart, dt), fine = c.reference(apart, dt, kReleaseRefTol / 10.0);
  const Eigen::Index n = c.col.size();
  Scene s = columnScene(c.sphere, c.wall, c.col, c.release(apart), Eigen::VectorXd::Zero(n), 0, dt),
        sf = columnScene(c.sphereFriction, c.wallFriction, c.col, c.release(apart), Eigen::VectorXd::Zero(n), 0, dt);
  const long steps = std::lround(kReleaseEnd / dt);
  ReleaseErrors e;
  Series series{apart ? "release_apart" : "release_touching",
                {"t", "z_top_dem", "z_top_ref", "F_wall_dem", "F_wall_ref"},
                {},
                apart ? "gaps under every sphere: top sphere and wall force" : "touching: top sphere and wall force",
                "t [s]",
                "z - z_touching [m], F [N]"};
  for (long k = 1; k <= steps; ++k) {
    s.step();  // positions z_k, contact forces at z_{k-1}
    sf.step();
    const auto K = static_cast<std::size_t>(k);
    for (std::size_t j = 0; j < sf.contacts.size(); ++j) {
      const Contact cf = sf.contacts.get(j);
      e.frictionTangential = std::max({e.frictionTangential, cf.force.head<2>().norm(), cf.u.tail<2>().norm()});
    }
    for (Eigen::Index i = 0; i < n; ++i) {
      const double z = s.particles.pos[static_cast<std::size_t>(i + 1)].z();
      e.position = std::max(e.position, std::abs(z - r.z[K][i]));
      e.frictionPosition = std::max(e.frictionPosition, (sf.particles.pos[static_cast<std::size_t>(i + 1)] -
                                                         s.particles.pos[static_cast<std::size_t>(i + 1)])
                                                            .norm());
      e.reference = std::max(e.reference, std::abs(r.z[K][i] - fine.z[K][i]));
      e.force = std::max(e.force, std::abs(releasePush(s, i) - c.stiffness(i) * std::max(r.u[K - 1][i], 0.0)));
    }
    if (out && k % 4 == 0)
      series.rows.push_back({s.time, s.particles.pos[static_cast<std::size_t>(n)].z() - c.col.touching()[n - 1],
                             r.z[K][n - 1] - c.col.touching()[n - 1], releasePush(s, 0),
                             c.col.kw * std::max(r.u[K - 1][0], 0.0)});
  }
  if (out) {
    out->series.push_back(std::move(series));
    Series events{apart ? "events_apart" : "events_touching",
                  {"t", "contact", "closes", "rate"},
                  {},
                  "reference: contact closings (1) and openings (0); contact 0 is the wall",
                  "t [s]",
                  ""};
    for (const ref::ColumnEvent& ev : r.events)
      events.rows.push_back({ev.t, static_cast<double>(ev.contact), ev.closes ? 1.0 : 0.0, ev.rate});
    out->series.push_back(std::move(events));
  }
  return e;
}

}  // namespace

Case columnReleaseCase() {
  const auto setup = std::make_shared<const ReleaseSetup>();
  Case c;
  c.name = "column_release";
  c.title =
      "column of 4 spheres released unstressed onto a wall, contacts closing and opening: leapfrog vs Odeint O(dt^2)";
  c.dts = halvings(5e-6, 5);
  const double dtFine = c.dts.back();
  DriftBound bound;
  for (const bool apart : {false, true}) {
    const DriftBound b = driftBound(*setup, apart, dtFine);
    bound.events = std::max(bound.events, b.events);
    bound.smooth = std::max(bound.smooth, b.smooth);
  }
  const double kMax = std::max(setup->col.kw, 2.0 * setup->col.ks);
  c.quantities = {
      {"position", bound, OrderSpec{2.0, 1.7, 2.3}, "m"},
      {"contact_force", [=](double dt) { return kMax * bound(dt); }, OrderSpec{2.0, 1.7, 2.3}, "N"},
      theoryBound("reference 1e-3 of the DEM bound at the finest level",
                  {"reference_tolerance_halving", [=](double) { return 1e-3 * bound(dtFine); }, std::nullopt, "m"}),
      roundOffTolerance({"frictional_position_change", [](double) { return 0.0; }, std::nullopt, "m"},
                        "0: bit for bit"),
      roundOffTolerance({"frictional_tangential", [](double) { return 0.0; }, std::nullopt}, "0: exactly"),
  };
  c.run = [setup](double dt) {
    RunOutput out;
    ReleaseErrors m;
    for (const bool apart : {false, true}) {
      const ReleaseErrors e = runRelease(*setup, apart, dt, &out);
      m.position = std::max(m.position, e.position);
      m.force = std::max(m.force, e.force);
      m.reference = std::max(m.reference, e.reference);
      m.frictionPosition = std::max(m.frictionPosition, e.frictionPosition);
      m.frictionTangential = std::max(m.frictionTangential, e.frictionTangential);
    }
    out.errors["position"] = m.position;
    out.errors["contact_force"] = m.force;
    out.errors["reference_tolerance_halving"] = m.reference;
    out.errors["frictional_position_change"] = m.frictionPosition;
    out.errors["frictional_tangential"] = m.frictionTangential;
    return out;
  };
  return c;
}

}  // namespace dem::verify
