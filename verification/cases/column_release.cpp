// Case: enduring multi-contact dynamics with contacts that close and open (verification theory 2,
//       section 5, "When a contact opens"; MFIX DEM03 type): the column of column_modes released from
//       an unstressed state, so that its contacts close under gravity and open and close again: the
//       unilateral, piecewise-linear column (force k max(u, 0) at every contact, the wall's included).
// Scenario:  the column of column_modes (4 spheres, R = 0.01 m, rho = 2500 kg/m^3, m = 0.010472 kg,
//            kn = 1e6 N/m between spheres, kw = 1.9998e6 N/m at the wall, g = 9.81 m/s^2, linear
//            Cundall law, undamped), frictionless, from rest, through dem::Scene; T = 3 ms. Release
//            "touching": every contact just touching (u = 0): the wall contact closes at once, those
//            above close with u ~ t^4, t^6, t^8 as the column settles, the top contact opens at 1.41 ms
//            and closes again at 2.13 ms (the linear model's top overlap reaches -0.85 of its static
//            value, theory 2, 5). Release "apart": gaps of 1.0, 0.4, 0.7, 0.2 um under spheres 1 ... 4
//            (bottom first): the column falls, hits the wall at 0.45 ms (4.4 mm/s), closes its contacts
//            one after another and lifts off: 20 events, every contact closing and opening, the wall's
//            twice (series apart_forces). Four more releases apart with the bottom gap 1.06, 1.12, 1.18,
//            1.24 um shift the phases of all events (below). Levels dt = 5 ... 0.3125 us (w_max dt =
//            0.096 ... 0.006, w_max = 19169 rad/s with every contact closed). Frictional variant: the
//            touching and apart runs again with friction angle 0.5 rad and ks = 0.2 kn: with no lateral
//            motion the tangential springs of contacts that open and close again must stay exactly 0
//            and the run equal the frictionless one. (A frictional case with lateral motion and opening
//            contacts needs a stick-slip reference: the Coulomb cap mu k u vanishes at every opening.)
// Reference: Boost.Odeint (reference/unilateral_column.hpp): between events the set of closed
//            contacts is fixed and the system linear; dense-output Dormand-Prince 5(4) at abs/rel
//            1e-12 on the state scaled by m g/k_s = 1.03e-7 m and its velocity; every sign change of an
//            overlap located by bisection on the dense output to a few ulps of t, the stepper restarted
//            there. Its accuracy, in the touching and apart releases: solved again at 1e-13 it differs
//            by 1.4e-17 m (one ulp of z = 0.07 m), and its energy (kinetic, gravity, springs k u+^2/2;
//            a missed event would leave a spring pulling) stays constant to 3.6e-17 m x m g, six orders
//            below the DEM error at the finest level (4.3e-11 m); both gated at 1e-3 of the position
//            tolerance at the finest level; and against closed forms (a bouncing sphere, the compressed
//            column) in the unit suite unilateral_column_reference. (In the touching release contacts
//            1-3 flip a few times in the first 1.4 us at |u'| < 1e-15 m/s: round-off of overlaps of
//            1e-25 m, without effect.)
// Tolerance: fitted order. The force k max(u, 0) is continuous with a kink at u = 0, so the leapfrog
//            stays second order, but each crossing adds a defect that depends on where in its step it
//            falls: a crossing at the fraction s of a step after a force sample leaves the half-step
//            velocities off by (k/m) |u'| dt^2 (1/2 - s)^2 / 2 (<= 1/8 of (k/m) |u'| dt^2; zero at the half
//            step; checked against the exact crossing for s = 0 ... 0.9), an O(dt^2) velocity defect and
//            an O(dt^2) position error, as for the single impact (theory 2, 1.3 and 11.1: order 2, not 3).
//            The error is C(dt) dt^2 with C depending on the phases of the ~20 crossings: no clean power
//            between two levels. Over 5 levels the least-squares slope is 2 within 0.3 log2(C_max/C_min),
//            so the band 2 +- 0.3 (theory 2, 5: [1.7, 2.3]) admits a factor 2 in C between levels; that
//            premise is gated at every level as phase_spread, C_max/C_min over the five releases apart
//            <= 2 (measured 1.15 ... 1.38). Checked once further, outside the suite, with a model of the
//            scheme (kick-drift on the four heights with this reference; equal to this case's run to
//            every printed digit) on 24 releases with the bottom gap 1.0 ... 1.3 um: C from 322 to 520
//            m/s^2 (a factor 1.6), fitted slopes 1.92 ... 2.08, slopes between two levels 1.51 ... 2.51
//            (so only the fit is gated; theory 2, 5 measured 1.76 over 4 halvings of a 16 ms run, error
//            ratios 2.0, 3.4, 4.2, 4.1: the same scatter, inside the band). Per level, the linear-drift estimate
//              sum_e |dv_e| (T - t_e) + int_0^T (T - t) |x''''(t)| dt^2/12 dt,
//            |dv_e| = c_e (k_e/m) |u'_e| dt^2/8 (c_e = sqrt 2 for two spheres, 1 at the wall) from the
//            reference's events, |x''''| = |M^-1 K_A a| from its trajectory (the smooth defect is
//            dt^4 x''''/12 per step), the largest over the releases; a velocity defect dv drifts to at
//            most |dv| t of position, exactly while the contact set is fixed (energy norm, equal masses;
//            assumed across the switches). Measured: 0.06 ... 0.07 of it. Contact forces (from z_{n-1},
//            against k max(u_ref(t_{n-1}), 0)): max(k_w, 2 k_s) times the position estimate (max is
//            1-Lipschitz, an overlap is a difference of two heights), measured 0.04 ... 0.05 of it;
//            slope 2 +- 0.3 likewise. Frictional variant: 0, bit for bit. Positions and forces: the
//            largest error over the six releases.
#include "cases/column_scene.hpp"
#include "cases/registry.hpp"

