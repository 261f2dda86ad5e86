#pragma once
// Arithmetic written once for a scalar and for a batch of lanes. A kernel templated on T runs with
// T = double (one item) or T = Lanes (std::experimental::native_simd<double>: as many items as the
// target's vector registers hold, 8 with AVX-512, 2 with SSE2). Every operation is element-wise and
// correctly rounded (+, -, *, /, sqrt), so a lane gives the same bits as the scalar instantiation of
// the same expression, whatever the other lanes hold.

#include <experimental/simd>

#include <cmath>
#include <cstddef>
#include <type_traits>

namespace dem {

namespace stdx = std::experimental;
using Lanes = stdx::native_simd<double>;
using LaneMask = Lanes::mask_type;
inline constexpr std::size_t kLanes = Lanes::size();

// select(m, a, b) = m ? a : b, lane by lane.
inline double select(bool m, double a, double b) { return m ? a : b; }
inline Lanes select(const LaneMask& m, const Lanes& a, const Lanes& b) {
  Lanes r = b;
  stdx::where(m, r) = a;
  return r;
}

// A 3-vector of scalars or of lanes.
template <class T>
struct V3 {
  T x, y, z;
};
template <class T> V3<T> operator+(const V3<T>& a, const V3<T>& b) { return {a.x + b.x, a.y + b.y, a.z + b.z}; }
template <class T> V3<T> operator-(const V3<T>& a, const V3<T>& b) { return {a.x - b.x, a.y - b.y, a.z - b.z}; }
template <class T> V3<T> operator*(const T& s, const V3<T>& a) { return {s * a.x, s * a.y, s * a.z}; }
template <class T>
  requires(!std::is_same_v<T, double>)
V3<T> operator*(double s, const V3<T>& a) { return T(s) * a; }
template <class T> T dot(const V3<T>& a, const V3<T>& b) { return a.x * b.x + a.y * b.y + a.z * b.z; }
template <class T> V3<T> cross(const V3<T>& a, const V3<T>& b) {
  return {a.y * b.z - a.z * b.y, a.z * b.x - a.x * b.z, a.x * b.y - a.y * b.x};
}

// A quaternion (w, x, y, z) of scalars or of lanes.
template <class T>
struct Q4 {
  T w, x, y, z;
};

// Hamilton product a b.
template <class T>
Q4<T> operator*(const Q4<T>& a, const Q4<T>& b) {
  return {a.w * b.w - a.x * b.x - a.y * b.y - a.z * b.z, a.w * b.x + a.x * b.w + a.y * b.z - a.z * b.y,
          a.w * b.y + a.y * b.w + a.z * b.x - a.x * b.z, a.w * b.z + a.z * b.w + a.x * b.y - a.y * b.x};
}

}  // namespace dem
