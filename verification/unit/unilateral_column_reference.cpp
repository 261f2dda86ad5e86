// Unit: the unilateral column reference (reference/unilateral_column.hpp) against closed forms:
// one sphere bouncing on the wall spring under gravity (free flight and the contact's shifted
// sine, events at the exact closing and opening times), and the column released compressed, whose
// contacts never open, against the modal solution of spring_column.hpp; the column of the cases. Tolerances: the 1e-12
// integrator tolerance on the state scaled by L = m g/k_s, accumulated over the steps (< 1e3 L tol).
#include "cases/column_scene.hpp"

#include <dem_reference/spring_column.hpp>
#include <dem_reference/unilateral_column.hpp>

#include <boost/test/unit_test.hpp>

#include <algorithm>
#include <cmath>
#include <numbers>
#include <vector>

using namespace dem::ref;

namespace {

// The column of the cases column_modes and column_release (cases/column_scene.hpp), n spheres.
SpringColumn testColumn(int n) {
  SpringColumn c = dem::verify::cundallColumn({2500.0, 1e8, 0.2, 0.0}, {2500.0, 1e12, 0.2, 0.0});
  c.n = n;
  return c;
}

}  // namespace

BOOST_AUTO_TEST_SUITE(unilateral_column_reference)

BOOST_AUTO_TEST_CASE(single_sphere_bounces_on_the_wall_spring) {
  const SpringColumn col = testColumn(1);
  const double h = 1e-6, g = col.g, w = std::sqrt(col.kw / col.m), L = col.m * g / col.ks;
  // Free fall from rest at the gap h; contact: u(s) = g/w^2 (1 - cos w s) + (v/w) sin w s, which
  // returns to 0 at w s = pi + 2 alpha, tan alpha = g/(v w); the sphere leaves at v and flies 2 v/g.
  const double t0 = std::sqrt(2 * h / g), v = g * t0, alpha = std::atan(g / (v * w)),
               tc = (std::numbers::pi + 2 * alpha) / w, period = tc + 2 * v / g;
  const auto y = [&](double t) {  // z - R
    if (t < t0) return h - g * t * t / 2;
    const double s = std::fmod(t - t0, period);
    if (s < tc) return -(g / (w * w) * (1 - std::cos(w * s)) + v / w * std::sin(w * s));
    const double f = s - tc;  // in flight, upwards from the wall at v
    return v * f - g * f * f / 2;
  };
  std::vector<double> times;
  for (int k = 0; k <= 3000; ++k) times.push_back(k * 1e-6);
  Eigen::VectorXd z0(1);
  z0[0] = col.R + h;
  const UnilateralColumnSolution r = solveUnilateralColumn(col, z0, Eigen::VectorXd::Zero(1), times);
  double err = 0;
  for (std::size_t k = 0; k < times.size(); ++k) err = std::max(err, std::abs(r.z[k][0] - col.R - y(times[k])));
  BOOST_TEST(err < 1e3 * 1e-12 * L, "heights off by " << err << " m");
  BOOST_TEST_REQUIRE(r.events.size() == 5u);  // closes, opens, closes, opens, closes within 3 ms
  double tErr = 0;
  for (std::size_t e = 0; e < r.events.size(); ++e) {
    const double n = static_cast<double>(e / 2), te = t0 + n * period + (e % 2 == 1 ? tc : 0.0);
    tErr = std::max(tErr, std::abs(r.events[e].t - te));
    BOOST_TEST(r.events[e].closes == (e % 2 == 0));
    BOOST_TEST(std::abs(std::abs(r.events[e].rate) - v) < 1e-9 * v);
  }
  BOOST_TEST_MESSAGE("single sphere: heights off by " << err << " m, event times by " << tErr << " s");
  BOOST_TEST(tErr < 1e3 * 1e-12 / w, "event times off by " << tErr << " s");
}

BOOST_AUTO_TEST_CASE(compressed_column_is_modal) {
  const SpringColumn col = testColumn(4);
  const Eigen::VectorXd z0 = col.heights(1.3 * col.staticOverlaps());
  const ColumnModes modes(col, z0);
  BOOST_TEST_REQUIRE(modes.staysClosed());
  std::vector<double> times;
  for (int k = 0; k <= 500; ++k) times.push_back(k * 1e-5);
  const UnilateralColumnSolution r = solveUnilateralColumn(col, z0, Eigen::VectorXd::Zero(4), times);
  BOOST_TEST(r.events.empty());
  double err = 0;
  for (std::size_t k = 0; k < times.size(); ++k) {
    const Eigen::VectorXd d = modes.continuum(times[k]);
    for (Eigen::Index i = 0; i < col.size(); ++i) err = std::max(err, std::abs(r.z[k][i] - modes.zs[i] - d[i]));
  }
  const double L = col.m * col.g / col.ks;
  BOOST_TEST_MESSAGE("compressed column: heights off by " << err << " m");
  BOOST_TEST(err < 1e3 * 1e-12 * L, "heights off by " << err << " m");
}

BOOST_AUTO_TEST_SUITE_END()
