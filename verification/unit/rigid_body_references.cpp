// Unit: the rigid-body references agree with each other (verification theory, sections 3.3-3.5):
// the closed-form symmetric top, the Jacobi-elliptic asymmetric top and the torque-driven top
// against Euler's equations + quaternion kinematics integrated by Boost.Odeint (dopri5, tolerance
// 1e-12). Tolerance 1e-10: the theory document measured 2e-13..6e-12 for these comparisons; the
// Odeint error is a few times its tolerance, growing at most linearly over the ~10 time units here.
#include <dem_reference/asymmetric_top.hpp>
#include <dem_reference/rigid_body_odeint.hpp>
#include <dem_reference/symmetric_top.hpp>
#include <dem_reference/torque_driven_top.hpp>

#include <boost/test/unit_test.hpp>

#include <cmath>

using namespace dem::ref;
using Eigen::Quaterniond;
using Eigen::Vector3d;

namespace {
double angleBetween(const Quaterniond& a, const Quaterniond& b) {
  return 2.0 * std::asin(std::min(1.0, (a.conjugate() * b).vec().norm()));
}
const Quaterniond kQ0(Eigen::AngleAxisd(0.9, Vector3d(0.3, -1.0, 0.5).normalized()));
}  // namespace

BOOST_AUTO_TEST_SUITE(rigid_body_references)

BOOST_AUTO_TEST_CASE(symmetric_top_closed_form_matches_odeint) {
  // oblate and prolate tops (theory 3.3: 6e-13 and 1.6e-13 rad measured)
  for (const Vector3d& I : {Vector3d(1, 1, 1.6), Vector3d(2, 2, 1)}) {
    const Vector3d w0(0.6, 0.0, 2.0);
    const SymmetricTop top(I[0], I[2], w0, kQ0);
    const std::vector<double> times{1.0, 5.0, 10.0};
    const auto ode = odeintRigidBody({kQ0, w0}, I, times);
    for (std::size_t k = 0; k < times.size(); ++k) {
      BOOST_TEST((ode[k].w - top.omegaBody(times[k])).norm() < 1e-10);
      BOOST_TEST(angleBetween(ode[k].q, top.orientation(times[k])) < 1e-10);
      // L is the space-frame angular momentum of the reference state.
      BOOST_TEST((ode[k].q * I.cwiseProduct(ode[k].w) - top.angularMomentum()).norm() < 1e-10);
    }
  }
}

BOOST_AUTO_TEST_CASE(symmetric_top_precession_rates) {
  // The symmetry axis e3 stays on a cone of half-angle acos(L3/|L|) about L.
  const SymmetricTop top(1.0, 1.6, Vector3d(0.6, 0, 2.0), kQ0);
  const Vector3d Lhat = top.angularMomentum().normalized();
  for (double t : {0.0, 0.7, 3.3}) {
    const Vector3d e3 = top.orientation(t) * Vector3d::UnitZ();
    BOOST_TEST(std::abs(std::acos(e3.dot(Lhat)) - top.coneHalfAngle()) < 1e-12);
  }
  BOOST_TEST(std::abs(top.bodyPrecessionRate() - 0.6 * 2.0) < 1e-15);
}

BOOST_AUTO_TEST_CASE(asymmetric_top_jacobi_matches_odeint_both_cases) {
  const Vector3d I(1, 2, 3);
  struct C { Vector3d w0; bool caseA; double period; };
  // theory 3.4: case A P = 3.15815, case B P = 5.72746
  for (const C& c : {C{Vector3d(0.5, 0, 2), true, 3.15815}, C{Vector3d(2, 0, 0.5), false, 5.72746}}) {
    const AsymmetricTop top(I, c.w0);
    BOOST_TEST(top.caseA == c.caseA);
    BOOST_TEST(std::abs(top.period() - c.period) < 1e-5);
    const std::vector<double> times{0.5, 3.0, 9.1};
    const auto ode = odeintRigidBody({kQ0, c.w0}, I, times);
    for (std::size_t k = 0; k < times.size(); ++k) BOOST_TEST((ode[k].w - top.omegaBody(times[k])).norm() < 1e-10);
    // One period later w returns to w0.
    BOOST_TEST((top.omegaBody(top.period()) - c.w0).norm() < 1e-12);
  }
}

