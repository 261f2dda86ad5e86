#include "cell.hpp"

#include <Eigen/Eigenvalues>
#include <Eigen/LU>

#include <sstream>
#include <stdexcept>

namespace dem {

namespace {

std::string matStr(const Mat3& m) {
  std::ostringstream s;
  s.precision(17);
  s << "[" << m.row(0) << "; " << m.row(1) << "; " << m.row(2) << "]";
  return s.str();
}

bool allFinite(const Mat3& m) { return m.allFinite(); }

void checkCellMatrix(const Mat3& H, const char* what) {
  if (!allFinite(H)) throw std::invalid_argument(std::string("cell: ") + what + " H = " + matStr(H) + " has a non-finite entry");
  const double scale = H.col(0).norm() * H.col(1).norm() * H.col(2).norm();
  if (!(std::abs(H.determinant()) > 1e-12 * scale))
    throw std::invalid_argument(std::string("cell: ") + what + " H = " + matStr(H) + " is singular (det H = " +
                                std::to_string(H.determinant()) + "); expected three independent side vectors");
}

}  // namespace

Cell::Cell(const Mat3& H) {
  checkCellMatrix(H, "initial");
  h_ = H;
  hPrev_ = H;
  invH_ = H.inverse();
  h0_ = H;
  invH0_ = invH_;
}

Cell Cell::box(const Vec3& size) { return Cell(Mat3(size.asDiagonal())); }

void Cell::setVelGrad(const Mat3& L) {
  if (!allFinite(L)) throw std::invalid_argument("cell: velocity gradient L = " + matStr(L) + " has a non-finite entry");
  lNext_ = L;
}

void Cell::setH(const Mat3& H) {
  checkCellMatrix(H, "new");
  hPrev_ = hPrev_ * (invH_ * H);
  h_ = H;
  invH_ = H.inverse();
}

void Cell::advance(double dt) {
  const Mat3& L = lNext_;
  const Mat3 I = Mat3::Identity();
  const Mat3 A = I - 0.5 * dt * L;
  if (!(std::abs(A.determinant()) > 1e-12))
    throw std::invalid_argument("cell: I - L dt/2 is singular for L = " + matStr(L) + ", dt = " + std::to_string(dt) +
                                "; reduce dt");
  const Mat3 hNew = A.inverse() * ((I + 0.5 * dt * L) * h_);  // seed eq. (33)
  checkCellMatrix(hNew, "updated");
  t_ += dt * L * t_;  // seed: T_{n+1} = T_n + L T_n dt
  hPrev_ = h_;
  h_ = hNew;
  invH_ = h_.inverse();
  lPrev_ = lNext_;
}

Eigen::Matrix3i Cell::flip(unsigned kept) {
  Eigen::Matrix3i F = Eigen::Matrix3i::Identity();
  Mat3 H = h_;
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j) {
      if (i == j || (kept >> i & 1u) != 0) continue;
      const double ratio = H.col(j).dot(H.col(i)) / H.col(i).squaredNorm();
      if (!(std::abs(ratio) > 0.5)) continue;
      const double m = std::round(ratio);
      H.col(j) -= m * H.col(i);  // h_j -= m h_i: same lattice (unimodular column operation)
      F.col(j) -= static_cast<int>(m) * F.col(i);
    }
  if (F == Eigen::Matrix3i::Identity()) return F;
  const Mat3 Fd = F.cast<double>();
  setH(h_ * Fd);
  h0_ = h0_ * Fd;
  invH0_ = h0_.inverse();
  return F;
}

Cell::State Cell::state() const {
  return State{h_, hPrev_, invH_, h0_, invH0_, t_, lPrev_, lNext_, homoDeform, flipFlippable};
}

Cell Cell::fromState(const State& s) {
  Cell c(s.h);
  checkCellMatrix(s.h0, "reference");
  for (const Mat3* m : {&s.hPrev, &s.invH, &s.invH0, &s.t, &s.lPrev, &s.lNext})
    if (!allFinite(*m)) throw std::invalid_argument("cell: state has a non-finite matrix " + matStr(*m));
  c.hPrev_ = s.hPrev;
  c.invH_ = s.invH;
  c.h0_ = s.h0;
  c.invH0_ = s.invH0;
  c.t_ = s.t;
  c.lPrev_ = s.lPrev;
  c.lNext_ = s.lNext;
  c.homoDeform = s.homoDeform;
  c.flipFlippable = s.flipFlippable;
  return c;
}

void Cell::assumeSteadyVelGrad(double dt) {
  lPrev_ = lNext_;
  const Mat3 I = Mat3::Identity();
  hPrev_ = (I + 0.5 * dt * lPrev_).inverse() * ((I - 0.5 * dt * lPrev_) * h_);  // C^{-1} H
}

Mat3 Cell::henckyStrain() const {
  const Mat3 F = h_ * invH0_;
  const Eigen::SelfAdjointEigenSolver<Mat3> es(F * F.transpose());
  const Vec3 logEig = es.eigenvalues().array().log();
  return 0.5 * es.eigenvectors() * logEig.asDiagonal() * es.eigenvectors().transpose();  // (1/2) log(F F^T)
}

void Cell::resetReference() {
  t_.setIdentity();
  h0_ = h_;
  invH0_ = invH_;
}

HomoDeform homoDeformTerms(const Cell& cell, double dt) {
  HomoDeform h;
  const Mat3 I = Mat3::Identity();
  const Mat3& lm = cell.velGrad();
  const Mat3& lp = cell.nextVelGrad();
  const Mat3 sum = lp + lm;
  h.lPrev = lm;
  h.lNow = 0.5 * sum;
  h.lml = lp - lm;
  h.imll4hInv = (I - 0.25 * dt * sum).inverse();  // (I - (L+ + L-) dt/4)^{-1}
  h.ipll4h = I + 0.25 * dt * sum;
  h.imll4hInvHalf = (I - 0.125 * dt * sum).inverse();  // the same over dt/2
  h.ipll4hHalf = I + 0.125 * dt * sum;
  h.spinPrev = mediumSpin(lm);
  h.spinNow = mediumSpin(h.lNow);
  h.deltaSpin = mediumSpin(lp) - h.spinPrev;
  return h;
}

}  // namespace dem
