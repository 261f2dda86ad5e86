// Unit: periodic cell input errors, the sign of the medium spin, homoDeform on/off, ledger in a
// deforming cell.
// - singular or non-finite H, non-finite L, a step with I - L dt/2 singular: std::invalid_argument;
// - medium spin sign (verification theory 4.3, finding 7): a sphere at rest in a cell switched on to
//   the rigid spin L = [[0,-W,0],[W,0,0],[0,0,0]] co-rotates with the medium, angVel = +W z after one
//   step; a sphere started with startOnAffineField has angVel = W z, zero fluctuation rotational and
//   kinetic energy in the ledger and zero damping dissipation (damping on);
// - homoDeform off: the cell deforms but particles are not convected.
#include "solver/scene.hpp"

#include <boost/test/unit_test.hpp>
#include "expect_error.hpp"

#include <limits>

using namespace dem;
using dem::test::expectError;

namespace {

Mat3 rigidSpin(double W) {
  Mat3 L = Mat3::Zero();
  L(0, 1) = -W;
  L(1, 0) = W;
  return L;
}
}  // namespace

BOOST_AUTO_TEST_SUITE(cell)

BOOST_AUTO_TEST_CASE(bad_input) {
  Mat3 H = Mat3::Identity();
  H.col(2) = H.col(0) + H.col(1);
  expectError([&] { Cell c(H); }, "singular");
  Mat3 Hn = Mat3::Identity();
  Hn(1, 2) = std::numeric_limits<double>::quiet_NaN();
  expectError([&] { Cell c(Hn); }, "non-finite");
  Cell c = Cell::box(Vec3(1, 2, 3));
  Mat3 L = Mat3::Zero();
  L(0, 0) = std::numeric_limits<double>::infinity();
  expectError([&] { c.setVelGrad(L); }, "non-finite");
  c.setVelGrad(Vec3(2, 0, 0).asDiagonal());
  expectError([&] { c.advance(1.0); }, "singular");  // I - L dt/2 has a zero diagonal entry
  expectError([&] { c.setH(Mat3::Zero()); }, "singular");
  BOOST_TEST(c.volume() == 6.0);
}

BOOST_AUTO_TEST_CASE(medium_spin_sign) {
  const double W = 0.8, dt = 1e-3;
  BOOST_TEST((mediumSpin(rigidSpin(W)) - Vec3(0, 0, W)).norm() == 0.0);
  Mat3 shear = Mat3::Zero();
  shear(0, 1) = 2.0;
  BOOST_TEST((mediumSpin(shear) - Vec3(0, 0, -1.0)).norm() == 0.0);  // simple shear: w_L = (0, 0, -gdot/2)
  for (bool consistent : {false, true}) {
    Scene s;
    s.particles.add(sphereSpec(Vec3::Zero(), 0.1, 1000.0));
    s.setDt(dt);
    s.setDamping(0.3);
    Cell c = Cell::box(Vec3(1, 1, 1));
    c.setVelGrad(rigidSpin(W));
    s.setCell(c);
    if (consistent) s.startOnAffineField();
    s.step();
    BOOST_TEST((s.particles.angVel[0] - Vec3(0, 0, W)).norm() < 1e-15);
    if (consistent) {
      BOOST_TEST(s.energy.rotational == 0.0);
      BOOST_TEST(s.energy.kinetic == 0.0);
      s.run(10);
      BOOST_TEST(s.energy.dampingDissipated == 0.0);
      BOOST_TEST((s.particles.angVel[0] - Vec3(0, 0, W)).norm() < 1e-15);
    }
  }
}

BOOST_AUTO_TEST_CASE(homo_deform_off) {
  Scene s;
  s.particles.add(sphereSpec(Vec3(0.5, 0.5, 0.5), 0.1, 1000.0));
  s.setDt(1e-3);
  Cell c = Cell::box(Vec3(1, 1, 1));
  Mat3 L = Mat3::Zero();
  L(0, 1) = 1.0;
  c.setVelGrad(L);
  c.homoDeform = false;
  s.setCell(c);
  s.run(100);
  BOOST_TEST((s.particles.pos[0] - Vec3(0.5, 0.5, 0.5)).norm() == 0.0);
  BOOST_TEST(std::abs(s.cell->H()(0, 1) - 0.1) < 1e-14);
}

BOOST_AUTO_TEST_CASE(startup_requires_cell) {
  Scene s;
  s.setDt(1e-3);
  BOOST_CHECK_THROW(s.startOnAffineField(), std::logic_error);
}

BOOST_AUTO_TEST_SUITE_END()
