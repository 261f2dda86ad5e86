#pragma once
// Registration of the scene benchmarks (the settled deposition bed, deposition_bed.hpp; the periodic
// shear packing, step_benchmark.cpp); one program, dem-bench-scene, so that each bed is settled once
// for all of them.

#include <cstdint>
#include <vector>

namespace dem::bench {

void registerColliderBenchmarks(const std::vector<std::int64_t>& sizes);     // collider_benchmark.cpp
void registerContactLoopBenchmarks(const std::vector<std::int64_t>& sizes);  // contact_loop_benchmark.cpp
void registerTimestepBenchmarks(const std::vector<std::int64_t>& sizes);     // timestep_benchmark.cpp
void registerStepBenchmarks(const std::vector<std::int64_t>& sizes);         // step_benchmark.cpp

}  // namespace dem::bench
