// Unit: identities of the contact geometry in local contact coordinates and the Cundall law, on the
// contact kernel the solver runs (evaluateContact<Cundall>: contact_kernel.hpp) (seed "Local contact
// coordinates"; verification theory section 6.6).
// 1. The local frame stays orthonormal, right-handed, with x = n, over 5,000 steps of random
//    relative motion (round-off bound 1e-13: it is re-normalised every step).
// 2. A contacting pair with a shear history, moved as a rigid body (translation + rotation with
//    consistent mid-step velocities), keeps u, phi and |F| to round-off (v_r = w x (c - c) = 0
//    exactly with the branch vectors to the contact point), while F turns with the pair. The frame
//    follows the pair by the bending rotation (exact) and the twisting rotation (angle error
//    theta^3/12, and the seed's mid-step normal in theta: O(a^3) per step), so after N steps of
//    angle a the force direction is within N a^3 of the rotated one (a = 2e-3 rad, N = 500: 4e-6).
//    (phi through a law that keeps it: no law of the solver reads it yet.)
// 3. A law that reads no relative rotation keeps phi zero and gives the same forces, bit for bit.
// 4. Swapping the two particles gives equal and opposite forces, and the same torques on each
//    body, to round-off (1e-12 relative over the history).
#include "solver/contact_kernel.hpp"
#include "solver/laws.hpp"

#include <boost/test/unit_test.hpp>

#include <random>

using namespace dem;

namespace {

struct Body {
  Vec3 x, v, w;
  double r;
};

struct Eval {
  Vec3 force, torque1, torque2;
};

// Cundall's law with the relative rotation phi kept (Law::kRelativeRotation): no law of the solver
// reads phi yet, so the kernel's update of it (for a law of rolling or twisting resistance) is
// checked through this one.
struct CundallWithRotation : Cundall {
  static constexpr bool kRelativeRotation = true;
};

// One step of the contact stage for the pair (a, b) in this order: the solver's contact kernel on
// one contact (contact_kernel.hpp, evaluateContact; formation while c is not real).
template <class Law = Cundall>
Eval evaluate(const Body& a, const Body& b, Contact& c, double dt) {
  Particles p;
  for (const Body* x : {&a, &b}) {
    ParticleSpec s = sphereSpec(x->x, x->r, 1000.0);
    p.add(s);
    p.vel.back() = x->v;  // (mid-step velocities, as the loop reads them)
    p.angVel.back() = x->w;
  }
  c.id1 = 0;
  c.id2 = 1;
  c.type = ContactType::SphereSphere;
  evaluateContact<Law>(p, c, dt);
  return {c.force, c.torque1, c.torque2};
}

// Cundall parameters kn, ks, tan(phi), no dashpots.
LawValues physics(double tanPhi = 0.5) { return {1e5, 3e4, tanPhi, 0.0, 0.0}; }

// Random smooth relative motion keeping an overlap: body b circles around a with random spins.
struct RandomMotion {
  std::mt19937_64 rng{12345};
  std::normal_distribution<double> nd{0.0, 1.0};
  Vec3 rand3() { return Vec3(nd(rng), nd(rng), nd(rng)); }
};

}  // namespace

BOOST_AUTO_TEST_SUITE(contact_geometry)

BOOST_AUTO_TEST_CASE(frame_stays_orthonormal_with_x_along_n) {
  RandomMotion rm;
  const double dt = 1e-3;
  Body a{Vec3::Zero(), Vec3::Zero(), Vec3::Zero(), 0.01}, b{Vec3(0.0195, 0, 0), Vec3::Zero(), Vec3::Zero(), 0.01};
  Contact c;
  c.params = physics();
  double worstOrtho = 0.0, worstAxis = 0.0, worstDet = 0.0;
  for (int k = 0; k < 5000; ++k) {
    a.v = 0.1 * rm.rand3();
    b.v = a.v + 2.0 * rm.rand3();
    a.w = 50 * rm.rand3();
    b.w = 50 * rm.rand3();
    evaluate(a, b, c, dt);
    const Mat3 R = c.frame.toRotationMatrix();
    worstOrtho = std::max(worstOrtho, (R.transpose() * R - Mat3::Identity()).cwiseAbs().maxCoeff());
    worstAxis = std::max(worstAxis, (R.col(0) - (b.x - a.x).normalized()).norm());  // (the pair's normal now)
    worstDet = std::max(worstDet, std::abs(R.determinant() - 1));
    // Move b around a at the mid-step velocity, keeping the distance (overlap 5e-4 m).
    a.x += a.v * dt;
    b.x += b.v * dt;
    b.x = a.x + (b.x - a.x).normalized() * 0.0195;
  }
  BOOST_TEST(worstOrtho < 1e-13);
  BOOST_TEST(worstAxis < 1e-13);
  BOOST_TEST(worstDet < 1e-13);
}

