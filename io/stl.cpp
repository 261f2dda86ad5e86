#include "stl.hpp"

#include "atomic_file.hpp"
#include "solver/exact_text.hpp"

#include <algorithm>
#include <bit>
#include <cctype>
#include <cerrno>
#include <charconv>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <initializer_list>
#include <limits>
#include <memory>
#include <stdexcept>
#include <string_view>

namespace dem::io {

namespace {

constexpr std::size_t kHeaderBytes = 84;  // 80 bytes of text, the uint32 triangle count
constexpr std::size_t kRecordBytes = 50;  // 12 floats and a uint16 attribute
constexpr double kDegenerateRatio = 1e-14;

[[noreturn]] void fail(const std::string& path, const std::string& what) {
  throw std::runtime_error(path + ": " + what);
}

// What makes a triangle unusable as a facet, or "" when nothing does: a non-finite coordinate, two
// equal vertices, or zero area, |areaNormal| <= 1e-14 (longest edge)^2 (computed on the edges divided
// by their largest component, so that no square overflows or underflows).
std::string triangleProblem(const Triangle& t) {
  for (int i = 0; i < 3; ++i)
    for (int a = 0; a < 3; ++a)
      if (!std::isfinite(t.v[i][a]))
        return "vertex " + std::to_string(i) + " has the non-finite coordinate " + exactText(t.v[i][a]);
  for (int i = 0; i < 3; ++i)
    for (int j = i + 1; j < 3; ++j)
      if (t.v[i] == t.v[j])
        return "degenerate: vertices " + std::to_string(i) + " and " + std::to_string(j) + " are the same point " +
               exactText(t.v[i]);
  const Vec3 e1 = t.v[1] - t.v[0], e2 = t.v[2] - t.v[0], e3 = t.v[2] - t.v[1];
  const double scale = std::max({e1.cwiseAbs().maxCoeff(), e2.cwiseAbs().maxCoeff(), e3.cwiseAbs().maxCoeff()});
  const Vec3 a = e1 / scale, b = e2 / scale, c = e3 / scale;
  const double longest2 = std::max({a.squaredNorm(), b.squaredNorm(), c.squaredNorm()});
  if (a.cross(b).norm() <= kDegenerateRatio * longest2)
    return "degenerate: zero area (the vertices " + exactText(t.v[0]) + ", " + exactText(t.v[1]) + ", " +
           exactText(t.v[2]) + " are collinear)";
  return "";
}

// The whole file. Throws naming the file and the system's reason.
std::string readBytes(const std::string& path, std::size_t maxBytes) {
  struct Close {
    void operator()(std::FILE* f) const { std::fclose(f); }
  };
  const std::unique_ptr<std::FILE, Close> f(std::fopen(path.c_str(), "rb"));
  if (!f) fail(path, std::string("cannot open the STL file: ") + std::strerror(errno));
  std::error_code ec;
  if (!std::filesystem::is_regular_file(path, ec)) fail(path, "not a regular file (expected an STL file)");
  const auto size = std::filesystem::file_size(path, ec);
  if (ec) fail(path, "cannot read the file size: " + ec.message());
  if (size > maxBytes) fail(path, "larger than " + std::to_string(maxBytes) + " bytes (the limit for STL files)");
  std::string bytes;
  char buf[1 << 16];
  std::size_t k = 0;
  while ((k = std::fread(buf, 1, sizeof buf, f.get())) > 0) bytes.append(buf, k);
  if (std::ferror(f.get())) fail(path, std::string("cannot read the STL file: ") + std::strerror(errno));
  return bytes;
}

// Little-endian uint32 and float at `offset`.
std::uint32_t getU32(std::string_view bytes, std::size_t offset) {
  std::uint32_t x = 0;
  for (int i = 3; i >= 0; --i) x = (x << 8) | static_cast<unsigned char>(bytes[offset + static_cast<std::size_t>(i)]);
  return x;
}
double getF32(std::string_view bytes, std::size_t offset) {
  return static_cast<double>(std::bit_cast<float>(getU32(bytes, offset)));
}

void putU32(std::string& out, std::uint32_t x) {
  for (int i = 0; i < 4; ++i) out.push_back(static_cast<char>((x >> (8 * i)) & 0xffu));
}
void putF32(std::string& out, float x) { putU32(out, std::bit_cast<std::uint32_t>(x)); }

// The size a binary file of its header's triangle count has (0 when shorter than the header).
std::uint64_t binarySizeForCount(std::string_view bytes) {
  if (bytes.size() < kHeaderBytes) return 0;
  return kHeaderBytes + kRecordBytes * std::uint64_t{getU32(bytes, 80)};
}

bool sameWord(std::string_view token, std::string_view word) {
  return token.size() == word.size() && std::equal(token.begin(), token.end(), word.begin(), [](char a, char b) {
           return std::tolower(static_cast<unsigned char>(a)) == b;
         });
}

// Does the text start with the word "solid" (after blanks, any case)?
bool startsWithSolid(const std::string& bytes) {
  const std::size_t p = bytes.find_first_not_of(" \t\r\n");
  return p != std::string::npos && bytes.size() - p >= 5 && sameWord(std::string_view(bytes).substr(p, 5), "solid");
}

// Triangle t of a binary file (its vertices' floats as doubles; the stored normal is skipped).
Triangle binaryTriangle(std::string_view bytes, std::size_t t) {
  const std::size_t record = kHeaderBytes + kRecordBytes * t;
  Triangle tri;
  for (std::size_t i = 0; i < 3; ++i)
    for (std::size_t a = 0; a < 3; ++a)
      tri.v[i][static_cast<Eigen::Index>(a)] = getF32(bytes, record + 12 * (i + 1) + 4 * a);
  return tri;
}

// "triangle t (bytes b to b + 49)": where a binary record is.
std::string binaryRecord(std::size_t t) {
  const std::size_t record = kHeaderBytes + kRecordBytes * t;
  return "triangle " + std::to_string(t) + " (bytes " + std::to_string(record) + " to " +
         std::to_string(record + kRecordBytes - 1) + ")";
}

// A binary file: the records one after the other after the header; each triangle checked.
TriangleMesh parseBinary(const std::string& path, const std::string& bytes) {
  const std::uint32_t count = getU32(bytes, 80);
  if (count == 0) fail(path, "binary STL without triangles (the header's count is 0)");
  TriangleMesh mesh(count);
  for (std::size_t t = 0; t < count; ++t) {
    mesh[t] = binaryTriangle(bytes, t);
    const std::string problem = triangleProblem(mesh[t]);
    if (!problem.empty()) fail(path, "binary STL, " + binaryRecord(t) + ": " + problem);
  }
  return mesh;
}

// The words of an ASCII file, with the line each is on and the triangle being read, for messages.
class AsciiReader {
 public:
  AsciiReader(const std::string& path, const std::string& text) : path_(path), text_(text) {}

