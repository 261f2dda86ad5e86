#include "assert.hpp"

#include <cstdio>
#include <cstdlib>

namespace dem {

void assertionFailed(const char* file, int line, const char* condition, const char* message) noexcept {
  std::fprintf(stderr, "%s:%d: DEM_ASSERT(%s) failed: %s\n", file, line, condition, message);
  std::fflush(stderr);
  std::abort();
}

}  // namespace dem