BOOST_AUTO_TEST_CASE(rigid_motion_keeps_u_phi_and_turns_the_force) {
  const double dt = 1e-4;
  Body a{Vec3(0.1, 0.2, 0.3), Vec3::Zero(), Vec3::Zero(), 0.01};
  Body b{a.x + Vec3(0.0195, 0.002, -0.001).normalized() * 0.0195, Vec3::Zero(), Vec3::Zero(), 0.012};
  Contact c;
  c.params = physics(10.0);  // high friction: the sheared spring sticks
  // Shear history: b slides tangentially and spins for 20 steps.
  const Vec3 n0 = (b.x - a.x).normalized();
  const Vec3 t0 = n0.cross(Vec3(0.3, 1, 0.2)).normalized();
  for (int k = 0; k < 20; ++k) {
    b.v = 0.05 * t0;
    b.w = Vec3(3, -2, 5);
    evaluate<CundallWithRotation>(a, b, c, dt);
    b.x += b.v * dt;
  }
  // Rigid motion: rotation omega about the pair's centre X plus translation V.
  const Vec3 omega = Vec3(1.0, -2.0, 1.5).normalized() * 20.0, V(0.3, -0.1, 0.2);  // |omega| dt = 2e-3
  a.w = b.w = omega;
  Vec3 X = 0.5 * (a.x + b.x);
  const Eval start = evaluate<CundallWithRotation>(a, b, c, 0.0);  // dt = 0: the state itself, no increment
  const Vec3 u0 = c.u, phi0 = c.phi, F0 = start.force;
  BOOST_REQUIRE(F0.norm() > 0.0);
  BOOST_REQUIRE(Vec3(0, c.u[1], c.u[2]).norm() > 0.0);
  BOOST_REQUIRE(phi0.norm() > 0.0);  // (the spins gave it a relative rotation)
  const int N = 500;
  const Mat3 Q = Eigen::AngleAxisd(omega.norm() * dt, omega.normalized()).toRotationMatrix();
  Eval e = start;
  for (int k = 0; k < N; ++k) {
    // Positions at the next step: exact rigid motion; velocities consistent with them.
    const Vec3 Xn = X + V * dt;
    a.x = Xn + Q * (a.x - X);
    b.x = Xn + Q * (b.x - X);
    X = Xn;
    a.v = V + omega.cross(a.x - X);
    b.v = V + omega.cross(b.x - X);
    e = evaluate<CundallWithRotation>(a, b, c, dt);
  }
  const Mat3 Qn = Eigen::AngleAxisd(N * omega.norm() * dt, omega.normalized()).toRotationMatrix();
  const double scale = u0.norm();
  BOOST_TEST((c.u - u0).norm() < 1e-12 * scale);
  BOOST_TEST((c.phi - phi0).norm() < 1e-12 * (phi0.norm() + 1e-3));
  BOOST_TEST(std::abs(e.force.norm() - F0.norm()) < 1e-12 * F0.norm());
  const double a3 = std::pow(omega.norm() * dt, 3);
  const double dirErr = (e.force - Qn * F0).norm();
  BOOST_TEST_MESSAGE("rigid motion: |F - Q F0| / |F| = " << dirErr / F0.norm() << ", bound " << N * a3);
  BOOST_TEST(dirErr < N * a3 * F0.norm());
  BOOST_TEST((e.force - F0).norm() > 0.1 * F0.norm());  // it did turn (by 1 rad)
}

BOOST_AUTO_TEST_CASE(a_law_without_rolling_resistance_keeps_no_phi) {
  // Cundall reads no relative rotation (kRelativeRotation false): the same spinning history leaves
  // phi zero, and the forces are those of the law that keeps it, bit for bit.
  const double dt = 1e-4;
  Body a{Vec3(0.1, 0.2, 0.3), Vec3::Zero(), Vec3::Zero(), 0.01};
  Body b{a.x + Vec3(0.0195, 0.002, -0.001).normalized() * 0.0195, Vec3::Zero(), Vec3::Zero(), 0.012};
  Contact c, kept;
  c.params = kept.params = physics(10.0);
  const Vec3 n0 = (b.x - a.x).normalized();
  const Vec3 t0 = n0.cross(Vec3(0.3, 1, 0.2)).normalized();
  for (int k = 0; k < 20; ++k) {
    b.v = 0.05 * t0;
    b.w = Vec3(3, -2, 5);
    const Eval e = evaluate(a, b, c, dt), f = evaluate<CundallWithRotation>(a, b, kept, dt);
    BOOST_TEST((e.force.array() == f.force.array()).all());
    BOOST_TEST((e.torque1.array() == f.torque1.array()).all());
    BOOST_TEST((e.torque2.array() == f.torque2.array()).all());
    b.x += b.v * dt;
  }
  BOOST_TEST(kept.phi.norm() > 0.0);
  BOOST_TEST(c.phi == Vec3::Zero());
}

BOOST_AUTO_TEST_CASE(swapping_particles_gives_opposite_forces) {
  RandomMotion rm;
  const double dt = 1e-4;
  Body a{Vec3::Zero(), Vec3::Zero(), Vec3::Zero(), 0.01}, b{Vec3(0.0, 0.019, 0.001), Vec3::Zero(), Vec3::Zero(), 0.011};
  Contact ab, ba;
  ab.params = ba.params = physics(0.4);
  double worstF = 0.0, worstT = 0.0, Fmax = 0.0, Tmax = 0.0;
  for (int k = 0; k < 2000; ++k) {
    a.v = 0.2 * rm.rand3();
    b.v = 0.2 * rm.rand3();
    a.w = 20 * rm.rand3();
    b.w = 20 * rm.rand3();
    const Eval e1 = evaluate(a, b, ab, dt);
    const Eval e2 = evaluate(b, a, ba, dt);
    worstF = std::max(worstF, (e1.force + e2.force).norm());      // force on a: e1.force = -e2.force
    worstT = std::max(worstT, std::max((e1.torque1 - e2.torque2).norm(), (e1.torque2 - e2.torque1).norm()));
    Fmax = std::max(Fmax, e1.force.norm());
    Tmax = std::max(Tmax, e1.torque1.norm());
    a.x += a.v * dt;
    b.x += b.v * dt;
    const double d = (b.x - a.x).norm();
    if (d > 0.0205 || d < 0.019) b.x = a.x + (b.x - a.x) * (0.02 / d);
  }
  BOOST_TEST(Fmax > 0.0);
  BOOST_TEST(worstF < 1e-12 * Fmax);
  BOOST_TEST(worstT < 1e-12 * Tmax);
}

BOOST_AUTO_TEST_SUITE_END()