  // The next blank-separated word ("" at the end of the file).
  std::string_view next() {
    while (pos_ < text_.size() && std::isspace(static_cast<unsigned char>(text_[pos_]))) {
      if (text_[pos_] == '\n') ++line_;
      ++pos_;
    }
    const std::size_t start = pos_;
    while (pos_ < text_.size() && !std::isspace(static_cast<unsigned char>(text_[pos_]))) ++pos_;
    if (pos_ > start) tokenLine_ = line_;  // at the end of the file: the last word's line
    return text_.substr(start, pos_ - start);
  }

  // Skips the rest of the current line (a solid's name).
  void skipLine() {
    while (pos_ < text_.size() && text_[pos_] != '\n') ++pos_;
  }

  // The next words must be `words` (any case); `expected` describes them in the message.
  void expect(std::initializer_list<std::string_view> words, const std::string& expected) {
    for (std::string_view w : words) {
      const std::string_view token = next();
      if (!sameWord(token, w)) unexpected(token, expected);
    }
  }

  // The next word as a number; `expected` describes the phrase it belongs to.
  double readNumber(const std::string& expected) {
    const std::string_view token = next();
    std::string_view digits = token;
    if (!digits.empty() && digits[0] == '+') digits.remove_prefix(1);
    double x = 0.0;
    const auto [end, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), x);
    if (digits.empty() || end != digits.data() + digits.size()) unexpected(token, expected);
    if (ec == std::errc::result_out_of_range) x = std::strtod(std::string(digits).c_str(), nullptr);
    else if (ec != std::errc()) unexpected(token, expected);
    return x;
  }

  // A vertex coordinate: a number, finite.
  double coordinate(int vertex) {
    const double x = readNumber("'vertex x y z' (three numbers)");
    if (!std::isfinite(x)) error("vertex " + std::to_string(vertex) + " has the non-finite coordinate " + exactText(x));
    return x;
  }

