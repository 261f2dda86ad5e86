// Unit: STL files (io/stl.hpp).
// - Round trips: ASCII gives back the same doubles (17 digits), binary the same floats (coordinates
//   representable as floats; others rounded to the nearest float); a binary file whose header starts
//   with "solid" is still read as binary (its size matches its count); ASCII keywords in any case,
//   '+' signs, CRLF line ends and several solids are read.
// - Every bad file gives a std::runtime_error naming the file and what was expected, with the
//   triangle (0-based) and, in ASCII, the line: missing, empty, truncated or over-long binary,
//   a count of 0, bad ASCII syntax (each expected phrase), too few or too many vertices,
//   non-finite coordinates, degenerate triangles (equal vertices, collinear vertices).
// - writeStl refuses a mesh readStl would refuse (std::invalid_argument naming the triangle).
#include "io/stl.hpp"
#include "solver/mesh_generators.hpp"

#include <boost/test/unit_test.hpp>

#include <unistd.h>
#include <cmath>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <limits>
#include <sstream>

using namespace dem;
using namespace dem::io;

namespace stl_test {

std::filesystem::path dir() {
  const auto d = std::filesystem::temp_directory_path() / ("dem-stl-test-" + std::to_string(::getpid()));
  std::filesystem::create_directories(d);
  return d;
}

std::string file(const std::string& name) { return (dir() / name).string(); }

void writeBytes(const std::string& path, const std::string& bytes) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
}

std::string readBytes(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

// readStl(path) must throw std::runtime_error whose message contains the path and every needle.
template <class... Needles>
void expectStlError(const std::string& path, const Needles&... needles) {
  try {
    readStl(path);
    BOOST_ERROR("no exception reading " << path);
  } catch (const std::runtime_error& e) {
    const std::string m = e.what();
    BOOST_TEST_INFO("message: " << m);
    for (const std::string& n : {path, std::string(needles)...}) BOOST_TEST(m.find(n) != std::string::npos, n);
  }
}

// writeStl must throw std::invalid_argument whose message contains every needle.
template <class... Needles>
void expectWriteError(const TriangleMesh& mesh, bool binary, const Needles&... needles) {
  const std::string path = file("refused.stl");
  try {
    writeStl(path, mesh, binary);
    BOOST_ERROR("no exception writing " << path);
  } catch (const std::invalid_argument& e) {
    const std::string m = e.what();
    BOOST_TEST_INFO("message: " << m);
    for (const std::string& n : {path, std::string(needles)...}) BOOST_TEST(m.find(n) != std::string::npos, n);
  }
}

bool sameMesh(const TriangleMesh& a, const TriangleMesh& b) {
  if (a.size() != b.size()) return false;
  for (std::size_t k = 0; k < a.size(); ++k)
    for (std::size_t i = 0; i < 3; ++i)
      for (Eigen::Index c = 0; c < 3; ++c)
        if (std::memcmp(&a[k].v[i][c], &b[k].v[i][c], sizeof(double)) != 0) return false;
  return true;
}

// Coordinates that 17 digits must carry exactly: a tilted drum, huge, tiny, negative zero.
TriangleMesh awkwardMesh() {
  TriangleMesh m = cylinderMesh(Vec3(0.1, -0.2, 1.0 / 3.0), Vec3(1, 2, 3), 0.7, std::sqrt(2.0), 9, true, true);
  m.push_back({{Vec3(1e200, 0, 0), Vec3(0, 1e200, 0), Vec3(0, -0.0, 1e200)}});
  m.push_back({{Vec3(1e-300, 0, 0), Vec3(0, 3e-300, 0), Vec3(-0.0, 0, 7e-301)}});
  m.push_back({{Vec3(-1.5e-5, 2.0 / 3.0, 123456789.0123), Vec3(1, 1, 1), Vec3(0.1, 0.2, 0.3)}});
  return m;
}

// x rounded to the nearest float. Through a volatile float: GCC 12 (-O2 and up) vectorises a loop of
// static_cast<double>(static_cast<float>(x)) into a copy that keeps the doubles.
double roundedToFloat(double x) {
  const volatile float f = static_cast<float>(x);
  return static_cast<double>(f);
}

// The mesh with every coordinate rounded to a float.
TriangleMesh toFloats(TriangleMesh m) {
  for (Triangle& t : m)
    for (Vec3& p : t.v)
      for (Eigen::Index c = 0; c < 3; ++c) p[c] = roundedToFloat(p[c]);
  return m;
}

// An ASCII file of the triangles, 7 lines per facet after line 1 (`solid t`): facet k starts on line
// 2 + 7k ("facet normal"), then "outer loop" (3 + 7k), the vertices (4 + 7k to 6 + 7k), "endloop"
// (7 + 7k), "endfacet" (8 + 7k); "endsolid t" last. lines[L - 1] is line L.
std::vector<std::string> asciiLines(const TriangleMesh& mesh) {
  std::vector<std::string> lines = {"solid t"};
  for (const Triangle& t : mesh) {
    lines.push_back("  facet normal 0 0 1");
    lines.push_back("    outer loop");
    for (const Vec3& p : t.v) {
      std::ostringstream v;
      v.precision(17);
      v << "      vertex " << p[0] << " " << p[1] << " " << p[2];
      lines.push_back(v.str());
    }
    lines.push_back("    endloop");
    lines.push_back("  endfacet");
  }
  lines.push_back("endsolid t");
  return lines;
}

std::string joined(const std::vector<std::string>& lines, const std::string& end = "\n") {
  std::string s;
  for (const std::string& l : lines) s += l + end;
  return s;
}

TriangleMesh threeTriangles() {
  return {{{Vec3(0, 0, 0), Vec3(1, 0, 0), Vec3(0, 1, 0)}},
          {{Vec3(0, 0, 1), Vec3(1, 0, 1), Vec3(0, 1, 1)}},
          {{Vec3(0, 0, 2), Vec3(1, 0, 2), Vec3(0, 1, 2)}}};
}

// A bad ASCII file: the three triangles' lines with line L replaced (or removed when `text` is
// null); returns its path.
std::string badAscii(const std::string& name, std::size_t line, const char* text) {
  std::vector<std::string> lines = asciiLines(threeTriangles());
  if (text) lines[line - 1] = text;
  else lines.erase(lines.begin() + static_cast<std::ptrdiff_t>(line - 1));
  const std::string path = file(name);
  writeBytes(path, joined(lines));
  return path;
}

// A valid binary file of n triangles with the float at byte `offset` of triangle t's record replaced.
std::string badBinary(const std::string& name, std::size_t n, std::size_t t, std::size_t offset, float value) {
  TriangleMesh mesh;
  for (std::size_t k = 0; k < n; ++k) {
    const double z = static_cast<double>(k);
    mesh.push_back({{Vec3(0, 0, z), Vec3(2, 0, z), Vec3(1, 1, z)}});
  }
  const std::string path = file(name);
  writeStl(path, mesh, true);
  std::string bytes = readBytes(path);
  std::memcpy(&bytes[84 + 50 * t + offset], &value, sizeof value);  // (little-endian machine)
  writeBytes(path, bytes);
  return path;
}

}  // namespace stl_test

