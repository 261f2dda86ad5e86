#include "vtu_reader.hpp"

#include <cctype>
#include <cstdlib>
#include <memory>
#include <sstream>
#include <stdexcept>

namespace dem::io {

namespace {

struct Element {
  std::string name, text;
  std::map<std::string, std::string> attrs;
  std::vector<std::unique_ptr<Element>> children;

  const Element* child(const std::string& n) const {
    for (const auto& c : children)
      if (c->name == n) return c.get();
    return nullptr;
  }
  const Element& need(const std::string& n) const {
    const Element* c = child(n);
    if (!c) throw std::runtime_error("vtk: <" + name + "> has no <" + n + ">");
    return *c;
  }
  const std::string& attr(const std::string& a) const {
    const auto it = attrs.find(a);
    if (it == attrs.end()) throw std::runtime_error("vtk: <" + name + "> has no attribute " + a);
    return it->second;
  }
};

class XmlParser {
 public:
  explicit XmlParser(const std::string& s) : s_(s) {}

  std::unique_ptr<Element> document() {
    skipSpace();
    if (s_.compare(i_, 5, "<?xml") == 0) {
      const auto e = s_.find("?>", i_);
      if (e == std::string::npos) fail("unterminated XML declaration");
      i_ = e + 2;
    }
    skipSpace();
    auto root = element();
    skipSpace();
    if (i_ != s_.size()) fail("content after the root element");
    return root;
  }

 private:
  const std::string& s_;
  std::size_t i_ = 0;