#include <dem_reference/unilateral_column.hpp>

#include <algorithm>
#include <cmath>
#include <memory>
#include <string>
#include <vector>

namespace dem::verify {

namespace {

constexpr double kReleaseEnd = 3e-3;
constexpr double kReleaseRefTol = 1e-12;
// Releases: 0 touching, 1 apart, 2 ... 5 apart with the bottom gap 1.06, 1.12, 1.18, 1.24 um (phases).
constexpr int kReleases = 6;

struct ReleaseSetup {
  Material sphere{2500.0, 1e8, 0.2, 0.0}, wall{2500.0, 1e12, 0.2, 0.0};
  // The frictional variant: friction angle 0.5 rad, ks = 0.2 kn (Cundall).
  Material sphereFriction{2500.0, 1e8, 0.2, 0.5}, wallFriction{2500.0, 1e12, 0.2, 0.5};
  ref::SpringColumn col = cundallColumn(sphere, wall);
  // Gaps under each sphere (bottom first) of the releases apart.
  std::vector<double> gaps{1.0e-6, 0.4e-6, 0.7e-6, 0.2e-6};
  Eigen::VectorXd release(int r) const {
    Eigen::VectorXd z = col.touching();
    if (r == 0) return z;
    double lift = 0;
    for (Eigen::Index i = 0; i < col.size(); ++i)
      z[i] += (lift += gaps[static_cast<std::size_t>(i)] + (i == 0 ? 0.06e-6 * (r - 1) : 0.0));
    return z;
  }
  ref::UnilateralColumnSolution reference(int r, double dt, double tol = kReleaseRefTol) const {
    const long steps = std::lround(kReleaseEnd / dt);
    std::vector<double> t(static_cast<std::size_t>(steps) + 1);
    for (long k = 0; k <= steps; ++k) t[static_cast<std::size_t>(k)] = static_cast<double>(k) * dt;
    return ref::solveUnilateralColumn(col, release(r), Eigen::VectorXd::Zero(col.size()), t, tol);
  }
  double stiffness(Eigen::Index i) const { return i == 0 ? col.kw : col.ks; }
  // Energy over m g (a height): kinetic + potential (from the touching column) + springs.
  double energyHeight(const Eigen::VectorXd& z, const Eigen::VectorXd& v, const Eigen::VectorXd& u) const {
    double e = 0;
    for (Eigen::Index i = 0; i < col.size(); ++i)
      e += 0.5 * col.m * v[i] * v[i] + col.m * col.g * (z[i] - col.touching()[i]) +
           0.5 * stiffness(i) * std::max(u[i], 0.0) * std::max(u[i], 0.0);
    return e / (col.m * col.g);
  }
};

// The push of contact i (under sphere i) on the body above it; 0 while the bodies do not touch.
double releasePush(const Scene& s, Eigen::Index i) {
  const auto id = static_cast<std::uint32_t>(i + 1);
  const std::int64_t k = s.contacts.find(id, i == 0 ? 0u : id - 1);
  if (k < 0) return 0.0;
  const Contact c = s.contacts.get(static_cast<std::size_t>(k));
  return i == 0 ? c.force.z() : -c.force.z();
}

// The linear-drift estimate of max |z_n - z(t_n)| (banner, "Tolerance"), as the coefficient of dt^2:
// each contact event e adds a velocity defect of norm <= sqrt(2) (k_e/m) |u'_e| dt^2 / 8 (one body at
// the wall: without the sqrt(2)), the smooth motion a defect rate <= |x''''| dt^2 / 12, and a velocity
// defect dv at t drifts into at most |dv| (T - t) of position. From the reference on the grid of dt.
double driftCoefficient(const ReleaseSetup& c, int rel, double dt) {
  const ref::UnilateralColumnSolution r = c.reference(rel, dt);
  double events = 0, smooth = 0;
  for (const ref::ColumnEvent& e : r.events)
    events += (e.contact == 0 ? 1.0 : std::sqrt(2.0)) * c.stiffness(e.contact) / c.col.m * std::abs(e.rate) / 8.0 *
              (kReleaseEnd - e.t);
  const Eigen::Index n = c.col.size();
  for (std::size_t k = 0; k < r.u.size(); ++k) {
    const Eigen::VectorXd& u = r.u[k];
    // a = -g + M^-1 f(u); x'''' = -M^-1 K_A a (K_A: the closed contacts' springs)
    Eigen::VectorXd a = Eigen::VectorXd::Constant(n, -c.col.g), x4 = Eigen::VectorXd::Zero(n);
    for (Eigen::Index i = 0; i < n; ++i) {
      const double f = c.stiffness(i) * std::max(u[i], 0.0) / c.col.m;
      a[i] += f;
      if (i > 0) a[i - 1] -= f;
    }
    for (Eigen::Index i = 0; i < n; ++i) {
      if (u[i] <= 0) continue;
      const double f = -c.stiffness(i) * (a[i] - (i == 0 ? 0.0 : a[i - 1])) / c.col.m;
      x4[i] += f;
      if (i > 0) x4[i - 1] -= f;
    }
    smooth += (kReleaseEnd - static_cast<double>(k) * dt) * x4.norm() / 12.0 * dt;
  }
  return events + smooth;
}

struct ReleaseErrors {
  double position = 0, force = 0, reference = 0, energy = 0, frictionPosition = 0, frictionTangential = 0;
};

// One release at dt. Releases 0 and 1 also run the frictional scene, the reference at tol/10 and the
// reference's energy, and keep their series.
ReleaseErrors runRelease(const ReleaseSetup& c, int rel, double dt, RunOutput& out) {
  const bool full = rel < 2;
  const ref::UnilateralColumnSolution r = c.reference(rel, dt),
                                      fine = full ? c.reference(rel, dt, kReleaseRefTol / 10.0) : r;
  const Eigen::Index n = c.col.size();
  Scene s = columnScene(c.sphere, c.wall, c.col, c.release(rel), Eigen::VectorXd::Zero(n), 0, dt),
        sf = columnScene(c.sphereFriction, c.wallFriction, c.col, c.release(rel), Eigen::VectorXd::Zero(n), 0, dt);
  const long steps = std::lround(kReleaseEnd / dt);
  const std::string name = rel == 0 ? "touching" : "apart";
  ReleaseErrors e;
  const std::string what = rel == 0 ? "released touching" : "released with gaps";
  Series heights{name + "_heights", {"t"}, {}, "heights, " + what, "t [s]", "z - z_touching [m]"},
      forces{name + "_forces", {"t"}, {}, "contact forces (contact 0: the wall), " + what, "t [s]", "F [N]"};
  for (Eigen::Index i = 0; i < n; ++i) heights.columns.push_back("z" + std::to_string(i + 1));
  for (Eigen::Index i = 0; i < n; ++i) heights.columns.push_back("z" + std::to_string(i + 1) + "_ref");
  for (Eigen::Index i = 0; i < n; ++i) forces.columns.push_back("F" + std::to_string(i));
  for (Eigen::Index i = 0; i < n; ++i) forces.columns.push_back("F" + std::to_string(i) + "_ref");
  const double e0 = c.energyHeight(r.z[0], r.v[0], r.u[0]);
  for (long k = 1; k <= steps; ++k) {
    s.step();  // positions z_k, contact forces at z_{k-1}
    const auto K = static_cast<std::size_t>(k);
    for (Eigen::Index i = 0; i < n; ++i) {
      const double z = s.particles.pos[static_cast<std::size_t>(i + 1)].z();
      e.position = std::max(e.position, std::abs(z - r.z[K][i]));
      e.force = std::max(e.force, std::abs(releasePush(s, i) - c.stiffness(i) * std::max(r.u[K - 1][i], 0.0)));
    }
    if (!full) continue;
    sf.step();
    for (std::size_t j = 0; j < sf.contacts.size(); ++j) {
      const Contact cf = sf.contacts.get(j);
      e.frictionTangential = std::max({e.frictionTangential, cf.force.head<2>().norm(), cf.u.tail<2>().norm()});
    }
    for (Eigen::Index i = 0; i < n; ++i) {
      const auto p = static_cast<std::size_t>(i + 1);
      e.frictionPosition = std::max(e.frictionPosition, (sf.particles.pos[p] - s.particles.pos[p]).norm());
      e.reference = std::max(e.reference, std::abs(r.z[K][i] - fine.z[K][i]));
    }
    e.energy = std::max(e.energy, std::abs(c.energyHeight(r.z[K], r.v[K], r.u[K]) - e0));
    if (k % 2 != 0) continue;
    std::vector<double> h{s.time}, f{s.time - dt};  // forces of step k: from z_{k-1}
    for (Eigen::Index i = 0; i < n; ++i)
      h.push_back(s.particles.pos[static_cast<std::size_t>(i + 1)].z() - c.col.touching()[i]);
    for (Eigen::Index i = 0; i < n; ++i) h.push_back(r.z[K][i] - c.col.touching()[i]);
    for (Eigen::Index i = 0; i < n; ++i) f.push_back(releasePush(s, i));
    for (Eigen::Index i = 0; i < n; ++i) f.push_back(c.stiffness(i) * std::max(r.u[K - 1][i], 0.0));
    heights.rows.push_back(std::move(h));
    forces.rows.push_back(std::move(f));
  }
  if (full) {
    out.series.push_back(std::move(heights));
    out.series.push_back(std::move(forces));
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
  double drift = 0;
  for (int r = 0; r < kReleases; ++r) drift = std::max(drift, driftCoefficient(*setup, r, dtFine));
  const auto bound = [drift](double dt) { return drift * dt * dt; };
  const double kMax = std::max(setup->col.kw, 2.0 * setup->col.ks);
  const std::string refBound = "reference 1e-3 of the DEM estimate at the finest level";
  c.quantities = {
      {"position", bound, OrderSpec{2.0, 1.7, 2.3}, "m"},
      {"contact_force", [=](double dt) { return kMax * bound(dt); }, OrderSpec{2.0, 1.7, 2.3}, "N"},
      theoryBound("factor 2 in C over crossing phases (the band's premise)",
                  {"phase_spread", [](double) { return 2.0; }, std::nullopt}),
      theoryBound(refBound,
                  {"reference_tolerance_halving", [=](double) { return 1e-3 * bound(dtFine); }, std::nullopt, "m"}),
      theoryBound(refBound, {"reference_energy", [=](double) { return 1e-3 * bound(dtFine); }, std::nullopt, "m"}),
      roundOffTolerance({"frictional_position_change", [](double) { return 0.0; }, std::nullopt, "m"},
                        "0: bit for bit"),
      roundOffTolerance({"frictional_tangential", [](double) { return 0.0; }, std::nullopt}, "0: exactly"),
  };
  c.run = [setup](double dt) {
    RunOutput out;
    ReleaseErrors m;
    double cMin = 0, cMax = 0;
    for (int r = 0; r < kReleases; ++r) {
      const ReleaseErrors e = runRelease(*setup, r, dt, out);
      m.position = std::max(m.position, e.position);
      m.force = std::max(m.force, e.force);
      m.reference = std::max(m.reference, e.reference);
      m.energy = std::max(m.energy, e.energy);
      m.frictionPosition = std::max(m.frictionPosition, e.frictionPosition);
      m.frictionTangential = std::max(m.frictionTangential, e.frictionTangential);
      if (r == 0) continue;
      const double C = e.position / (dt * dt);
      cMin = r == 1 ? C : std::min(cMin, C);
      cMax = std::max(cMax, C);
    }
    out.errors["position"] = m.position;
    out.errors["contact_force"] = m.force;
    out.errors["phase_spread"] = cMax / cMin;
    out.errors["reference_tolerance_halving"] = m.reference;
    out.errors["reference_energy"] = m.energy;
    out.errors["frictional_position_change"] = m.frictionPosition;
    out.errors["frictional_tangential"] = m.frictionTangential;
    return out;
  };
  return c;
}

}  // namespace dem::verify