BOOST_AUTO_TEST_SUITE(stl_files)

using namespace stl_test;  // (inside the suite's namespace: no clash in a unity build)

BOOST_AUTO_TEST_CASE(ascii_round_trip_gives_the_same_doubles) {
  const TriangleMesh mesh = awkwardMesh();
  const std::string path = file("ascii.stl");
  writeStl(path, mesh, false);
  BOOST_TEST(readBytes(path).rfind("solid ", 0) == 0u);
  BOOST_TEST(sameMesh(readStl(path), mesh));
}

BOOST_AUTO_TEST_CASE(binary_round_trip_gives_the_same_floats) {
  const TriangleMesh mesh =
      toFloats(cylinderMesh(Vec3(0.1, -0.2, 0.3), Vec3(1, 2, 3), 0.7, 1.1, 17, true, true));  // float values
  BOOST_REQUIRE(mesh[0].v[0][0] == 0.100000001490116119384765625);                            // (the rounding happened)
  const std::string path = file("binary.stl");
  writeStl(path, mesh, true);
  const std::string bytes = readBytes(path);
  BOOST_TEST(bytes.size() == 84 + 50 * mesh.size());
  BOOST_TEST(bytes.rfind("solid", 0) != 0u);  // the header is not mistaken for ASCII by other readers
  BOOST_TEST(sameMesh(readStl(path), mesh));
  // a binary header starting with "solid" (as some exporters write): the size decides
  std::string solid = bytes;
  solid.replace(0, 6, "solid ");
  writeBytes(path, solid);
  BOOST_TEST(sameMesh(readStl(path), mesh));
  // doubles are rounded to the nearest float
  const TriangleMesh awkward = awkwardMesh();
  const TriangleMesh first(awkward.begin(), awkward.begin() + 36);  // the drum
  writeStl(path, first, true);
  BOOST_TEST(sameMesh(readStl(path), toFloats(first)));
}

