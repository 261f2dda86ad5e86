// Case: objectivity of the tangential spring on the production kernel (Kuhn 2020; issue 19 item 3):
//       a stuck, pre-sheared contact whose two spheres turn rigidly together, about an axis normal
//       to the contact (rotation) and about the contact normal (twirl); the force and torques must
//       turn with the pair, and the ledger must see no work.
// Scenario:  two glass spheres R = 0.01 m (E = 7e10 Pa, nu = 0.25), overlap 1e-4 m along
//            n = (2,-1,2)/3, friction angle 0.5 rad, all DOFs blocked; both laws: Cundall (ks = 0.2 kn)
//            and Hertz-Mindlin (k_t = 8 G* a; unprefixed rows are Cundall's). The contact forms, then sphere 2
//            is driven tangentially for 5 steps to a shear force of 0.3 mu N (the spring is stuck),
//            then the kinematics are prescribed for one revolution at Omega = 10 rad/s, th = Omega dt
//            per step, th = 0.04 ... 0.005: before each step the positions are set on the turned
//            pair (x_k = c + R(k th)(x_0 - c)) and the velocities to the leapfrog's mid-step values,
//            v_{k-1/2} = (x_k - x_{k-1})/dt, w the spin; then dem::Scene::step runs the contact stage
//            (collider, kernel, ledger) as in any run.
// Reference: the kernel's frame update (contact_kernel.hpp) turns the frame by the exact rotation
//            from n_{k-1} to n_k (bending) and by 2 atan(w_n dt/2) about n (twist quaternion (1, n
//            w_n dt/2), documented there: angle error th^3/12). The shear increment is the relative
//            velocity at the contact point, v_r = dv - L w x n (arms a1 + a2 = L, the centre
//            distance), off the mid-step normal. For a rotation about e (e.n = 0):
//            * spin w = 2 tan(th/2)/dt: dv, the chord 2 L sin(th/2)/dt along t_mid, cancels L w x n
//              off n_mid exactly: F_k = R(k th) F_0, torques alike, elastic energy constant;
//            * spin w = th/dt (the bodies turn by th per step as the pair): a shear increment
//              delta = L (2 sin(th/2) - th cos(th/2)) = L th^3/12 + O(th^5) along the turning
//              direction t = e x n each step, so F_k = R(k th)(F_0 + ks k delta t_0) exactly
//              (spurious shear per revolution pi L th^2/6: second order in dt, no drift at fixed dt
//              beyond it).
//            Twirl w = (th/dt) n on both spheres: v_r = 0 and the frame turns by psi = 2 atan(th/2)
//            per step: F_k = R_n(k psi) F_0 exactly; against the bodies' rotation R_n(k th) the force
//            lags by k (th - psi) = k th^3/12 + O(th^5) (order 2 per revolution).
//            Slip that starts inside a step: the turning pair (as above, with the spin scaled by
//            Lbar/L_k so that the shear increment still vanishes) is unloaded along its normal, the
//            overlap falling linearly from d_0 to 0.2 d_0 over the revolution; the cap mu N(d_k) passes
//            the stuck |F_t0| = 0.3 mu N_0 inside a step, after which
//            F_k = R(k th)[-N(d_k) n0 + (mu N(d_k)/|F_t0|) F_t0] (N = kn d or K d^(3/2)): the force
//            turns with the pair and stays on the cap. The ledger books the trapezoid
//            (F_trial - F_k)(F_{k-1} + F_k)/(2 k_t(d_k)) with F_trial = F_{k-1} (no increment), i.e.
//            (|F_{k-1}|^2 - |F_k|^2)/(2 k_t(d_k)) on each sliding step, summed in the reference.
// Tolerance: exact predictions: round-off relative to |F_0| (torques to |F_0| R):
//            eps (4 p L/d + 32 k) at step k, p the power of d in the quantity (force: 1 Cundall,
//            1.5 Hertz; elastic energy: 2, 2.5). The overlap d = 2R - L is a difference of the centre
//            distance L (from positions rounded to eps L/2): a few eps L, i.e. 4 eps L/d relative,
//            raised to the power p, at any step (measured 150 eps, L/d = 199); each step's frame update, a
//            few quaternion products and a normalisation of a few eps each, adds at most 32 eps, carried
//            on with gain 1 (measured: no growth over 1257 steps). Twirl
//            against the bodies' rotation: the
//            bound k (th - psi) |F_0| (|R(a) F - R(b) F| <= |a - b| |F|), slope 2 +- 0.05.
//            The ledger: no friction work while stuck (exactly 0: the Coulomb return never acts),
//            Hertz-Mindlin's spring term (k_t(d) changing at constant F_s) only from the rounding of
//            d: <= 2 eps L/d of the stored energy per step; in the unloading slip,
//            64 eps per step relative (each step's slip work is a difference of squares, a few eps
//            of the spring energy). In the unloading run d_min = 0.2 d_0 enters the 4 eps L/d term.
#include "cases/registry.hpp"
#include "solver/laws.hpp"
#include "solver/scene.hpp"

