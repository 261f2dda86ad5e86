// Case: STL files (io/stl.hpp) keep a mesh's facets, and a bad file gets an error that names the
//       file and the triangle (issue 21: "STL round trip ... bad STL files").
// Scenario:  the generators' box (12 triangles), drum (cylinder with caps, 48 segments) and hopper
//            (frustum, 32 segments), scaled, turned and shifted to coordinates with all 53 bits
//            used, written as ASCII and as binary STL and read back; then four broken files: a
//            binary file cut short, a binary header whose count exceeds the records, an ASCII file
//            with a NaN vertex in its third triangle, and one whose second triangle has two equal
//            vertices.
// Reference: ASCII writes 17 significant digits, which read back to the same doubles: the facets
//            are identical; binary STL stores floats: the facets read back are the written
//            coordinates rounded to float, bit for bit.
// Tolerance: round-off, exactly 0: the number of coordinates that differ; for the broken files,
//            the number of error messages that lack the file's name, "triangle K" (0-based) where
//            the defect is in a triangle, or an error at all.
#include "cases/registry.hpp"
#include "io/stl.hpp"
#include "solver/mesh_generators.hpp"

#include <unistd.h>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <numbers>
#include <string>

namespace dem::verify {

namespace {

double differing(const TriangleMesh& a, const TriangleMesh& b, bool asFloat) {
  if (a.size() != b.size()) return static_cast<double>(9 * std::max(a.size(), b.size()));
  double n = 0.0;
  for (std::size_t t = 0; t < a.size(); ++t)
    for (int v = 0; v < 3; ++v)
      for (int k = 0; k < 3; ++k) {
        const double x = a[t].v[v][k];
        // (volatile: the float rounding is not folded away)
        volatile float f = static_cast<float>(x);
        n += (asFloat ? static_cast<double>(f) : x) != b[t].v[v][k];
      }
  return n;
}

// 1 when reading `path` does not fail with a message naming the file (and `triangle` if not empty).
double missedError(const std::string& path, const std::string& triangle) {
  try {
    io::readStl(path);
  } catch (const std::runtime_error& e) {
    const std::string m = e.what();
    return m.find(path) != std::string::npos && (triangle.empty() || m.find(triangle) != std::string::npos) ? 0.0 : 1.0;
  }
  return 1.0;
}

void writeText(const std::string& path, const std::string& text) { std::ofstream(path, std::ios::binary) << text; }

}  // namespace

Case stlRoundTripCase() {
  Case c;
  c.name = "stl_round_trip";
  c.title = "STL files: ASCII and binary round trips keep the facets, broken files name the file and triangle";
  c.dts = {0.0};
  for (const char* q :
       {"ascii_differing_coordinates", "binary_differing_coordinates", "bad_files_without_a_clear_error"})
    c.quantities.push_back(roundOffTolerance({q, [](double) { return 0.0; }, std::nullopt}, "exact"));
  c.run = [](double) {
    const std::filesystem::path dir =
        std::filesystem::temp_directory_path() / ("dem-stl-round-trip-" + std::to_string(::getpid()));
    std::filesystem::create_directories(dir);
    const Quat turn(Eigen::AngleAxisd(0.7, Vec3(1, 2, 3).normalized()));
    const TriangleMesh meshes[] = {
        transformMesh(boxMesh(Vec3(0, 0, 0), Vec3(1, 2, 3), false), std::numbers::pi, turn, Vec3(0.1, -0.2, 1.0 / 3.0)),
        transformMesh(cylinderMesh(Vec3::Zero(), Vec3::UnitY(), 0.05, 0.03, 48, true, true), 1.0 / 7.0, turn,
                      Vec3::Zero()),
        transformMesh(coneMesh(Vec3(0, 0, 0.04), Vec3::UnitZ(), 0.012, 0.05, 0.06, 32), std::numbers::e,
                      Quat::Identity(), Vec3(1e-3, 0, 0))};
    RunOutput out;
    double ascii = 0.0, binary = 0.0;
    for (std::size_t m = 0; m < std::size(meshes); ++m) {
      const std::string a = (dir / ("mesh" + std::to_string(m) + ".stl")).string();
      const std::string b = (dir / ("mesh" + std::to_string(m) + "-binary.stl")).string();
      io::writeStl(a, meshes[m], false);
      io::writeStl(b, meshes[m], true);
      ascii += differing(meshes[m], io::readStl(a), false);
      binary += differing(meshes[m], io::readStl(b), true);
    }
    // the broken files
    const std::string good = (dir / "mesh0-binary.stl").string();
    std::string bytes(static_cast<std::size_t>(std::filesystem::file_size(good)), '\0');
    std::ifstream(good, std::ios::binary).read(bytes.data(), static_cast<std::streamsize>(bytes.size()));
    double missed = 0.0;
    const std::string cut = (dir / "cut.stl").string(), count = (dir / "count.stl").string();
    writeText(cut, bytes.substr(0, bytes.size() - 20));
    missed += missedError(cut, "");
    std::string more = bytes;
    more[80] = static_cast<char>(static_cast<unsigned char>(more[80]) + 1);  // the count, little-endian
    writeText(count, more);
    missed += missedError(count, "");
    const std::string facet = "facet normal 0 0 1\n outer loop\n";
    const std::string ok = facet + "  vertex 0 0 0\n  vertex 1 0 0\n  vertex 0 1 0\n endloop\nendfacet\n";
    const std::string nan = (dir / "nan.stl").string(), degenerate = (dir / "degenerate.stl").string();
    writeText(nan, "solid s\n" + ok + ok + facet +
                       "  vertex 0 0 0\n  vertex nan 0 0\n  vertex 0 1 0\n endloop\nendfacet\nendsolid s\n");
    missed += missedError(nan, "triangle 2");
    writeText(degenerate, "solid s\n" + ok + facet +
                              "  vertex 0 0 0\n  vertex 0 0 0\n  vertex 0 1 0\n endloop\nendfacet\nendsolid s\n");
    missed += missedError(degenerate, "triangle 1");
    std::filesystem::remove_all(dir);
    out.errors["ascii_differing_coordinates"] = ascii;
    out.errors["binary_differing_coordinates"] = binary;
    out.errors["bad_files_without_a_clear_error"] = missed;
    return out;
  };
  return c;
}

}  // namespace dem::verify
