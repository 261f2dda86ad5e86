#pragma once
// Rotation of aspherical bodies (three different principal moments): Euler's equations in the body
// frame with quaternion kinematics, advanced by one of four leapfrog algorithms (seeds: Woo
// "Aspherical nodes"; Yade "Orientation (aspherical)": SPIRAL, Omelyan, Fincham; verification
// theory, section 3.2 and finding 1).
//
// Conventions (verification theory, section 0.2): q maps body (principal) coordinates to space,
// R = R(q), A = R^T maps space to body. Time levels: q on-step; the space-frame angular velocity
// angVel and angular momentum angMom are mid-step values w(t - dt/2), L(t - dt/2) once the body has
// been integrated; before its first step angVel is the user's on-step w(0) (space frame), and the
// angular momentum L(0) = R I A w(0) is derived from it.
//
// Algorithms:
//   FinchamAT    Allen & Tildesley's form (A&T pp. 84-89, fiche F.6 part B): the mid-step
//                body-frame angular momentum is taken with A(q(t+dt/2)) of the predicted half-step
//                quaternion (theory 3.2, step 5). Second order; L conserved exactly. The default.
//   FinchamYade  the variant of Yade's Fincham1992 and Woo's Leapfrog: A(q(t)) in step 5. First
//                order; drifts a free body towards its minimum-inertia axis (theory finding 1).
//   Omelyan      implicit mid-step body omega (seed: Omelyan, iterated niterOmelyan = 3 times as in
//                Yade), norm-preserving Cayley quaternion update.
//   Spiral       del Valle et al. (2023): SSPRK3-like update of the body omega with constant torque,
//                q(t+dt) = q(t) (cos theta, w/|w| sin theta), theta = |w| dt / 2.
//
// First-step adjustment (adjust, as for spherical bodies, theory 0.1): Fincham starts from
// L(-dt/2) = L(0) - T(0) dt/2; SPIRAL and Omelyan, which advance omega itself, integrate Euler's
// equations over the half step [0, dt/2] from w(0) with their own update rule. Without the
// adjustment the stored value is taken as the mid-step one (L(-dt/2) = L(0), w(-dt/2) = w(0)).
//
// Normalisation: q(t+dt) is normalised every step by every algorithm (Fincham's update does not
// preserve the norm: |q|-1 grows by O(dt^3) per step; SPIRAL and Omelyan preserve it up to
// round-off, so normalising costs them nothing but round-off). The norm deviation before
// normalisation is returned so that tests can measure it.
//
// Stored mid-step values: angVel = R(q(t+dt)) w_b(t+dt/2) for every algorithm (for SPIRAL and
// Omelyan the step rotation is about w_b itself, so R(q(t)) w_b = R(q(t+dt)) w_b); angMom is
// L(t+dt/2): for Fincham the leapfrog-updated space vector, for SPIRAL/Omelyan
// R(q(t+dt/2)) I w_b(t+dt/2) with q(t+dt/2) the rotation half-way between q(t) and q(t+dt).

#include "math.hpp"

#include <cstdint>

namespace dem {

enum class RotationAlgorithm : std::uint8_t { FinchamAT, FinchamYade, Omelyan, Spiral };

// Name as used in reports ("fincham_at", "fincham_yade", "omelyan", "spiral").
const char* rotationAlgorithmName(RotationAlgorithm a);

inline constexpr int kOmelyanIterations = 3;  // Yade's niterOmelyan1998 default

// One body's rotational state and the torque acting on it at t_n (space frame, already damped).
struct RotationInput {
  Quat ori;          // q(t_n), unit
  Vec3 angVel;       // space frame: w(t_n - dt/2), or w(0) on the first step
  Vec3 angMom;       // space frame: L(t_n - dt/2); ignored on the first step (derived from angVel)
  Vec3 inertia;      // principal moments (body frame), all > 0
  Vec3 torque;       // T(t_n), space frame
  double dt = 0.0;
  bool first = false;   // the body has not been integrated yet
  bool adjust = true;   // first-step adjustment
  bool normalize = true;
};

struct RotationOutput {
  Quat ori;             // q(t_n + dt)
  Vec3 angVel;          // w(t_n + dt/2), space frame
  Vec3 angMom;          // L(t_n + dt/2), space frame
  Vec3 angVelBodyOnStep;  // w_b(t_n) = I^-1 A(q_n) L(t_n), L(t_n) = L(t_n - dt/2) + T dt/2
  double normDeviation = 0.0;  // |q(t_n + dt)| - 1 before normalisation
};

RotationOutput rotateAspherical(RotationAlgorithm algorithm, const RotationInput& in);

// qdot = 1/2 q (0, w_body) (verification theory, section 0.2; seed: quaternion derivative).
Quat quaternionDerivative(const Quat& q, const Vec3& wBody);

// Euler's equations, w_dot_i = (T_i + (I_j - I_k) w_j w_k) / I_i, body frame (seed: Euler's equations).
Vec3 eulerAngularAcceleration(const Vec3& w, const Vec3& torqueBody, const Vec3& inertia);

// Rotational kinetic energy 0.5 w_b . I w_b (issue: energy ledger for aspherical bodies).
inline double rotationalEnergy(const Vec3& wBody, const Vec3& inertia) {
  return 0.5 * wBody.dot(inertia.cwiseProduct(wBody));
}

}  // namespace dem