#include <Eigen/Geometry>

#include <algorithm>
#include <cmath>
#include <limits>
#include <numbers>
#include <stdexcept>
#include <string>

namespace dem::verify {

namespace {

constexpr double kObjR = 0.01, kObjOverlap = 1e-4, kObjOmega = 10.0;

struct PairState {
  Scene s;
  Vec3 c, x0[2];  // centre, positions after the pre-shear
  Vec3 F0, T0[2];
  double E0 = 0, ks = 0, L = 0;  // ks: the tangential stiffness at the pre-shear's overlap
  LawValues params{};
  // Normal force N(d) and tangential stiffness k_t(d) of the law (laws/cundall.hpp, laws/hertz_mindlin.hpp)
  double normal(double d) const { return s.law == ContactLaw::Cundall ? params[0] * d : params[0] * d * std::sqrt(d); }
  double tangent(double d) const { return s.law == ContactLaw::Cundall ? params[1] : params[1] * std::sqrt(d); }
  // Power of the overlap in the normal force (round-off of d enters it that many times)
  double power() const { return s.law == ContactLaw::Cundall ? 1.0 : 1.5; }
};

// Round-off bound at step k for a quantity ~ d^power (banner).
double roundOff(double power, double L, double d, long k) {
  return std::numeric_limits<double>::epsilon() * (4.0 * power * L / d + 32.0 * static_cast<double>(k));
}

Contact pairContact(const Scene& s) {
  const std::int64_t i = s.contacts.find(0, 1);
  if (i < 0 || !s.contacts.get(static_cast<std::size_t>(i)).real)
    throw std::runtime_error("tangential_objectivity: contact lost");
  return s.contacts.get(static_cast<std::size_t>(i));
}

// The pair formed and pre-sheared to 0.3 mu N along a tangent, at rest.
PairState preShearedPair(double dt, ContactLaw law) {
  const Material glass{2500.0, 7e10, 0.2, 0.5, 0.25, 1.0};
  const Vec3 n = Vec3(2, -1, 2) / 3.0, a = n.cross(Vec3::UnitZ()).normalized();
  const double L = 2 * kObjR - kObjOverlap;
  PairState p;
  p.s.materials = {glass};
  p.s.law = law;
  for (const double side : {-0.5, 0.5}) {
    ParticleSpec q = sphereSpec(side * L * n, kObjR, glass.density);
    q.blocked = dof::all;
    p.s.particles.add(q);
  }
  p.s.setDt(dt);
  p.s.setDamping(0.0);
  p.s.step();  // formation
  const Contact c0 = pairContact(p.s);
  p.params = c0.params;
  const double muN = c0.params[2] * std::abs(c0.force.dot(n)), ks = p.tangent(kObjOverlap);
  p.s.particles.vel[1] = (0.3 * muN / ks / 5.0 / dt) * a;
  for (int k = 0; k < 5; ++k) p.s.step();
  p.s.particles.vel[1] = Vec3::Zero();
  p.s.step();  // the last increment is in; now at rest
  p.x0[0] = p.s.particles.pos[0];
  p.x0[1] = p.s.particles.pos[1];
  p.c = 0.5 * (p.x0[0] + p.x0[1]);
  p.L = (p.x0[1] - p.x0[0]).norm();
  const Contact c = pairContact(p.s);
  p.F0 = c.force;
  p.T0[0] = c.torque1;
  p.T0[1] = c.torque2;
  p.E0 = c.elastic;
  p.ks = p.tangent(2 * kObjR - p.L);  // at the overlap after the pre-shear (Hertz-Mindlin: k_t(d))
  return p;
}

struct ObjErrors {
  double force = 0, raw = 0, torque = 0, elastic = 0, ledger = 0;
};

// Turns the pair by R_k = rotation(k) about c; spin w on both; `predicted(k)` is the force the
// kernel must give at step k, `rotation` also maps the torques (torque prediction only where
// `torques`). force: max |F_k - predicted| / |F_0| over the round-off bound; raw: without the bound.
template <class Rot, class Pred>
ObjErrors turnPair(double dt, ContactLaw law, Rot rotation, const Vec3& w, Pred predicted, bool torques) {
  PairState p = preShearedPair(dt, law);
  const double f0 = p.F0.norm(), d = 2 * kObjR - p.L;
  const double w0 = p.s.energy.frictionDissipated + p.s.energy.springDissipated;
  const long steps = std::lround(2 * std::numbers::pi / (kObjOmega * dt));
  ObjErrors e;
  for (long k = 1; k <= steps; ++k) {
    for (std::size_t i = 0; i < 2; ++i) {
      const Vec3 prev = p.c + rotation(k - 1) * (p.x0[i] - p.c), next = p.c + rotation(k) * (p.x0[i] - p.c);
      p.s.particles.pos[i] = next;
      p.s.particles.vel[i] = (next - prev) / dt;
      p.s.particles.angVel[i] = w;
    }
    p.s.step();
    const Contact c = pairContact(p.s);
    const double tol = roundOff(p.power(), p.L, d, k);
    const double raw = (c.force - predicted(k, p)).norm() / f0;
    e.raw = std::max(e.raw, raw);
    e.force = std::max(e.force, raw / tol);
    if (torques)
      e.torque = std::max(
          e.torque, std::max((c.torque1 - rotation(k) * p.T0[0]).norm(), (c.torque2 - rotation(k) * p.T0[1]).norm()) /
                        (f0 * kObjR) / tol);
    e.elastic = std::max(e.elastic, std::abs(c.elastic - p.E0) / p.E0 / roundOff(p.power() + 1.0, p.L, d, k));
  }
  // relative to the stored energy, over its round-off bound: Hertz-Mindlin's spring term
  // |F_s|^2 (1/k_t,prev - 1/k_t)/2 sees the rounding of d in k_t = k(sqrt d): <= 2 eps L/d of E_0 per step
  e.ledger = std::abs(p.s.energy.frictionDissipated + p.s.energy.springDissipated - w0) / p.E0 /
             (2.0 * std::numeric_limits<double>::epsilon() * p.L / d * static_cast<double>(steps));
  return e;
}

Mat3 turn(double angle, const Vec3& axis) { return Eigen::AngleAxisd(angle, axis).toRotationMatrix(); }

struct SlipErrors {
  double force = 0, ledger = 0;
  long onset = -1;  // first sliding step
};

// The pair turns about e (normal to n0) by th per step while its overlap d_k falls linearly from
// d_0 to 0.2 d_0: the Coulomb cap mu kn d_k passes |F_t0| inside some step, then the contact slides.
// Spin w_k = 2 tan(th/2)/dt Lbar/L_k (Lbar the mean of L_{k-1}, L_k) makes the shear increment
// vanish (banner), so F_k = R(k th) [-kn d_k n0 + min(1, mu kn d_k/|F_t0|) F_t0].
SlipErrors unloadingSlip(double dt, const Vec3& e, ContactLaw law) {
  PairState p = preShearedPair(dt, law);
  const double mu = p.params[2];
  const double th = kObjOmega * dt, d0 = 2 * kObjR - p.L;
  const long steps = std::lround(2 * std::numbers::pi / th);
  const Vec3 n0 = (p.x0[1] - p.x0[0]).normalized(), ft0 = p.F0 - p.F0.dot(n0) * n0;
  const auto length = [&](long k) { return p.L + 0.8 * d0 * static_cast<double>(k) / static_cast<double>(steps); };
  const auto place = [&](long k, std::size_t i) -> Vec3 {
    return p.c + (i == 0 ? -0.5 : 0.5) * length(k) * (turn(static_cast<double>(k) * th, e) * n0);
  };
  const double w0 = p.s.energy.frictionDissipated;
  SlipErrors r;
  double released = 0, ftPrev = ft0.norm();
  for (long k = 1; k <= steps; ++k) {
    const double spin = 2 * std::tan(th / 2) / dt * (0.5 * (length(k - 1) + length(k)) / length(k));
    for (std::size_t i = 0; i < 2; ++i) {
      p.s.particles.pos[i] = place(k, i);
      p.s.particles.vel[i] = (place(k, i) - place(k - 1, i)) / dt;
      p.s.particles.angVel[i] = spin * e;
    }
    p.s.step();
    const double d = 2 * kObjR - length(k), cap = mu * p.normal(d), scale = std::min(1.0, cap / ft0.norm());
    if (scale < 1.0 && r.onset < 0) r.onset = k;
    // trapezoidal slip work with no shear increment (contact_law.hpp slipWork): (|F_prev|^2 - |F_k|^2)/(2 k_t(d_k))
    const double ft = scale * ft0.norm();
    if (ft < ftPrev) released += (ftPrev * ftPrev - ft * ft) / (2 * p.tangent(d));
    ftPrev = ft;
    const Vec3 predicted = turn(static_cast<double>(k) * th, e) * (-p.normal(d) * n0 + scale * ft0);
    const double tol = roundOff(p.power(), p.L, 0.2 * d0, k);
    r.force = std::max(r.force, (pairContact(p.s).force - predicted).norm() / p.F0.norm() / tol);
  }
  r.ledger = std::abs(p.s.energy.frictionDissipated - w0 - released) / released;
  return r;
}

}  // namespace

Case tangentialObjectivityCase() {
  Case c;
  c.name = "tangential_objectivity";
  c.title =
      "objectivity of the tangential spring: a stuck, pre-sheared pair turned rigidly (rotation, twirl) on the "
      "production kernel";
  c.dts = {0.004, 0.002, 0.001, 0.0005};  // th = Omega dt = 0.04 ... 0.005
  const auto one = [](double) { return 1.0; };
  const auto slipLedgerTol = [](double dt) {
    return 64 * std::numeric_limits<double>::epsilon() * 2 * std::numbers::pi / (kObjOmega * dt);
  };
  for (const std::string law : {"", "hertz_mindlin_"}) {
    for (const char* q : {"rotation_exact_spin_force_over_roundoff", "rotation_exact_spin_torque_over_roundoff",
                          "rotation_exact_spin_elastic_over_roundoff", "rotation_body_spin_force_over_roundoff",
                          "twirl_force_over_roundoff", "unloading_slip_force_over_roundoff"})
      c.quantities.push_back(
          roundOffTolerance({law + q, one, std::nullopt}, "eps (4 p L/d + 32 k) of |F_0| (error / that)"));
    c.quantities.push_back(
        roundOffTolerance({law + "unloading_slip_ledger_rel", slipLedgerTol, std::nullopt}, "64 eps per step"));
    c.quantities.push_back(roundOffTolerance({law + "ledger_work_over_roundoff", one, std::nullopt},
                                             "2 eps L/d of the stored energy per step (error / that)"));
  }
  c.quantities.push_back({"twirl_lag_vs_bodies",
                          [](double dt) {
                            const double th = kObjOmega * dt;
                            return static_cast<double>(std::lround(2 * std::numbers::pi / th)) *
                                   (th - 2 * std::atan(th / 2));
                          },
                          OrderSpec{2.0, 1.95, 2.05}});
  c.run = [](double dt) {
    RunOutput out;
    const double th = kObjOmega * dt;
    for (const ContactLaw law : {ContactLaw::Cundall, ContactLaw::HertzMindlin}) {
      const std::string t = law == ContactLaw::Cundall ? "" : "hertz_mindlin_";
      // the pair's own normal after the pre-shear; the rotation axis e normal to it
      const PairState probe = preShearedPair(dt, law);
      const Vec3 nt = (probe.x0[1] - probe.x0[0]).normalized(), e = nt.cross(Vec3(1, 2, 3)).normalized();
      const auto rot = [&](long k) { return turn(static_cast<double>(k) * th, e); };
      const auto still = [](long) { return Mat3(Mat3::Identity()); };
      const Vec3 wExact = 2 * std::tan(th / 2) / dt * e, wBody = th / dt * e;
      const ObjErrors exact = turnPair(
          dt, law, rot, wExact, [&](long k, const PairState& p) { return Vec3(rot(k) * p.F0); }, true);
      const ObjErrors body = turnPair(
          dt, law, rot, wBody,
          [&](long k, const PairState& p) {
            const Vec3 n0 = (p.x0[1] - p.x0[0]).normalized(), t0 = e.cross(n0);
            const double delta = p.L * (2 * std::sin(th / 2) - th * std::cos(th / 2));
            return Vec3(rot(k) * (p.F0 + p.ks * static_cast<double>(k) * delta * t0));
          },
          false);
      // twirl: about the pair's normal, bodies turning by th per step
      const double psi = 2 * std::atan(th / 2);
      const ObjErrors twirl = turnPair(
          dt, law, still, th / dt * nt,
          [&](long k, const PairState& p) { return Vec3(turn(static_cast<double>(k) * psi, nt) * p.F0); }, false);
      const SlipErrors slip = unloadingSlip(dt, e, law);
      if (slip.onset < 0) throw std::logic_error("tangential_objectivity: the unloading pair did not slide");
      out.errors[t + "rotation_exact_spin_force_over_roundoff"] = exact.force;
      out.errors[t + "rotation_exact_spin_torque_over_roundoff"] = exact.torque;
      out.errors[t + "rotation_exact_spin_elastic_over_roundoff"] = exact.elastic;
      out.errors[t + "rotation_body_spin_force_over_roundoff"] = body.force;
      out.errors[t + "twirl_force_over_roundoff"] = twirl.force;
      out.errors[t + "ledger_work_over_roundoff"] = std::max({exact.ledger, body.ledger, twirl.ledger});
      out.errors[t + "unloading_slip_force_over_roundoff"] = slip.force;
      out.errors[t + "unloading_slip_ledger_rel"] = slip.ledger;
      if (law == ContactLaw::Cundall) {  // the twirl's lag against the bodies: |F_k - R_n(k th) F_0|
        const ObjErrors lag = turnPair(
            dt, law, still, th / dt * nt,
            [&](long k, const PairState& p) { return Vec3(turn(static_cast<double>(k) * th, nt) * p.F0); }, false);
        out.errors["twirl_lag_vs_bodies"] = lag.raw;
      }
    }
    return out;
  };
  return c;
}

}  // namespace dem::verify
