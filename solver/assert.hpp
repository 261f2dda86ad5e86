#pragma once
// Debug invariant checks: DEM_ASSERT(condition, message) aborts with the file, line, condition and
// message on stderr when the condition is false. Active when DEM_ASSERTIONS is defined to 1 (CMake
// option DEM_ASSERTIONS, on in the debug and asan presets, off in release; build tree only: a
// program using the installed library compiles them out unless it defines it); otherwise the
// condition is not evaluated (it is only named in an unevaluated sizeof, so its variables count as
// used). For invariants of the solver's own data (indices in range, sorted lists, partitions), not
// for input: invalid input throws (std::invalid_argument, SceneError, a checkpoint's error).
// Checks that cost a loop over the data are written under `if constexpr (kAssertions)`.

namespace dem {

#if defined(DEM_ASSERTIONS) && DEM_ASSERTIONS
inline constexpr bool kAssertions = true;
#else
inline constexpr bool kAssertions = false;
#endif

// Prints "file:line: DEM_ASSERT(condition) failed: message" to stderr and calls std::abort().
[[noreturn]] void assertionFailed(const char* file, int line, const char* condition, const char* message) noexcept;

}  // namespace dem

#if defined(DEM_ASSERTIONS) && DEM_ASSERTIONS
#define DEM_ASSERT(condition, message) \
  (static_cast<bool>(condition) ? void(0) : ::dem::assertionFailed(__FILE__, __LINE__, #condition, message))
#else
#define DEM_ASSERT(condition, message) static_cast<void>(sizeof(static_cast<bool>(condition)))
#endif