  // Throws "expected E, found 'token'" (or "found the end of the file").
  [[noreturn]] void unexpected(std::string_view token, const std::string& expected) const {
    std::string found = "the end of the file";
    if (!token.empty()) {
      std::string shown(token.substr(0, 40));
      for (char& c : shown)
        if (!std::isprint(static_cast<unsigned char>(c))) c = '?';
      found = "'" + shown + (token.size() > 40 ? "...'" : "'");
    }
    error("expected " + expected + ", found " + found);
  }

  [[noreturn]] void error(const std::string& what) const { errorAt(tokenLine_, what); }
  [[noreturn]] void errorAt(int line, const std::string& what) const {
    std::string where = "ASCII STL, line " + std::to_string(line);
    if (triangle_ >= 0) where += ", triangle " + std::to_string(triangle_);
    std::string hint;
    if (text_.find('\0') != std::string::npos)
      hint = " (the file holds NUL bytes: if it is a binary STL whose header starts with 'solid', its size " +
             std::to_string(text_.size()) + " bytes does not match its triangle count, which needs " +
             std::to_string(binarySizeForCount(text_)) + ")";
    dem::io::fail(path_, where + ": " + what + hint);
  }

  int line() const { return tokenLine_; }
  void setTriangle(long t) { triangle_ = t; }