BOOST_AUTO_TEST_CASE(ascii_variants_are_read) {
  const std::string text =
      "SOLID part one\r\n FACET NORMAL +0.0E+00 0 -1\r\n  OUTER LOOP\r\n   VERTEX +1 0 0\r\n   Vertex 0 1e0 0\r\n"
      "   vertex 0 0 +1.5e+00\r\n  ENDLOOP\r\n ENDFACET\r\nENDSOLID part one\r\n"
      "solid second\n facet normal nan nan nan\n outer loop\n vertex 2 0 0\n vertex 0 2 0\n vertex 0 0 2\n"
      " endloop\n endfacet\nendsolid";
  const std::string path = file("variants.stl");
  writeBytes(path, text);
  const TriangleMesh expected = {{{Vec3(1, 0, 0), Vec3(0, 1, 0), Vec3(0, 0, 1.5)}},
                                 {{Vec3(2, 0, 0), Vec3(0, 2, 0), Vec3(0, 0, 2)}}};
  BOOST_TEST(sameMesh(readStl(path), expected));
}

BOOST_AUTO_TEST_CASE(missing_empty_and_unknown_files) {
  expectStlError(file("no-such-file.stl"), "cannot open", "No such file");
  const std::string empty = file("empty.stl");
  writeBytes(empty, "");
  expectStlError(empty, "empty file");
  const std::string shortFile = file("short.stl");
  writeBytes(shortFile, "hello, world");
  expectStlError(shortFile, "not an STL file", "12 bytes", "'solid'");
}

BOOST_AUTO_TEST_CASE(binary_size_must_match_the_count) {
  const TriangleMesh mesh = boxMesh(Vec3(0, 0, 0), Vec3(1, 2, 3), false);  // 12 triangles: 684 bytes
  const std::string path = file("truncated.stl");
  writeStl(path, mesh, true);
  const std::string bytes = readBytes(path);
  writeBytes(path, bytes.substr(0, bytes.size() - 10));
  expectStlError(path, "truncated binary STL", "count of 12 triangles", "684 bytes", "the file has 674");
  writeBytes(path, bytes.substr(0, 90));
  expectStlError(path, "truncated binary STL", "the file has 90");
  writeBytes(path, bytes + "xyz");
  expectStlError(path, "bytes left over", "684 bytes", "the file has 687");
  // a count of 0 with an 84-byte file is binary, without triangles
  std::string header = bytes.substr(0, 84);
  std::memset(&header[80], 0, 4);
  writeBytes(path, header);
  expectStlError(path, "without triangles");
}

BOOST_AUTO_TEST_CASE(binary_bad_triangles_name_the_index) {
  const float nan = std::numeric_limits<float>::quiet_NaN(), inf = std::numeric_limits<float>::infinity();
  // record: normal at 0, vertex 0 at 12, vertex 1 at 24, vertex 2 at 36 (x, y, z 4 bytes each)
  expectStlError(badBinary("nan.stl", 20, 17, 28, nan), "triangle 17", "vertex 1", "non-finite");
  expectStlError(badBinary("inf.stl", 20, 3, 44, -inf), "triangle 3", "vertex 2", "non-finite", "-inf");
  expectStlError(badBinary("equal.stl", 20, 5, 24, 0.0f), "triangle 5", "vertices 0 and 1", "same point");
  expectStlError(badBinary("line.stl", 20, 9, 40, 0.0f), "triangle 9", "zero area", "collinear");
  // the stored normal is ignored: a NaN there is fine
  BOOST_TEST(readStl(badBinary("normal.stl", 20, 4, 0, nan)).size() == 20u);
}

