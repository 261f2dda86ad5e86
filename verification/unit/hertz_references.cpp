// Unit: the Hertz, damped-restitution and oblique Hertz-Mindlin references (verification theory 2,
// sections 1-3) against the document's tables and exact identities. Tolerances: half a unit of the
// last printed digit for table values; 1e-12 for the discrete leapfrog formula (the document's gate;
// it matched to 1.6e-15); 1e-9 for Boost.Odeint results (tolerance 1e-12, errors of a few 1e-10
// measured); 1e-10 for the oblique ODE against exact values (see oblique_hertz_mindlin.hpp).
#include <dem_reference/damped_restitution.hpp>
#include <dem_reference/hertz_impact.hpp>
#include <dem_reference/oblique_hertz_mindlin.hpp>

#include <boost/math/quadrature/tanh_sinh.hpp>
#include <boost/test/unit_test.hpp>

#include <algorithm>
#include <cmath>
#include <limits>
#include <numbers>
#include <vector>

using namespace dem::ref;

namespace {
constexpr double kInf = std::numeric_limits<double>::infinity();
constexpr double kPi = std::numbers::pi;

// x rounds to `printed`, given to `digits` significant digits (half a unit of the last one).
bool roundsTo(double x, double printed, int digits) {
  const double unit = std::pow(10.0, std::floor(std::log10(std::abs(printed))) - digits + 1);
  return std::abs(x - printed) <= 0.5 * unit * (1 + 1e-9);
}
// x rounds to `printed`, given to `decimals` decimal places.
bool roundsToDecimals(double x, double printed, int decimals) {
  return std::abs(x - printed) <= 0.5 * std::pow(10.0, -decimals) * (1 + 1e-9);
}
double sphereMass(double R, double rho) { return 4.0 / 3.0 * kPi * R * R * R * rho; }
}  // namespace

BOOST_AUTO_TEST_SUITE(hertz_references)

BOOST_AUTO_TEST_CASE(hertz_impact_table_1_1) {
  struct Row {
    double E, nu, rho, R, v;
    bool plane;
    double Estar, mstar, tc, dmax, Fmax;  // printed: E*, m* to 5 digits, the rest to 6
  };
  const std::vector<Row> rows{
      {4.8e10, 0.20, 2800, 0.01, 20.0, false, 2.5e10, 5.8643e-3, 4.03395e-5, 2.74113e-4, 1.06969e4},
      {2.0e10, 0.25, 2500, 0.01, 20.0, false, 1.0667e10, 5.2360e-3, 5.42010e-5, 3.68304e-4, 7.10824e3},
      {7.0e10, 0.30, 2699, 0.1, 0.2, true, 7.6923e10, 11.306, 7.31657e-4, 4.97172e-5, 1.13699e4},
      {4.0e10, 0.35, 1800, 0.1, 0.2, true, 4.5584e10, 7.5398, 7.67066e-4, 5.21233e-5, 7.23268e3}};
  for (const Row& r : rows) {
    const double m = sphereMass(r.R, r.rho);
    const double Es = r.plane ? effectiveModulus(r.E, r.nu, kInf, 0.0) : effectiveModulus(r.E, r.nu, r.E, r.nu);
    const double Rs = effectiveRadius(r.R, r.plane ? kInf : r.R);
    const double ms = effectiveMass(m, r.plane ? kInf : m);
    BOOST_TEST(roundsTo(Es, r.Estar, 5), "E* " << Es);
    BOOST_TEST(roundsTo(ms, r.mstar, 5), "m* " << ms);
    BOOST_TEST(Rs == (r.plane ? r.R : r.R / 2));
    const HertzImpact h(Es, Rs, ms, r.v);
    BOOST_TEST(roundsTo(h.contactTime(), r.tc, 6), "t_c " << h.contactTime());
    BOOST_TEST(roundsTo(h.maxOverlap(), r.dmax, 6), "d_max " << h.maxOverlap());
    BOOST_TEST(roundsTo(h.maxForce(), r.Fmax, 6), "F_max " << h.maxForce());
    // Independent: the undamped ODE in physical units (the document: solve_ivp agrees to 5e-12).
    const auto ode = odeintDampedHertzImpact(0.0, ContactEnd::TensionAllowed, h.K, ms, r.v);
    BOOST_TEST(std::abs(ode.contactTime / h.contactTime() - 1) < 1e-9);
    BOOST_TEST(std::abs(ode.e - 1) < 1e-9);
  }
}

