#include "rotation.hpp"

namespace dem {

const char* rotationAlgorithmName(RotationAlgorithm a) {
  switch (a) {
    case RotationAlgorithm::FinchamAT: return "fincham_at";
    case RotationAlgorithm::FinchamYade: return "fincham_yade";
    case RotationAlgorithm::Omelyan: return "omelyan";
    case RotationAlgorithm::Spiral: return "spiral";
  }
  return "unknown";
}

Quat quaternionDerivative(const Quat& q, const Vec3& w) {
  // theory 0.2 (= the seeds' matrix form and Yade/Woo DotQ)
  return Quat((-q.x() * w[0] - q.y() * w[1] - q.z() * w[2]) / 2,
              (q.w() * w[0] - q.z() * w[1] + q.y() * w[2]) / 2,
              (q.z() * w[0] + q.w() * w[1] - q.x() * w[2]) / 2,
              (-q.y() * w[0] + q.x() * w[1] + q.w() * w[2]) / 2);
}

Vec3 eulerAngularAcceleration(const Vec3& w, const Vec3& T, const Vec3& I) {
  // seed: T_i = I_ii w_i' + (I_kk - I_jj) w_j w_k
  return Vec3((T[0] + (I[1] - I[2]) * w[1] * w[2]) / I[0],
              (T[1] + (I[2] - I[0]) * w[2] * w[0]) / I[1],
              (T[2] + (I[0] - I[1]) * w[0] * w[1]) / I[2]);
}

namespace {

Quat axpy(const Quat& q, double h, const Quat& qdot) {
  return Quat(q.coeffs() + h * qdot.coeffs());
}

Mat3 spaceToBody(const Quat& q) { return q.conjugate().toRotationMatrix(); }  // A = R^T

// Fincham, theory 3.2 steps 1-7. atHalfStep: A&T (A(q_{n+1/2}) in step 5) or the Yade/Woo
// variant (A(q_n) in step 5, unnormalised q_{n+1/2} in step 6 as in Yade's leapfrogAsphericalRotate).
RotationOutput fincham(const RotationInput& in, const Vec3& Lprev, bool atHalfStep) {
  RotationOutput out;
  const double dt = in.dt;
  const Mat3 A = spaceToBody(in.ori);
  const Vec3 Ln = Lprev + in.torque * (dt / 2);                 // 1. L_n
  const Vec3 wbn = (A * Ln).cwiseQuotient(in.inertia);          // 2. w^b_n
  const Quat qHalf = axpy(in.ori, dt / 2, quaternionDerivative(in.ori, wbn));  // 3. predictor
  const Vec3 Lhalf = Lprev + in.torque * dt;                    // 4. L_{n+1/2}
  Quat qNext;
  Vec3 wbHalf;
  if (atHalfStep) {
    const Quat qh = qHalf.normalized();
    wbHalf = (spaceToBody(qh) * Lhalf).cwiseQuotient(in.inertia);      // 5. A(q_{n+1/2})
    qNext = axpy(in.ori, dt, quaternionDerivative(qh, wbHalf));       // 6.
    out.angVel = qh.toRotationMatrix() * wbHalf;                       // 7. R(q_{n+1/2})
  } else {
    wbHalf = (A * Lhalf).cwiseQuotient(in.inertia);                    // 5'. A(q_n) (Yade/Woo)
    qNext = axpy(in.ori, dt, quaternionDerivative(qHalf, wbHalf));    // 6.
  }
  out.normDeviation = qNext.norm() - 1.0;
  out.ori = in.normalize ? Quat(qNext.normalized()) : qNext;
  if (!atHalfStep) out.angVel = out.ori.normalized().toRotationMatrix() * wbHalf;  // 7'. R(q_{n+1})
  out.angMom = Lhalf;
  return out;
}

// SPIRAL (del Valle 2023; seed "SPIRAL Algorithm"): K1..K3 with constant body torque.
Vec3 spiralOmega(const Vec3& w, const Vec3& tau, const Vec3& I, double h) {
  const Vec3 K1 = h * eulerAngularAcceleration(w, tau, I);
  const Vec3 K2 = h * eulerAngularAcceleration(w + K1, tau, I);
  const Vec3 K3 = h * eulerAngularAcceleration(w + 0.25 * (K1 + K2), tau, I);
  return w + (K1 + K2 + 4.0 * K3) / 6.0;
}

// Omelyan (seed "Omelyan Algorithm"): w_j w_k at t_n ~ (w_j w_k(t-dt/2) + w_j w_k(t+dt/2))/2, solved
// by fixed-point iteration.
Vec3 omelyanOmega(const Vec3& w, const Vec3& tau, const Vec3& I, double h) {
  Vec3 ww = w;
  for (int it = 0; it < kOmelyanIterations; ++it) {
    const Vec3 gyro((w[1] * w[2] + ww[1] * ww[2]) * (I[1] - I[2]),
                    (w[2] * w[0] + ww[2] * ww[0]) * (I[2] - I[0]),
                    (w[0] * w[1] + ww[0] * ww[1]) * (I[0] - I[1]));
    ww = w + h * (tau + 0.5 * gyro).cwiseQuotient(I);
  }
  return ww;
}

}  // namespace

RotationOutput rotateAspherical(RotationAlgorithm algorithm, const RotationInput& in) {
  const Vec3& I = in.inertia;
  const double dt = in.dt;
  const Mat3 A = spaceToBody(in.ori);
  // Mid-step angular momentum L(t_n - dt/2); on the first step from the on-step w(0) (theory 3.2:
  // L = R I A w), with the first-step adjustment L(-dt/2) = L(0) - T(0) dt/2 (theory 0.1).
  Vec3 Lprev = in.angMom;
  if (in.first) {
    const Vec3 L0 = in.ori.toRotationMatrix() * I.cwiseProduct(A * in.angVel);
    Lprev = in.adjust ? Vec3(L0 - in.torque * (dt / 2)) : L0;
  }
  const Vec3 wbOnStep = (A * (Lprev + in.torque * (dt / 2))).cwiseQuotient(I);

  RotationOutput out;
  switch (algorithm) {
    case RotationAlgorithm::FinchamAT: out = fincham(in, Lprev, true); break;
    case RotationAlgorithm::FinchamYade: out = fincham(in, Lprev, false); break;
    case RotationAlgorithm::Omelyan:
    case RotationAlgorithm::Spiral: {
      // Body-frame omega at t_n - dt/2 (the stored space vector taken with A(q_n), as Yade does:
      // exact, since the previous step rotated the body about this very vector).
      const Vec3 wb = A * in.angVel;
      const Vec3 tau = A * in.torque;
      const double h = (in.first && in.adjust) ? dt / 2 : dt;
      Quat qNext;
      Vec3 wbHalf;
      if (algorithm == RotationAlgorithm::Spiral) {
        wbHalf = spiralOmega(wb, tau, I, h);
        qNext = in.ori * rotationQuat(wbHalf * dt);  // seed: q (cos theta, w/|w| sin theta)
      } else {
        wbHalf = omelyanOmega(wb, tau, I, h);
        const double a = dt * dt * wbHalf.squaredNorm() / 16.0;  // seed: Omelyan q update
        qNext = Quat(((1.0 - a) * in.ori.coeffs() + dt * quaternionDerivative(in.ori, wbHalf).coeffs()) /
                     (1.0 + a));
      }
      out.normDeviation = qNext.norm() - 1.0;
      out.ori = in.normalize ? Quat(qNext.normalized()) : qNext;
      const Quat qUnit = qNext.normalized();
      out.angVel = qUnit.toRotationMatrix() * wbHalf;
      out.angMom = in.ori.slerp(0.5, qUnit).toRotationMatrix() * I.cwiseProduct(wbHalf);
      break;
    }
  }
  out.angVelBodyOnStep = wbOnStep;
  return out;
}

}  // namespace dem