  [[noreturn]] void fail(const std::string& what) const {
    throw std::runtime_error("vtk: XML error at byte " + std::to_string(i_) + ": " + what);
  }
  void skipSpace() {
    while (i_ < s_.size() && std::isspace(static_cast<unsigned char>(s_[i_]))) ++i_;
  }
  std::string name() {
    const std::size_t b = i_;
    while (i_ < s_.size() && (std::isalnum(static_cast<unsigned char>(s_[i_])) || s_[i_] == '_' || s_[i_] == ':')) ++i_;
    if (b == i_) fail("expected a name");
    return s_.substr(b, i_ - b);
  }
  std::unique_ptr<Element> element() {
    if (i_ >= s_.size() || s_[i_] != '<') fail("expected '<'");
    ++i_;
    auto e = std::make_unique<Element>();
    e->name = name();
    for (;;) {
      skipSpace();
      if (i_ >= s_.size()) fail("unterminated tag <" + e->name + ">");
      if (s_.compare(i_, 2, "/>") == 0) {
        i_ += 2;
        return e;
      }
      if (s_[i_] == '>') {
        ++i_;
        break;
      }
      const std::string a = name();
      skipSpace();
      if (i_ >= s_.size() || s_[i_] != '=') fail("expected '=' after attribute " + a);
      ++i_;
      skipSpace();
      if (i_ >= s_.size() || s_[i_] != '"') fail("expected '\"'");
      const auto end = s_.find('"', i_ + 1);
      if (end == std::string::npos) fail("unterminated attribute value");
      if (!e->attrs.emplace(a, s_.substr(i_ + 1, end - i_ - 1)).second) fail("repeated attribute " + a);
      i_ = end + 1;
    }
    for (;;) {
      const auto lt = s_.find('<', i_);
      if (lt == std::string::npos) fail("missing </" + e->name + ">");
      e->text += s_.substr(i_, lt - i_);
      i_ = lt;
      if (s_.compare(i_, 2, "</") == 0) {
        i_ += 2;
        if (name() != e->name) fail("mismatched end tag for <" + e->name + ">");
        skipSpace();
        if (i_ >= s_.size() || s_[i_] != '>') fail("expected '>'");
        ++i_;
        return e;
      }
      e->children.push_back(element());
    }
  }
};

VtuArray dataArray(const Element& e) {
  if (e.name != "DataArray") throw std::runtime_error("vtk: expected <DataArray>, got <" + e.name + ">");
  VtuArray a;
  a.type = e.attr("type");
  if (e.attr("format") != "ascii") throw std::runtime_error("vtk: only ascii DataArrays are read");
  if (e.attrs.count("NumberOfComponents")) a.components = std::stoi(e.attr("NumberOfComponents"));
  if (a.components < 1) throw std::runtime_error("vtk: NumberOfComponents < 1");
  const char* p = e.text.c_str();
  for (;;) {
    while (*p && std::isspace(static_cast<unsigned char>(*p))) ++p;
    if (!*p) break;
    char* end = nullptr;
    const double v = std::strtod(p, &end);
    if (end == p) throw std::runtime_error("vtk: DataArray has a non-numeric value");
    a.values.push_back(v);
    p = end;
  }
  if (a.values.size() % static_cast<std::size_t>(a.components) != 0)
    throw std::runtime_error("vtk: DataArray length is not a multiple of NumberOfComponents");
  return a;
}

std::size_t count(const std::string& s) {
  std::size_t pos = 0;
  const unsigned long long v = std::stoull(s, &pos);
  if (pos != s.size()) throw std::runtime_error("vtk: bad count " + s);
  return static_cast<std::size_t>(v);
}

void readData(const Element* block, std::size_t tuples, std::map<std::string, VtuArray>& out, const char* what) {
  if (!block) return;
  for (const auto& c : block->children) {
    VtuArray a = dataArray(*c);
    if (a.values.size() != tuples * static_cast<std::size_t>(a.components))
      throw std::runtime_error(std::string("vtk: ") + what + " array " + c->attr("Name") + " has the wrong length");
    if (!out.emplace(c->attr("Name"), std::move(a)).second)
      throw std::runtime_error(std::string("vtk: repeated ") + what + " array " + c->attr("Name"));
  }
}

}  // namespace

VtuGrid parseVtu(const std::string& text) {
  const auto root = XmlParser(text).document();
  if (root->name != "VTKFile" || root->attr("type") != "UnstructuredGrid")
    throw std::runtime_error("vtk: not a VTKFile of type UnstructuredGrid");
  const Element& grid = root->need("UnstructuredGrid");
  if (grid.children.size() != 1) throw std::runtime_error("vtk: expected exactly one Piece");
  const Element& piece = grid.need("Piece");
  VtuGrid g;
  g.nPoints = count(piece.attr("NumberOfPoints"));
  g.nCells = count(piece.attr("NumberOfCells"));
  const Element& pts = piece.need("Points");
  if (pts.children.size() != 1) throw std::runtime_error("vtk: <Points> needs one DataArray");
  const VtuArray p = dataArray(*pts.children[0]);
  if (p.components != 3 || p.values.size() != 3 * g.nPoints) throw std::runtime_error("vtk: Points length mismatch");
  g.points = p.values;
  const Element& cells = piece.need("Cells");
  for (const auto& c : cells.children) {
    const VtuArray a = dataArray(*c);
    const std::string& n = c->attr("Name");
    if (n == "connectivity") g.connectivity = a.values;
    else if (n == "offsets") g.offsets = a.values;
    else if (n == "types") g.types = a.values;
    else throw std::runtime_error("vtk: unknown Cells array " + n);
  }
  if (g.offsets.size() != g.nCells || g.types.size() != g.nCells)
    throw std::runtime_error("vtk: offsets/types length differs from NumberOfCells");
  double prev = 0;
  for (const double o : g.offsets) {
    if (o < prev) throw std::runtime_error("vtk: offsets decrease");
    prev = o;
  }
  if (prev != static_cast<double>(g.connectivity.size()))
    throw std::runtime_error("vtk: last offset differs from the connectivity length");
  for (const double c : g.connectivity)
    if (c < 0 || c >= static_cast<double>(g.nPoints)) throw std::runtime_error("vtk: connectivity out of range");
  readData(piece.child("PointData"), g.nPoints, g.pointData, "PointData");
  readData(piece.child("CellData"), g.nCells, g.cellData, "CellData");
  return g;
}

std::vector<PvdDataSet> parsePvd(const std::string& text) {
  const auto root = XmlParser(text).document();
  if (root->name != "VTKFile" || root->attr("type") != "Collection")
    throw std::runtime_error("pvd: not a VTKFile of type Collection");
  std::vector<PvdDataSet> out;
  for (const auto& d : root->need("Collection").children) {
    if (d->name != "DataSet") throw std::runtime_error("pvd: unexpected <" + d->name + ">");
    out.push_back({std::stod(d->attr("timestep")), d->attr("file")});
  }
  return out;
}

}  // namespace dem::io