BOOST_AUTO_TEST_CASE(hertz_duration_constants) {
  // 2 int_0^1 (1 - x^(5/2))^(-1/2) dx by tanh-sinh quadrature (1 - x^(5/2) from the distance to 1).
  boost::math::quadrature::tanh_sinh<double> quad;
  const double I = quad.integrate([](double x, double xc) {
    const double d = x > 0.5 ? xc : 1.0 - x;
    return 1.0 / std::sqrt(-std::expm1(2.5 * std::log1p(-d)));
  }, 0.0, 1.0);
  const double c = hertzDurationConstant();
  BOOST_TEST(std::abs(2 * I / c - 1) < 1e-12);
  BOOST_TEST(roundsTo(c, 2.94328, 6));
  BOOST_TEST(roundsTo(c * std::pow(15.0 / 16.0, 0.4), 2.86827, 6));  // (m*^2/(R* E*^2 v))^(1/5) form
  BOOST_TEST(roundsTo(c * std::pow(5.0 / 4.0, 0.4), 3.21807, 6));    // (m*/K)^(2/5) v^(-1/5) form
  // Two identical spheres of diameter D: t_c = 2.21421 (rho/E*)^(2/5) D v^(-1/5).
  const double E = 3e9, nu = 0.3, rho = 1200, D = 0.004, v = 2.0, m = sphereMass(D / 2, rho);
  const double Es = effectiveModulus(E, nu, E, nu);
  const HertzImpact pair(Es, effectiveRadius(D / 2, D / 2), effectiveMass(m, m), v);
  BOOST_TEST(roundsTo(pair.contactTime() / (std::pow(rho / Es, 0.4) * D * std::pow(v, -0.2)), 2.21421, 6));
  // The normalised elastic ODE: s_end = t_c / tau = 3.21807, e = 1.
  const auto ode = odeintDampedHertzImpact(0.0, ContactEnd::TensionAllowed);
  BOOST_TEST(std::abs(ode.sEnd - pair.contactTime() / pair.timeScale()) < 1e-9);
  BOOST_TEST(std::abs(ode.e - 1) < 1e-9);
}

