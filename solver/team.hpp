#pragma once
// The calling thread's place in its OpenMP team: its number and the team's size (0 of 1 outside a
// parallel region, or without OpenMP), for loops that share work out themselves.

#ifdef _OPENMP
#include <omp.h>
#endif

#include <cstddef>

namespace dem {

struct TeamPlace {
  std::size_t thread = 0, threads = 1;
};

inline TeamPlace teamPlace() {
#ifdef _OPENMP
  return {static_cast<std::size_t>(omp_get_thread_num()), static_cast<std::size_t>(omp_get_num_threads())};
#else
  return {};
#endif
}

}  // namespace dem