 private:
  const std::string& path_;
  std::string_view text_;
  std::size_t pos_ = 0;
  int line_ = 1, tokenLine_ = 1;
  long triangle_ = -1;
};

// One facet after its word "facet": `normal nx ny nz`, `outer loop`, three vertices, `endloop`,
// `endfacet`. The normal is read and ignored.
Triangle parseFacet(AsciiReader& in) {
  in.expect({"normal"}, "'facet normal nx ny nz'");
  for (int a = 0; a < 3; ++a) in.readNumber("'facet normal nx ny nz' (three numbers)");
  in.expect({"outer", "loop"}, "'outer loop'");
  Triangle t;
  for (int i = 0; i < 3; ++i) {
    in.expect({"vertex"}, "'vertex x y z' (a facet has three vertices)");
    for (Eigen::Index a = 0; a < 3; ++a) t.v[static_cast<std::size_t>(i)][a] = in.coordinate(i);
  }
  in.expect({"endloop"}, "'endloop' (a facet has three vertices)");
  in.expect({"endfacet"}, "'endfacet'");
  return t;
}

// An ASCII file: one or more solids `solid name` ... `endsolid name`, each a list of facets.
TriangleMesh parseAscii(const std::string& path, const std::string& text) {
  AsciiReader in(path, text);
  TriangleMesh mesh;
  in.expect({"solid"}, "'solid'");
  in.skipLine();
  for (;;) {
    const std::string_view token = in.next();
    if (sameWord(token, "facet")) {
      const int line = in.line();
      in.setTriangle(static_cast<long>(mesh.size()));
      mesh.push_back(parseFacet(in));
      const std::string problem = triangleProblem(mesh.back());
      if (!problem.empty()) in.errorAt(line, problem);
      in.setTriangle(-1);
    } else if (sameWord(token, "endsolid")) {
      in.skipLine();
      const std::string_view after = in.next();
      if (after.empty()) break;
      if (!sameWord(after, "solid")) in.unexpected(after, "'solid' or the end of the file after 'endsolid'");
      in.skipLine();
    } else {
      in.unexpected(token, "'facet normal' or 'endsolid'");
    }
  }
  if (mesh.empty()) fail(path, "ASCII STL without triangles (expected at least one 'facet normal')");
  return mesh;
}

// The message readStl gives for a file that is neither binary (size) nor ASCII ("solid").
[[noreturn]] void failUnknown(const std::string& path, const std::string& bytes) {
  if (bytes.size() < kHeaderBytes)
    fail(path, "not an STL file: " + std::to_string(bytes.size()) +
                   " bytes, shorter than a binary STL's 84-byte header, and it does not start with 'solid' (ASCII)");
  const std::uint64_t need = binarySizeForCount(bytes);
  fail(path, std::string(bytes.size() < need ? "truncated binary STL" : "binary STL with bytes left over") +
                 ": the header's count of " + std::to_string(getU32(bytes, 80)) +
                 " triangles needs 84 + 50 * count = " + std::to_string(need) + " bytes, the file has " +
                 std::to_string(bytes.size()) + " (and it does not start with 'solid', so it is not ASCII)");
}

[[noreturn]] void refuseTriangle(const std::string& path, std::size_t t, const std::string& what) {
  throw std::invalid_argument("writeStl: " + path + ": triangle " + std::to_string(t) + ": " + what);
}

// Refuses (std::invalid_argument naming the triangle) a mesh readStl would refuse, and in binary a
// count beyond uint32 or a coordinate beyond the float range.
void checkForWriting(const std::string& path, const TriangleMesh& mesh, bool binary) {
  if (mesh.empty()) throw std::invalid_argument("writeStl: " + path + ": the mesh has no triangles");
  if (binary && mesh.size() > std::numeric_limits<std::uint32_t>::max())
    throw std::invalid_argument("writeStl: " + path + ": " + std::to_string(mesh.size()) +
                                " triangles, more than a binary STL's uint32 count holds");
  for (std::size_t t = 0; t < mesh.size(); ++t) {
    const std::string problem = triangleProblem(mesh[t]);
    if (!problem.empty()) refuseTriangle(path, t, problem);
    if (binary)
      for (const Vec3& p : mesh[t].v)
        for (Eigen::Index a = 0; a < 3; ++a)
          if (std::abs(p[a]) > static_cast<double>(std::numeric_limits<float>::max()))
            refuseTriangle(path, t,
                           "the coordinate " + exactText(p[a]) + " is beyond the range of a float (binary STL)");
  }
}

std::string asciiBytes(const TriangleMesh& mesh) {
  std::string out = "solid dem\n";
  for (const Triangle& t : mesh) {
    const Vec3 n = t.areaNormal().normalized();
    out += "  facet normal " + exactText(n[0]) + " " + exactText(n[1]) + " " + exactText(n[2]) + "\n    outer loop\n";
    for (const Vec3& p : t.v)
      out += "      vertex " + exactText(p[0]) + " " + exactText(p[1]) + " " + exactText(p[2]) + "\n";
    out += "    endloop\n  endfacet\n";
  }
  out += "endsolid dem\n";
  return out;
}

// The normals are those of the doubles' vertex order (readStl ignores them).
std::string binaryBytes(const TriangleMesh& mesh) {
  std::string out = "binary STL written by dem (not ASCII: the header does not start with the word solid)";
  out.resize(80, ' ');
  out.reserve(kHeaderBytes + kRecordBytes * mesh.size());
  putU32(out, static_cast<std::uint32_t>(mesh.size()));
  for (const Triangle& t : mesh) {
    const Vec3 n = t.areaNormal().normalized();
    for (Eigen::Index a = 0; a < 3; ++a) putF32(out, static_cast<float>(n[a]));
    for (const Vec3& p : t.v)
      for (Eigen::Index a = 0; a < 3; ++a) putF32(out, static_cast<float>(p[a]));
    out += std::string(2, '\0');  // attribute byte count
  }
  return out;
}

}  // namespace

TriangleMesh readStl(const std::string& path, std::size_t maxBytes) {
  const std::string bytes = readBytes(path, maxBytes);
  if (bytes.empty()) fail(path, "empty file (expected an ASCII or a binary STL)");
  if (bytes.size() >= kHeaderBytes && bytes.size() == binarySizeForCount(bytes)) return parseBinary(path, bytes);
  if (startsWithSolid(bytes)) return parseAscii(path, bytes);
  failUnknown(path, bytes);
}

// In binary, the triangles are checked once more as readStl will decode them from the bytes (a
// triangle may degenerate when rounded to floats). Decoding the bytes rather than rounding in place
// also avoids GCC 12's vectorised loops, which drop a double -> float -> double round trip.
void writeStl(const std::string& path, const TriangleMesh& mesh, bool binary) {
  checkForWriting(path, mesh, binary);
  if (!binary) {
    writeFileAtomically(path, asciiBytes(mesh));
    return;
  }
  const std::string bytes = binaryBytes(mesh);
  for (std::size_t t = 0; t < mesh.size(); ++t) {
    const std::string problem = triangleProblem(binaryTriangle(bytes, t));
    if (!problem.empty()) refuseTriangle(path, t, "after rounding to floats (binary STL): " + problem);
  }
  writeFileAtomically(path, bytes);
}

}  // namespace dem::io
