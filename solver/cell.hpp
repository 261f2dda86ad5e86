#pragma once
// Periodic deforming cell (seed woo-motion-integration.rst "Periodic space", Woo's Cell, Yade's
// Cell; verification theory section 4).
//
//   H      columns are the cell's side vectors (Woo/Yade hSize); volume |det H|.
//   L      velocity gradient, constant over a step: velGrad() = L_{n-1/2} (the step that ended),
//          nextVelGrad() = L_{n+1/2} (the step about to run; set by setVelGrad). Both start at 0.
//   update per step (advance(dt), with L = L_{n+1/2}):
//          H_{n+1} = (I - L dt/2)^{-1} (I + L dt/2) H_n                  seed eq. (33)
//          T_{n+1} = T_n + L T_n dt                                      seed, Woo trsf (forward Euler)
//          then L_{n-1/2} := L_{n+1/2}.
//   T starts at the identity (not zero as the Woo documentation says; theory finding 5). The
//   Cayley update of H is exact for every nilpotent L and second order otherwise; T is exact only
//   for L^2 = 0, first order otherwise (theory 4.1-4.2). T's diagonal is a stretch ratio; the
//   Hencky strain is its logarithm, computed here from H (second order): (1/2) log(F F^T),
//   F = H H0^{-1}, H0 the reference cell (the one given at construction or resetReference()).
//
// Errors: a non-finite or singular H (|det H| <= 1e-12 |h1||h2||h3|), a non-finite L, a step whose
// (I - L dt/2) is singular, throw std::invalid_argument naming the problem.

#include "math.hpp"

namespace dem {

class Cell {
 public:
  explicit Cell(const Mat3& H);
  // An axis-aligned box cell with the given side lengths.
  static Cell box(const Vec3& size);

  const Mat3& H() const { return h_; }
  const Mat3& invH() const { return invH_; }
  const Mat3& H0() const { return h0_; }
  const Mat3& trsf() const { return t_; }
  const Mat3& velGrad() const { return lPrev_; }
  const Mat3& nextVelGrad() const { return lNext_; }
  // Cell volume |det H| (seed "Periodic space").
  double volume() const { return std::abs(h_.determinant()); }

  // Imposes L from the next step on (L_{n+1/2}); throws for a non-finite entry.
  void setVelGrad(const Mat3& L);
  // Makes the previous mid-step gradient equal to the next one and H_{n-1} = C^{-1} H_n (a cell that
  // has been deforming with L for ever; used by Scene::startOnAffineField).
  void assumeSteadyVelGrad(double dt);
  // Velocity of the lattice point H k between t_{n-1} and t_n per unit k:
  // (H_n - H_{n-1})/dt = L_{n-1/2} (H_n + H_{n-1})/2 (eq. (33)); zero before the first step.
  Mat3 imageVelocity() const { return lPrev_ * (0.5 * (h_ + hPrev_)); }
  const Mat3& previousH() const { return hPrev_; }

  // Homogeneous deformation of the particles' velocities (seed "Motion in uniformly deforming
  // space", Cell.homoDeform = homoGradV2); off: the cell deforms, particles are not convected.
  bool homoDeform = true;

  // One step of the cell with L_{n+1/2}, eq. (33) and the T update above.
  void advance(double dt);

  // Eulerian Hencky (logarithmic) strain (1/2) log(F F^T), F = H H0^{-1} (theory 4.2).
  Mat3 henckyStrain() const;
  // T := I and H0 := H (Yade: trsf reset defines the current state as the strain reference).
  void resetReference();

  // Replaces H (used by cell flipping: the same lattice, another basis); validates it. H_{n-1} is
  // mapped by the same change of basis H^{-1} H_new.
  void setH(const Mat3& H);

  // Cell flipping (seed "Collision detection in periodic cell", Yade's Cell.flipCell): the same
  // periodic lattice described by a less sheared basis H' = H F, F an integer matrix with
  // det F = 1 built from column operations h_j -= m h_i, m = round(h_j . h_i / |h_i|^2), applied
  // when |h_j . h_i / |h_i|^2| > 1/2 (no flip back at exactly 1/2). H0 and H_{n-1} get the same
  // F, so strains and image velocities are unchanged; T is not a basis and stays. Returns F (the
  // identity when nothing was flipped). Scene::flipCell also maps the contacts' cellDist
  // (k' = F^{-1} k) and rebuilds the collider. The columns in the bit mask `kept` (bit i: h_i) are
  // never subtracted from another column: a plane parallel to the other columns stays parallel to
  // them (h_j - m h_i with h_i, h_j in the plane; a wall's cell axis, periodic_collider.hpp).
  Eigen::Matrix3i flip(unsigned kept = 0);
  // Flip automatically after every step where flip() finds something to do (Yade's flipFlippable).
  bool flipFlippable = false;

  // The complete state (checkpoint/restart, io/checkpoint.hpp): a cell made by fromState(state())
  // has the same bits in every member.
  struct State {
    Mat3 h, hPrev, invH, h0, invH0, t, lPrev, lNext;
    bool homoDeform = true, flipFlippable = false;
  };
  State state() const;
  // Throws std::invalid_argument for a non-finite entry or a singular H (as the constructor).
  static Cell fromState(const State& s);

 private:
  Mat3 h_, hPrev_, invH_, h0_, invH0_, t_ = Mat3::Identity();
  Mat3 lPrev_ = Mat3::Zero(), lNext_ = Mat3::Zero();
};

// Medium angular velocity w_L = (1/2) curl(L x) = (1/2)(L_zy - L_yz, L_xz - L_zx, L_yx - L_xy)
// (theory 4.3; the seed's w_Lk = (1/2) eps_ijk W_ij is its negative, theory finding 7).
inline Vec3 mediumSpin(const Mat3& L) {
  return 0.5 * Vec3(L(2, 1) - L(1, 2), L(0, 2) - L(2, 0), L(1, 0) - L(0, 1));
}

// Per-step constants of the homogeneous-deformation velocity update (seed "Linear velocity"):
//   v_{n+1/2} = (I - (L+ + L-) dt/4)^{-1} [ (L+ - L-) x_n + (I + (L+ + L-) dt/4) v_{n-1/2} + a_n dt ]
// with L- = L_{n-1/2}, L+ = L_{n+1/2}; computed once per step (Woo's ImLL4hInv, LmL, IpLL4h). The
// same update over a half step (dt/2, from the on-step v(0)) serves a particle's adjusted first step.
// Angular velocity of spherical bodies: w_{n+1/2} = w_{n-1/2} + dt T/I + w_L(L+) - w_L(L-);
// aspherical bodies are integrated with W = 0 (seed's warning: not implemented for them).
struct HomoDeform {
  Mat3 lPrev, lNow;              // L_{n-1/2}; on-step estimate L_n = (L- + L+)/2
  Mat3 imll4hInv, lml, ipll4h;   // full step
  Mat3 imll4hInvHalf, ipll4hHalf;  // half step (adjusted first step of a particle)
  Vec3 spinPrev, spinNow, deltaSpin;  // w_L(L-), w_L(L_n), w_L(L+) - w_L(L-)
};

HomoDeform homoDeformTerms(const Cell& cell, double dt);

}  // namespace dem
