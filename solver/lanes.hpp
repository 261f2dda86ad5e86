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

}  // namespace dem