BOOST_AUTO_TEST_CASE(dzhanibekov_flip_interval) {
  // theory 3.5: I = (1,2,3), w0 = (0.01, 1, 0.01), case A, P/2 = 19.5529 s. (w2(0) != 0 here, so
  // the flip interval is computed from the invariants, which do not depend on the phase.)
  const Vector3d I(1, 2, 3), w0(0.01, 1, 0.01);
  const double L2 = I.cwiseProduct(w0).squaredNorm(), E2 = w0.dot(I.cwiseProduct(w0));
  BOOST_TEST(std::abs(L2 - E2 * I[1] - 2e-4) < 1e-14);
  const AsymmetricTopInvariants inv = asymmetricTopInvariants(I, w0);
  BOOST_TEST(inv.caseA);
  BOOST_TEST(std::abs(inv.flipInterval() - 19.5529) < 1e-4);
  // Same as the Jacobi solution of a top with the same invariants (w2 = 0 phase).
  const AsymmetricTop top(I, Vector3d(0.5, 0, 2));
  BOOST_TEST(std::abs(asymmetricTopInvariants(I, top.omegaBody(1.234)).flipInterval() - top.flipInterval()) < 1e-12);
}

BOOST_AUTO_TEST_CASE(torque_driven_top_matches_odeint) {
  // Yade's cylinder (rho 7750, R 0.05, H 0.15): Ia = m R^2/2, It = m H^2/12 + m R^2/4, tau = R/2.
  const double m = 7750.0 * M_PI * 0.05 * 0.05 * 0.15;
  const TorqueDrivenTop top{0.5 * m * 0.05 * 0.05, m * 0.15 * 0.15 / 12 + 0.25 * m * 0.05 * 0.05, 0.025,
                            Vector3d(0.3, -0.9, 0.6)};
  const std::vector<double> times{0.1, 0.4, 0.7};
  const Vector3d tau = top.torqueBody();
  const auto ode = odeintRigidBody({kQ0, top.w0}, top.inertia(), times,
                                   [&](double, const Quaterniond&, const Vector3d&) { return tau; });
  for (std::size_t k = 0; k < times.size(); ++k)
    BOOST_TEST((ode[k].w - top.omegaBody(times[k])).norm() < 1e-10 * top.omegaBody(times[k]).norm());
}

BOOST_AUTO_TEST_SUITE_END()

#include <dem_reference/sphere_union.hpp>

BOOST_AUTO_TEST_SUITE(sphere_union_reference)

BOOST_AUTO_TEST_CASE(limits_and_lens_volume) {
  const double R = 0.7, rho = 3.0, V = 4.0 / 3.0 * M_PI * R * R * R, m = rho * V;
  // d = 0: one sphere; d = 2R: two touching spheres (parallel axis).
  const auto one = twoSphereUnion(R, 0.0, rho);
  BOOST_TEST(std::abs(one.mass / m - 1) < 1e-14);
  BOOST_TEST(std::abs(one.axial / (0.4 * m * R * R) - 1) < 1e-14);
  BOOST_TEST(std::abs(one.transverse / (0.4 * m * R * R) - 1) < 1e-14);
  const auto two = twoSphereUnion(R, 2 * R, rho);
  BOOST_TEST(std::abs(two.mass / (2 * m) - 1) < 1e-14);
  BOOST_TEST(std::abs(two.axial / (0.8 * m * R * R) - 1) < 1e-14);
  BOOST_TEST(std::abs(two.transverse / (2 * (0.4 * m * R * R + m * R * R)) - 1) < 1e-14);
  // Overlap: V = 2 V_s - lens, lens = pi (4R + d)(2R - d)^2 / 12.
  const double d = 0.9;
  const double lens = M_PI * (4 * R + d) * (2 * R - d) * (2 * R - d) / 12;
  BOOST_TEST(std::abs(twoSphereUnion(R, d, rho).mass / (rho * (2 * V - lens)) - 1) < 1e-14);
}

BOOST_AUTO_TEST_SUITE_END()
