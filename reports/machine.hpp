#pragma once
// What the report says about the machine and the build it was made with.

#include <string>
#include <vector>

namespace dem::report {

struct MachineInfo {
  std::vector<std::pair<std::string, std::string>> items;  // label, value; in display order
};

// CPU model and core count (/proc/cpuinfo), memory, OS, compiler and flags of this build, git
// commit of the source tree (with "+ local changes" when the work tree differs), date (UTC).
MachineInfo machineInfo();

}  // namespace dem::report