BOOST_AUTO_TEST_CASE(ascii_syntax_errors_name_the_line_the_triangle_and_the_expected_words) {
  // facet 1 starts on line 9: "outer loop" on 10, vertices 11-13, "endloop" 14, "endfacet" 15
  expectStlError(badAscii("facet.stl", 9, "  facett normal 0 0 1"), "line 9", "expected 'facet normal' or 'endsolid'",
                 "found 'facett'");
  expectStlError(badAscii("normal.stl", 9, "  facet 0 0 1"), "line 9", "triangle 1", "expected 'facet normal",
                 "found '0'");
  expectStlError(badAscii("normal_numbers.stl", 9, "  facet normal 0 zero 1"), "line 9", "triangle 1",
                 "expected 'facet normal nx ny nz' (three numbers)", "found 'zero'");
  expectStlError(badAscii("outer.stl", 10, "    outer lop"), "line 10", "triangle 1", "expected 'outer loop'",
                 "found 'lop'");
  expectStlError(badAscii("vertex.stl", 12, "      vertex 1 0"), "line 13", "triangle 1",
                 "expected 'vertex x y z' (three numbers)", "found 'vertex'");
  expectStlError(badAscii("vertex_word.stl", 12, "      vertx 1 0 0"), "line 12", "triangle 1",
                 "expected 'vertex x y z'", "found 'vertx'");
  expectStlError(badAscii("two_vertices.stl", 13, nullptr), "line 13", "triangle 1", "expected 'vertex x y z'",
                 "found 'endloop'");
  expectStlError(badAscii("four_vertices.stl", 14, "      vertex 1 1 1"), "line 14", "triangle 1",
                 "expected 'endloop' (a facet has three vertices)", "found 'vertex'");
  expectStlError(badAscii("endloop.stl", 14, "    end loop"), "line 14", "triangle 1", "expected 'endloop'");
  expectStlError(badAscii("endfacet.stl", 15, nullptr), "line 15", "triangle 1", "expected 'endfacet'",
                 "found 'facet'");
  expectStlError(badAscii("endsolid.stl", 23, nullptr), "line 22", "expected 'facet normal' or 'endsolid'",
                 "found the end of the file");
  expectStlError(badAscii("after.stl", 23, "endsolid t\ngarbage"), "line 24",
                 "expected 'solid' or the end of the file after 'endsolid'", "found 'garbage'");
  expectStlError(badAscii("solid.stl", 1, "solidity"), "line 1", "expected 'solid'");
  const std::string none = file("no_facets.stl");
  writeBytes(none, "solid empty\nendsolid empty\n");
  expectStlError(none, "without triangles", "'facet normal'");
}

BOOST_AUTO_TEST_CASE(ascii_bad_triangles_name_the_line_and_the_index) {
  expectStlError(badAscii("nan.stl", 19, "      vertex 1 nan 2"), "line 19", "triangle 2", "vertex 1",
                 "non-finite coordinate nan");
  expectStlError(badAscii("inf.stl", 4, "      vertex -inf 0 0"), "line 4", "triangle 0", "vertex 0", "non-finite");
  expectStlError(badAscii("huge.stl", 6, "      vertex 0 1e400 0"), "line 6", "triangle 0", "vertex 2", "non-finite");
  // degenerate triangles: reported on their 'facet normal' line
  expectStlError(badAscii("equal.stl", 20, "      vertex 0 0 2"), "line 16", "triangle 2", "vertices 0 and 2",
                 "same point");
  expectStlError(badAscii("collinear.stl", 13, "      vertex 2 0 1"), "line 9", "triangle 1", "zero area", "collinear");
  // nearly collinear above the threshold is accepted
  const std::string ok = badAscii("thin.stl", 13, "      vertex 2 1e-12 1");
  BOOST_TEST(readStl(ok).size() == 3u);
}

BOOST_AUTO_TEST_CASE(write_refuses_what_read_would_refuse) {
  const double nan = std::numeric_limits<double>::quiet_NaN();
  expectWriteError({}, false, "no triangles");
  TriangleMesh mesh = threeTriangles();
  mesh[1].v[2][0] = nan;
  expectWriteError(mesh, false, "triangle 1", "non-finite");
  mesh = threeTriangles();
  mesh[2].v[1] = mesh[2].v[0];
  expectWriteError(mesh, true, "triangle 2", "same point");
  mesh = threeTriangles();
  mesh[0] = {{Vec3(0, 0, 0), Vec3(1e39, 0, 0), Vec3(0, 1e39, 0)}};
  expectWriteError(mesh, true, "triangle 0", "range of a float");
  writeStl(file("ascii_big.stl"), mesh, false);  // fine in ASCII
  mesh = threeTriangles();
  mesh[2] = {{Vec3(0, 0, 0), Vec3(1, 1, 0), Vec3(2, 2 + 1e-9, 0)}};  // collinear once rounded to floats
  expectWriteError(mesh, true, "triangle 2", "after rounding to floats", "zero area");
  writeStl(file("ascii_thin.stl"), mesh, false);  // fine in ASCII
  BOOST_TEST(sameMesh(readStl(file("ascii_thin.stl")), mesh));
  // a file that cannot be created: std::runtime_error naming it
  BOOST_CHECK_THROW(writeStl((dir() / "no-such-dir" / "x.stl").string(), threeTriangles(), false), std::runtime_error);
}

BOOST_AUTO_TEST_SUITE_END()
