#pragma once
// 3-vectors and quaternions on components, for kernels written once for a scalar (T = double) and
// for a batch of lanes (T = Lanes, lanes.hpp). Only this header is needed to define such a kernel;
// lanes.hpp (std::experimental::simd, a heavy header) only where a kernel runs on lanes.

#include <type_traits>

namespace dem {

// select(m, a, b) = m ? a : b, lane by lane (for lanes, `where` is found by argument-dependent
// lookup in std::experimental).
template <class M, class T>
[[gnu::always_inline]] inline T select(const M& m, const T& a, const T& b) {
  if constexpr (std::is_same_v<M, bool>) {
    return m ? a : b;
  } else {
    T r = b;
    where(m, r) = a;
    return r;
  }
}

// A 3-vector of scalars or of lanes.
template <class T>
struct V3 {
  T x, y, z;
};
template <class T> [[gnu::always_inline]] inline V3<T> operator+(const V3<T>& a, const V3<T>& b) { return {a.x + b.x, a.y + b.y, a.z + b.z}; }
template <class T> [[gnu::always_inline]] inline V3<T> operator-(const V3<T>& a, const V3<T>& b) { return {a.x - b.x, a.y - b.y, a.z - b.z}; }
template <class T> [[gnu::always_inline]] inline V3<T> operator*(const T& s, const V3<T>& a) { return {s * a.x, s * a.y, s * a.z}; }
template <class T>
  requires(!std::is_same_v<T, double>)
[[gnu::always_inline]] inline V3<T> operator*(double s, const V3<T>& a) { return T(s) * a; }
template <class T> [[gnu::always_inline]] inline T dot(const V3<T>& a, const V3<T>& b) { return a.x * b.x + a.y * b.y + a.z * b.z; }
template <class T> [[gnu::always_inline]] inline V3<T> cross(const V3<T>& a, const V3<T>& b) {
  return {a.y * b.z - a.z * b.y, a.z * b.x - a.x * b.z, a.x * b.y - a.y * b.x};
}

// A quaternion (w, x, y, z) of scalars or of lanes.
template <class T>
struct Q4 {
  T w, x, y, z;
};

// The x axis of the rotation of the unit quaternion q (the first column of R(q)): a contact frame's
// normal (contact_kernel.hpp).
template <class T>
[[gnu::always_inline]] inline V3<T> xAxis(const Q4<T>& q) {
  return {1.0 - 2.0 * (q.y * q.y + q.z * q.z), 2.0 * (q.x * q.y + q.w * q.z), 2.0 * (q.x * q.z - q.w * q.y)};
}

// Hamilton product a b.
template <class T>
[[gnu::always_inline]] inline Q4<T> operator*(const Q4<T>& a, const Q4<T>& b) {
  return {a.w * b.w - a.x * b.x - a.y * b.y - a.z * b.z, a.w * b.x + a.x * b.w + a.y * b.z - a.z * b.y,
          a.w * b.y + a.y * b.w + a.z * b.x - a.x * b.z, a.w * b.z + a.z * b.w + a.x * b.y - a.y * b.x};
}

}  // namespace dem
