#pragma once
// Arithmetic written once for a scalar and for a batch of lanes. A kernel templated on T runs with
// T = double (one item) or T = Lanes (std::experimental::native_simd<double>: as many items as the
// target's vector registers hold, 8 with AVX-512, 2 with SSE2). Every operation is element-wise and
// correctly rounded (+, -, *, /, sqrt), so a lane gives the same bits as the scalar instantiation of
// the same expression, whatever the other lanes hold.

#include <experimental/simd>

#include "components.hpp"

#include <cstddef>

namespace dem {

namespace stdx = std::experimental;
using Lanes = stdx::native_simd<double>;
using LaneMask = Lanes::mask_type;
inline constexpr std::size_t kLanes = Lanes::size();

// kLanes consecutive 3-vectors (x y z x y z ..., e.g. the data of std::vector<Vec3>) and quaternions
// (x y z w per quaternion, Eigen's order) loaded as lanes of their components and stored back: with
// 8 lanes (AVX-512) by whole-register loads and stores and two-source permutations, otherwise one
// component at a time. Only data moves: the values are the same bits either way.
#if defined(__AVX512F__)
namespace lanes_detail {
using V8d = double __attribute__((vector_size(64)));
using V8i = long long __attribute__((vector_size(64)));
inline V8d load8(const double* a) {
  V8d v;
  __builtin_memcpy(&v, a, sizeof v);
  return v;
}
inline void store8(double* a, const V8d& v) { __builtin_memcpy(a, &v, sizeof v); }
inline Lanes lanes(const V8d& v) { return Lanes(static_cast<__m512d>(v)); }
inline V8d v8d(const Lanes& l) { return static_cast<V8d>(static_cast<__m512d>(l)); }
}  // namespace lanes_detail
#endif

// Component c of kLanes consecutive items of `stride` doubles each, as lanes, and back (the generic
// paths below).
[[gnu::always_inline]] inline Lanes loadStrided(const double* a, std::size_t stride, std::size_t c) {
  return Lanes([&](auto j) { return a[stride * j + c]; });
}
[[gnu::always_inline]] inline void storeStrided(double* a, std::size_t stride, std::size_t c, const Lanes& x) {
  for (std::size_t j = 0; j < kLanes; ++j) a[stride * j + c] = x[j];
}

[[gnu::always_inline]] inline V3<Lanes> loadV3Lanes(const double* a) {
#if defined(__AVX512F__)
  if constexpr (kLanes == 8) {
    using namespace lanes_detail;
    const V8d r0 = load8(a), r1 = load8(a + 8), r2 = load8(a + 16);
    return {lanes(__builtin_shuffle(__builtin_shuffle(r0, r1, V8i{0, 3, 6, 9, 12, 15, 0, 0}), r2, V8i{0, 1, 2, 3, 4, 5, 10, 13})),
            lanes(__builtin_shuffle(__builtin_shuffle(r0, r1, V8i{1, 4, 7, 10, 13, 0, 0, 0}), r2, V8i{0, 1, 2, 3, 4, 8, 11, 14})),
            lanes(__builtin_shuffle(__builtin_shuffle(r0, r1, V8i{2, 5, 8, 11, 14, 0, 0, 0}), r2, V8i{0, 1, 2, 3, 4, 9, 12, 15}))};
  }
#endif
  return {loadStrided(a, 3, 0), loadStrided(a, 3, 1), loadStrided(a, 3, 2)};
}

[[gnu::always_inline]] inline void storeV3Lanes(double* a, const V3<Lanes>& v) {
#if defined(__AVX512F__)
  if constexpr (kLanes == 8) {
    using namespace lanes_detail;
    const V8d x = v8d(v.x), y = v8d(v.y), z = v8d(v.z);
    store8(a, __builtin_shuffle(__builtin_shuffle(x, y, V8i{0, 8, 0, 1, 9, 0, 2, 10}), z, V8i{0, 1, 8, 3, 4, 9, 6, 7}));
    store8(a + 8, __builtin_shuffle(__builtin_shuffle(x, y, V8i{0, 3, 11, 0, 4, 12, 0, 5}), z, V8i{10, 1, 2, 11, 4, 5, 12, 7}));
    store8(a + 16, __builtin_shuffle(__builtin_shuffle(x, y, V8i{13, 0, 6, 14, 0, 7, 15, 0}), z, V8i{0, 13, 2, 3, 14, 5, 6, 15}));
    return;
  }
#endif
  storeStrided(a, 3, 0, v.x);
  storeStrided(a, 3, 1, v.y);
  storeStrided(a, 3, 2, v.z);
}

[[gnu::always_inline]] inline Q4<Lanes> loadQuatLanes(const double* a) {
#if defined(__AVX512F__)
  if constexpr (kLanes == 8) {
    using namespace lanes_detail;
    const V8d q0 = load8(a), q1 = load8(a + 8), q2 = load8(a + 16), q3 = load8(a + 24);
    const auto component = [&](long long c) {
      const V8i pick{c, c + 4, c + 8, c + 12, 0, 0, 0, 0};
      return lanes(__builtin_shuffle(__builtin_shuffle(q0, q1, pick), __builtin_shuffle(q2, q3, pick),
                                     V8i{0, 1, 2, 3, 8, 9, 10, 11}));
    };
    return {component(3), component(0), component(1), component(2)};
  }
#endif
  return {loadStrided(a, 4, 3), loadStrided(a, 4, 0), loadStrided(a, 4, 1), loadStrided(a, 4, 2)};
}

[[gnu::always_inline]] inline void storeQuatLanes(double* a, const Q4<Lanes>& q) {
#if defined(__AVX512F__)
  if constexpr (kLanes == 8) {
    using namespace lanes_detail;
    const V8d x = v8d(q.x), y = v8d(q.y), z = v8d(q.z), w = v8d(q.w);
    for (long long h = 0; h < 4; ++h) {  // quaternions 2h and 2h + 1
      const V8i pair{2 * h, 2 * h + 8, 0, 0, 2 * h + 1, 2 * h + 9, 0, 0};
      store8(a + 8 * h, __builtin_shuffle(__builtin_shuffle(x, y, pair), __builtin_shuffle(z, w, pair),
                                          V8i{0, 1, 8, 9, 4, 5, 12, 13}));
    }
    return;
  }
#endif
  storeStrided(a, 4, 0, q.x);
  storeStrided(a, 4, 1, q.y);
  storeStrided(a, 4, 2, q.z);
  storeStrided(a, 4, 3, q.w);
}

}  // namespace dem