BOOST_AUTO_TEST_CASE(lsd_zeta_table_2_1) {
  struct Row {
    double e, zT, zF, tT, tF, eClamp;  // zeta, w0 t_c (tension, force = 0) to 6 decimals; e_clamp to 4
  };
  const std::vector<Row> rows{{0.2, 0.455950, 0.731247, 3.529858, 2.200950, 0.3249},
                              {0.3, 0.357857, 0.497239, 3.364395, 2.421314, 0.3971},
                              {0.5, 0.215454, 0.255276, 3.217151, 2.715289, 0.5503},
                              {0.7, 0.112808, 0.122215, 3.161775, 2.918428, 0.7182},
                              {0.9, 0.033518, 0.034265, 3.143359, 3.074854, 0.9020},
                              {0.95, 0.016325, 0.016498, 3.142011, 3.109018, 0.9505},
                              {0.99, 0.003199, 0.003206, 3.141609, 3.135197, 0.9900}};
  for (const Row& r : rows) {
    const double zT = lsdZetaTension(r.e), zF = lsdZetaForceZero(r.e);
    BOOST_TEST(roundsToDecimals(zT, r.zT, 6), "e " << r.e << " zeta tension " << zT);
    BOOST_TEST(roundsToDecimals(zF, r.zF, 6), "e " << r.e << " zeta force 0 " << zF);
    BOOST_TEST(roundsToDecimals(lsdContactTimeTension(zT), r.tT, 6));
    BOOST_TEST(roundsToDecimals(lsdContactTimeForceZero(zF), r.tF, 6));
    BOOST_TEST(roundsToDecimals(lsdRestitutionForceZero(zT), r.eClamp, 4));
    BOOST_TEST(std::abs(lsdRestitutionTension(zT) / r.e - 1) < 1e-14);
    BOOST_TEST(std::abs(lsdRestitutionForceZero(zF) / r.e - 1) < 1e-14);
  }
  // Force = 0: e(1) = e^-2 and the three branches join continuously; smaller e needs zeta > 1.
  BOOST_TEST(std::abs(lsdRestitutionForceZero(1.0) - std::exp(-2.0)) < 1e-15);
  BOOST_TEST(std::abs(lsdRestitutionForceZero(1.0 - 1e-6) - std::exp(-2.0)) < 1e-5);
  BOOST_TEST(std::abs(lsdRestitutionForceZero(1.0 + 1e-6) - std::exp(-2.0)) < 1e-5);
  BOOST_TEST(lsdZetaForceZero(0.1) > 1.0);
  BOOST_TEST(std::abs(lsdRestitutionForceZero(lsdZetaForceZero(0.1)) / 0.1 - 1) < 1e-14);
}

BOOST_AUTO_TEST_CASE(leapfrog_linear_restitution_1_3) {
  // Kick-drift leapfrog on m d'' = -k max(d, 0), m = k = v = 1 (t_c = pi), 256 entry phases; last
  // free overlap -s dt. Table 1.3: max abs(e - 1) over the phases, printed to 3 digits.
  const std::vector<std::pair<double, double>> table{{20, 2.49e-4}, {20.5, 2.92e-3}, {40, 3.13e-5}, {40.5, 7.51e-4},
                                                     {80, 3.94e-6}, {80.5, 1.90e-4}, {160, 4.92e-7}, {160.5, 4.78e-5}};
  for (const auto& [ratio, printedMax] : table) {
    const double dt = kPi / ratio, th = 2.0 * std::asin(dt / 2.0);
    double worstFormula = 0, worstErr = 0;
    for (int k = 0; k < 256; ++k) {
      const double s = (k + 0.5) / 256;
      double d = -(2.0 + s) * dt, u = 1.0;
      bool entered = false;
      while (!(entered && d <= 0)) {
        entered = entered || d > 0;
        u -= dt * std::max(d, 0.0);
        d += dt * u;
      }
      const double e = leapfrogLinearRestitution(th, s);
      worstFormula = std::max(worstFormula, std::abs(-u - e));
      worstErr = std::max(worstErr, std::abs(e - 1));
    }
    BOOST_TEST(worstFormula < 1e-12, "t_c/dt " << ratio << ": formula vs recurrence " << worstFormula);
    BOOST_TEST(roundsTo(worstErr, printedMax, 3), "t_c/dt " << ratio << ": max abs(e-1) " << worstErr);
    // The leading-order phase maximum (th^2/2) c (1 - c) (the document's check: within 2 % here).
    BOOST_TEST(std::abs(worstErr / leapfrogLinearRestitutionMaxError(th) - 1) < 0.02);
  }
}

