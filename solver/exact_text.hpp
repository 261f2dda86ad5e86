#pragma once
// Numbers in messages and text files: 17 significant digits, the shortest printf form that always
// reads back to the same double.

#include "math.hpp"

#include <cstdio>
#include <string>

namespace dem {

inline std::string exactText(double x) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.17g", x);
  return buf;
}

// "(x, y, z)"
inline std::string exactText(const Vec3& p) {
  char buf[96];
  std::snprintf(buf, sizeof buf, "(%.17g, %.17g, %.17g)", p[0], p[1], p[2]);
  return buf;
}

}  // namespace dem
