#include "machine.hpp"

#include <array>
#include <chrono>
#include <cstdio>
#include <ctime>
#include <fstream>
#include <memory>
#include <thread>

#ifndef DEM_SOURCE_DIR
#define DEM_SOURCE_DIR "."
#endif
#ifndef DEM_CXX_COMPILER
#define DEM_CXX_COMPILER "unknown"
#endif
// DEM_CXX_FLAGS: every compile flag of the build, recorded at configure time (reports/CMakeLists.txt).
#if __has_include("dem_build_flags.hpp")
#include "dem_build_flags.hpp"
#endif
#ifndef DEM_CXX_FLAGS
#define DEM_CXX_FLAGS "unknown"
#endif
#ifndef DEM_BUILD_TYPE
#define DEM_BUILD_TYPE "unknown"
#endif

namespace dem::report {

namespace {

// First line a command prints (stderr discarded); empty when it fails.
std::string firstLine(const std::string& command) {
  std::unique_ptr<FILE, int (*)(FILE*)> pipe(popen((command + " 2>/dev/null").c_str(), "r"), pclose);
  if (!pipe) return {};
  std::array<char, 512> buf{};
  std::string out;
  if (std::fgets(buf.data(), static_cast<int>(buf.size()), pipe.get())) out = buf.data();
  while (!out.empty() && (out.back() == '\n' || out.back() == '\r')) out.pop_back();
  return out;
}

std::string procField(const std::string& file, const std::string& key) {
  std::ifstream f(file);
  std::string line;
  while (std::getline(f, line)) {
    if (line.rfind(key, 0) == 0) {
      const auto colon = line.find(':');
      if (colon == std::string::npos) continue;
      std::string v = line.substr(colon + 1);
      v.erase(0, v.find_first_not_of(" \t"));
      return v;
    }
  }
  return {};
}

std::string utcNow() {
  const std::time_t t = std::chrono::system_clock::to_time_t(std::chrono::system_clock::now());
  std::tm tm{};
  gmtime_r(&t, &tm);
  std::array<char, 64> buf{};
  std::strftime(buf.data(), buf.size(), "%Y-%m-%d %H:%M:%S UTC", &tm);
  return buf.data();
}

}  // namespace

MachineInfo machineInfo() {
  MachineInfo m;
  const std::string src = DEM_SOURCE_DIR;
  std::string commit = firstLine("git -C '" + src + "' rev-parse --short=12 HEAD");
  if (commit.empty()) commit = "unknown (not a git checkout)";
  else if (!firstLine("git -C '" + src + "' status --porcelain --untracked-files=no").empty())
    commit += " + local changes";
  const std::string subject = firstLine("git -C '" + src + "' log -1 --format=%s");

  std::string cpu = procField("/proc/cpuinfo", "model name");
  if (cpu.empty()) cpu = "unknown";
  std::string mem = procField("/proc/meminfo", "MemTotal");
  std::string os = firstLine(". /etc/os-release && echo \"$PRETTY_NAME\"");
  std::string kernel = firstLine("uname -r");

  m.items.emplace_back("CPU", cpu);
  m.items.emplace_back("logical cores", std::to_string(std::thread::hardware_concurrency()));
  if (!mem.empty()) m.items.emplace_back("memory", mem);
  if (!os.empty()) m.items.emplace_back("system", os + (kernel.empty() ? "" : ", Linux " + kernel));
  m.items.emplace_back("compiler", DEM_CXX_COMPILER);
  m.items.emplace_back("build type", DEM_BUILD_TYPE);
  m.items.emplace_back("compile flags", DEM_CXX_FLAGS);
  m.items.emplace_back("git commit", commit + (subject.empty() ? "" : " (" + subject + ")"));
  m.items.emplace_back("report date", utcNow());
  return m;
}

}  // namespace dem::report