BOOST_AUTO_TEST_CASE(damped_hertz_alpha_table_2_2) {
  struct Row {
    double e, aT, aF;  // alpha (tension allowed, force = 0), 6 decimals
  };
  const std::vector<Row> rows{{0.2, 1.019535, 1.635118}, {0.3, 0.800193, 1.111861}, {0.5, 0.481769, 0.570814},
                              {0.7, 0.252247, 0.273280}, {0.9, 0.074950, 0.076619}, {0.98, 0.014379, 0.014439}};
  for (const Row& r : rows) {
    const double aT = hertzDampingAlpha(r.e, ContactEnd::TensionAllowed);
    const double aF = hertzDampingAlpha(r.e, ContactEnd::ForceZero);
    BOOST_TEST(roundsToDecimals(aT, r.aT, 6), "e " << r.e << " alpha tension " << aT);
    BOOST_TEST(roundsToDecimals(aF, r.aF, 6), "e " << r.e << " alpha force 0 " << aF);
    BOOST_TEST(std::abs(aT - std::sqrt(5.0) * lsdZetaTension(r.e)) < 1e-15);
    // The normalised ODE returns the target e (integrator tolerance 1e-12).
    BOOST_TEST(std::abs(odeintDampedHertzImpact(aT, ContactEnd::TensionAllowed).e / r.e - 1) < 1e-9);
    BOOST_TEST(std::abs(odeintDampedHertzImpact(aF, ContactEnd::ForceZero).e / r.e - 1) < 1e-9);
  }
}

BOOST_AUTO_TEST_CASE(damped_hertz_equals_lsd_and_is_velocity_independent) {
  for (double alpha : {0.05, 0.2, 0.48, 1.0, 1.6}) {
    for (ContactEnd end : {ContactEnd::TensionAllowed, ContactEnd::ForceZero}) {
      // e_Hertz(alpha) = e_LSD(alpha / sqrt5), ODE against the closed form.
      const auto norm = odeintDampedHertzImpact(alpha, end);
      BOOST_TEST(dampedHertzRestitution(alpha, end) == lsdRestitution(alpha / std::sqrt(5.0), end));
      BOOST_TEST(std::abs(norm.e / dampedHertzRestitution(alpha, end) - 1) < 1e-9);
      // Physical units (K = 3.7e9, m* = 2e-3) at v = 0.01, 1, 30: the same e and t_c / tau.
      for (double v : {0.01, 1.0, 30.0}) {
        const auto phys = odeintDampedHertzImpact(alpha, end, 3.7e9, 2e-3, v);
        const double tau = std::pow(2e-3 * v * v / 3.7e9, 0.4) / v;
        BOOST_TEST(std::abs(phys.e / norm.e - 1) < 1e-9, "alpha " << alpha << " v " << v);
        BOOST_TEST(std::abs(phys.contactTime / tau - norm.sEnd) < 1e-9);
      }
    }
  }
  // The standard dashpot 2 sqrt(5/6) beta sqrt(S_n m*), S_n = 2 E* sqrt(R* d), is Tsuji's
  // alpha sqrt(m* K) d^(1/4) with alpha = sqrt(5) beta (theory 2, 2.2).
  const double Es = 2.5e10, Rs = 5e-3, ms = 5.86e-3, d = 1.3e-4, beta = lsdZetaTension(0.5);
  const double standard = 2 * std::sqrt(5.0 / 6.0) * beta * std::sqrt(2 * Es * std::sqrt(Rs * d) * ms);
  const double tsuji = std::sqrt(5.0) * beta * std::sqrt(ms * hertzStiffness(Es, Rs)) * std::pow(d, 0.25);
  BOOST_TEST(std::abs(standard / tsuji - 1) < 1e-14);
}

