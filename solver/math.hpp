#pragma once
// Small vocabulary of the solver: Eigen fixed-size types and the few helpers every stage needs.

#include <Eigen/Core>
#include <Eigen/Geometry>

#include "components.hpp"

#include <cmath>
#include <cstddef>

namespace dem {

// The public types have one layout for any compile flags (the library is built with -march=native, a
// program that uses it need not be): Eigen aligns a fixed-size type whose size is a multiple of 16
// bytes to the target's vector registers (Quaterniond: 16 bytes with SSE2, 32 with AVX), which would
// give every struct holding one (ParticleSpec, Contact) another size and other offsets in a client
// compiled with other flags. Quat is therefore unaligned storage (the alignment of a double);
// Vec3 and Mat3 (3 and 9 doubles) are never over-aligned. The batched kernels load and store
// orientations as lanes (lanes.hpp) and do not rely on their alignment.
using Vec3 = Eigen::Vector3d;
using Mat3 = Eigen::Matrix3d;
using Quat = Eigen::Quaternion<double, Eigen::DontAlign>;
static_assert(alignof(Vec3) == alignof(double) && sizeof(Vec3) == 3 * sizeof(double));
static_assert(alignof(Mat3) == alignof(double) && sizeof(Mat3) == 9 * sizeof(double));
static_assert(alignof(Quat) == alignof(double) && sizeof(Quat) == 4 * sizeof(double));

// sign(x) with sign(0) = 0, as the damping formula requires (seed: eq. (34)).
inline double signum(double x) { return static_cast<double>((x > 0.0) - (x < 0.0)); }

// std::round (the nearest integer, halves away from zero; NaN and inf as they are) without the
// library call: trunc is one instruction and x - trunc(x) is exact. The periodic collider's image
// choice, at every inversion.
inline double roundHalfAway(double x) {
  const double t = std::trunc(x);
  return std::abs(x - t) >= 0.5 ? t + std::copysign(1.0, x) : t;
}

// Quaternion(phi): the rotation by the angle |phi| about phi/|phi| (seed: spherical nodes,
// q(t+dt) = Quaternion(omega dt) q(t)). Exact for any angle; identity for phi = 0.
// Below a half-angle of 0.02 (the usual per-step rotation) the sine and cosine come from their
// Taylor series, exact to round-off there (the first omitted terms are below 1e-17 relative),
// instead of the library's sincos.
// The small-angle branch on components (T = double or lanes, lanes.hpp): the quaternion of the
// rotation phi of length `angle` > 0 with half-angle h = angle/2 < 0.02.
template <class T>
[[gnu::always_inline]] inline Q4<T> rotationQuatSmall(const V3<T>& phi, const T& angle) {
  const T h = 0.5 * angle, h2 = h * h;
  // Horner form; the factors 1/(k (k+1)) are constants (no division per term)
  constexpr double s1 = 1.0 / 6.0, s2 = 1.0 / 20.0, s3 = 1.0 / 42.0, s4 = 1.0 / 72.0;
  constexpr double c1 = 1.0 / 2.0, c2 = 1.0 / 12.0, c3 = 1.0 / 30.0, c4 = 1.0 / 56.0, c5 = 1.0 / 90.0;
  const T sinH = h * (1.0 - h2 * s1 * (1.0 - h2 * s2 * (1.0 - h2 * s3 * (1.0 - h2 * s4))));
  const T cosH = 1.0 - h2 * c1 * (1.0 - h2 * c2 * (1.0 - h2 * c3 * (1.0 - h2 * c4 * (1.0 - h2 * c5))));
  const T k = sinH / angle;
  return {cosH, k * phi.x, k * phi.y, k * phi.z};
}

// Eigen <-> component types (components.hpp).
inline V3<double> v3(const Vec3& v) { return {v[0], v[1], v[2]}; }
inline Vec3 vec3(const V3<double>& v) { return {v.x, v.y, v.z}; }
inline Q4<double> q4(const Quat& q) { return {q.w(), q.x(), q.y(), q.z()}; }

// A contact frame's normal: the x axis of its rotation (xAxis, the kernel's previous normal).
inline Vec3 frameNormal(const Quat& q) { return vec3(xAxis(q4(q))); }

inline Quat rotationQuat(const Vec3& phi) {
  const double angle = std::sqrt(phi[0] * phi[0] + phi[1] * phi[1] + phi[2] * phi[2]);
  if (angle == 0.0) return Quat::Identity();
  const double h = 0.5 * angle;
  if (h < 0.02) {
    const Q4<double> q = rotationQuatSmall(V3<double>{phi[0], phi[1], phi[2]}, angle);
    return Quat(q.w, q.x, q.y, q.z);
  }
  const Vec3 v = phi * (std::sin(h) / angle);
  return Quat(std::cos(h), v[0], v[1], v[2]);
}

// Angle of the relative rotation between two orientations, 2 asin(|vec(a* b)|); insensitive to
// the sign ambiguity of quaternions (verification theory, section 0.2).
inline double rotationAngleBetween(const Quat& a, const Quat& b) {
  const double s = (a.conjugate() * b).vec().norm();
  return 2.0 * std::asin(std::min(1.0, s));
}

inline bool allFinite(const Vec3& v) { return std::isfinite(v[0]) && std::isfinite(v[1]) && std::isfinite(v[2]); }
inline bool allFinite(const Quat& q) { return std::isfinite(q.w()) && allFinite(Vec3(q.vec())); }

}  // namespace dem
