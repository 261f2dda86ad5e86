#pragma once
// The clumps of a scene as built at load (solver/clump.hpp): for each, its body id, member count,
// mass, centroid, principal moments of inertia and orientation (the rotation from its principal
// axes to the global ones, quaternion w, x, y, z). dem-run prints the report at load (not with
// --quiet) and writes the table to clumps.csv in the output directory at the start of a run from
// step 0.

#include "solver/scene.hpp"

#include <string>

namespace dem::io {

// Lines "clump ID: N members, mass M kg, centroid (x, y, z) m, principal inertia (I1, I2, I3) kg m^2,
// orientation (w, x, y, z)"; empty without clumps.
std::string formatClumpReport(const Scene& scene);

// CSV: id,members,mass,x,y,z,I1,I2,I3,qw,qx,qy,qz, one row per clump, 17 significant digits.
std::string clumpTable(const Scene& scene);

// The file name of the table in the output directory.
inline constexpr const char* kClumpTableFile = "clumps.csv";

}  // namespace dem::io