BOOST_AUTO_TEST_CASE(oblique_materials_3_1) {
  // kappa = 4 G*/E* = 2(1 - nu)/(2 - nu) for a rigid wall and for two identical spheres.
  const double E = 3.8e11, nu = 0.23, G = shearModulus(E, nu);
  const double wall = 4 * effectiveShearModulus(G, nu, kInf, 0.0) / effectiveModulus(E, nu, kInf, 0.0);
  const double pair = 4 * effectiveShearModulus(G, nu, G, nu) / effectiveModulus(E, nu, E, nu);
  BOOST_TEST(std::abs(wall - mindlinStiffnessRatio(nu)) < 1e-14);
  BOOST_TEST(std::abs(pair - mindlinStiffnessRatio(nu)) < 1e-14);
  // m_n/m_t = 7/2 for a solid sphere on a wall and for two equal spheres.
  const double m = 0.7, R = 0.02, I = 0.4 * m * R * R;
  BOOST_TEST(std::abs(m / tangentialMass(m, R, I, kInf, 0.0, kInf) - 3.5) < 1e-14);
  BOOST_TEST(std::abs(effectiveMass(m, m) / tangentialMass(m, R, I, m, R, I) - 3.5) < 1e-14);
  // chi = (7/2)(1 - nu)/(2 - nu): Al2O3, Al alloy, steel, polyethylene (4 decimals).
  const std::vector<std::pair<double, double>> chis{{0.23, 1.5226}, {0.33, 1.4042}, {0.30, 1.4412}, {0.40, 1.3125}};
  for (const auto& [n, printed] : chis)
    BOOST_TEST(roundsToDecimals(obliqueChi(mindlinStiffnessRatio(n), 1.0, 2.0 / 7.0), printed, 4));
}

BOOST_AUTO_TEST_CASE(oblique_test4_table_3_2) {
  // Al2O3 (nu 0.23) sphere on a rigid wall, v 3.9 m/s, mu 0.092, w0 = 0: Psi1 = kappa tan(theta)/mu.
  const double nu = 0.23, mu = 0.092, V = 3.9, kappa = mindlinStiffnessRatio(nu);
  const double chi = obliqueChi(kappa, 1.0, 2.0 / 7.0);
  // Psi1 printed to 4 decimals; Psi2, v_t,out/v_t0 and R w_out printed by the script to 5 and
  // rounded to 4 in the document: 0.5e-4 + 0.5e-5 (30 deg: R w_out = 5 mu v_n0 = 1.553650 -> 1.5537).
  const double twice = 0.55e-4;
  struct Row {
    double theta, psi1, psi2, vtRatio, Rw;
  };
  const std::vector<Row> rows{{5, 0.8274, 0.5346, 0.8989, 0.0859},     {10, 1.6675, 0.0107, 0.7161, 0.4806},
                              {15, 2.5340, -0.7618, 0.6284, 0.9378},   {20, 3.4421, -1.2658, 0.6092, 1.3031},
                              {25, 4.4099, -1.3627, 0.6260, 1.5411},   {30, 5.4601, -0.6303, 0.6813, 1.5537},
                              {40, 7.9355, 1.8451, 0.7807, 1.3743},    {50, 11.2706, 5.1802, 0.8456, 1.1532},
                              {60, 16.3802, 10.2898, 0.8938, 0.8970},  {80, 53.6341, 47.5437, 0.9676, 0.3115}};
  for (const Row& r : rows) {
    const double th = r.theta * kPi / 180, vn = V * std::cos(th), vt = V * std::sin(th);
    const double psi1 = normalisedTangentialVelocity(kappa, vt, mu, vn);
    const double psi2 = obliqueHertzMindlinImpact(psi1, chi).psi2;
    BOOST_TEST(roundsToDecimals(psi1, r.psi1, 4), "theta " << r.theta << " Psi1 " << psi1);
    BOOST_TEST(std::abs(psi2 - r.psi2) <= twice, "theta " << r.theta << " Psi2 " << psi2);
    // Sphere on a wall, m_t = 2m/7: J_t = m_t dv_ct, v_t,out = v_t0 + J_t/m, R w_out = -(5/7) dv_ct.
    const double dvct = psi2 * mu * vn / kappa - vt, Rw = -5.0 / 7.0 * dvct;
    BOOST_TEST(std::abs(1 + 2.0 / 7.0 * dvct / vt - r.vtRatio) <= twice, "theta " << r.theta);
    BOOST_TEST(std::abs(Rw - r.Rw) <= twice, "theta " << r.theta << " R w_out " << Rw);
    // Gross sliding (theta >= 28.29 deg): v_t,out = v_t0 - 2 mu v_n0, R w_out = 5 mu v_n0 (3.2).
    if (psi1 >= grossSlidingThreshold(chi)) {
      BOOST_TEST(std::abs(1 + 2.0 / 7.0 * dvct / vt - (1 - 2 * mu * vn / vt)) < 1e-10);
      BOOST_TEST(std::abs(Rw - 5 * mu * vn) < 1e-10);
    }
  }
  // The columns 28.29 and 32.78 deg: the gross-sliding threshold and Psi2 = 0.
  const double psiGross = grossSlidingThreshold(chi), psiZero = 4 * chi;
  BOOST_TEST(roundsToDecimals(psiGross, 5.0904, 4));
  BOOST_TEST(roundsToDecimals(psiZero, 6.0904, 4));
  BOOST_TEST(roundsToDecimals(std::atan(psiGross * mu / kappa) * 180 / kPi, 28.29, 2));
  BOOST_TEST(roundsToDecimals(std::atan(psiZero * mu / kappa) * 180 / kPi, 32.78, 2));
  BOOST_TEST(roundsToDecimals(psiGross * mu / kappa, 0.5383, 4));  // tan theta = mu (7 - 1/kappa)
  BOOST_TEST(std::abs(psiZero * mu / kappa - 7 * mu) < 1e-14);     // tan theta = 7 mu
  BOOST_TEST(std::abs(obliqueHertzMindlinImpact(psiGross, chi).psi2 + 1) < 1e-10);
  BOOST_TEST(std::abs(obliqueHertzMindlinImpact(psiZero, chi).psi2) < 1e-10);
}

BOOST_AUTO_TEST_CASE(oblique_gross_sliding_and_regimes) {
  for (double chi : {1.3125, 1.4042, 1.4412, 1.5226}) {
    const double thr = grossSlidingThreshold(chi);
    // Gross sliding: capped throughout (one regime), Psi2 = Psi1 - 4 chi exactly.
    for (double psi1 : {thr + 1e-3, thr + 0.5, 4 * chi, 10.0, 50.0}) {
      const auto r = obliqueHertzMindlinImpact(psi1, chi);
      BOOST_TEST(std::abs(r.psi2 - grossSlidingPsi2(psi1, chi)) < 1e-10, "chi " << chi << " Psi1 " << psi1);
      BOOST_TEST(r.regimes.size() == 1u);
      BOOST_TEST(r.regimes[0].slip);
    }
    // Just below the threshold the contact re-sticks and rebounds less backwards.
    const auto below = obliqueHertzMindlinImpact(thr - 1e-2, chi);
    BOOST_TEST(below.regimes.size() > 1u);
    BOOST_TEST(below.psi2 > grossSlidingPsi2(thr - 1e-2, chi) + 1e-6);
    // Sliding from the first instant iff Psi1 > 1; the ODE is odd in Psi1; the normal motion is the
    // elastic one (s_end = 3.21807).
    for (double psi1 : {0.1, 0.5, 0.99, 1.01, 2.0, 4.0}) {
      const auto r = obliqueHertzMindlinImpact(psi1, chi);
      BOOST_TEST(r.regimes[0].slip == (psi1 > 1));
      BOOST_TEST(std::abs(obliqueHertzMindlinImpact(-psi1, chi).psi2 + r.psi2) < 1e-12);
      BOOST_TEST(roundsTo(r.sEnd, 3.21807, 6));
      // Integrator accuracy on the stick/transition branch: tol 1e-12 against tol 1e-14.
      BOOST_TEST(std::abs(r.psi2 - obliqueHertzMindlinImpact(psi1, chi, 1e-14).psi2) < 1e-10);
    }
  }
}

BOOST_AUTO_TEST_SUITE_END()
