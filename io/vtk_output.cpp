#include "vtk_output.hpp"

#include "atomic_file.hpp"
#include "vtu_reader.hpp"
#include "solver/contact_geometry.hpp"

#include <cstdio>
#include <fstream>
#include <sstream>
#include <string_view>

namespace dem::io {

namespace {

constexpr int kVtkVertex = 1, kVtkLine = 3, kVtkHexahedron = 12;

// 17 significant digits: the value reads back to the same double.
void append(std::string& s, double v) {
  char buf[40];
  const int k = std::snprintf(buf, sizeof buf, "%.17g", v);
  s.append(buf, static_cast<std::size_t>(k));
}

void appendNum(std::string& s, double v) {
  append(s, v);
  s += ' ';
}

void appendInt(std::string& s, std::uint64_t v) {
  s += std::to_string(v);
  s += ' ';
}

void openArray(std::string& s, std::string_view type, std::string_view name, int components) {
  s += "        <DataArray type=\"";
  s += type;
  s += "\"";
  if (!name.empty()) {
    s += " Name=\"";
    s += name;
    s += "\"";
  }
  s += " NumberOfComponents=\"" + std::to_string(components) + "\" format=\"ascii\">\n";
}

void closeArray(std::string& s) { s += "\n        </DataArray>\n"; }

template <class F>
void vecArray(std::string& s, std::string_view name, const std::vector<std::size_t>& ids, F&& get) {
  openArray(s, "Float64", name, 3);
  for (const std::size_t i : ids) {
    const Vec3 v = get(i);
    appendNum(s, v[0]);
    appendNum(s, v[1]);
    appendNum(s, v[2]);
  }
  closeArray(s);
}

template <class F>
void scalarArray(std::string& s, std::string_view type, std::string_view name, const std::vector<std::size_t>& ids,
                 F&& get) {
  openArray(s, type, name, 1);
  for (const std::size_t i : ids) {
    if (type == "Float64") appendNum(s, static_cast<double>(get(i)));
    else appendInt(s, static_cast<std::uint64_t>(get(i)));
  }
  closeArray(s);
}

// Header, cells (one cell of `cellType` per `perCell` consecutive points) and the opening of the data.
void gridStart(std::string& s, std::size_t nPoints, std::size_t nCells, int perCell, int cellType,
               const std::vector<Vec3>& points) {
  s += "<?xml version=\"1.0\"?>\n<VTKFile type=\"UnstructuredGrid\" version=\"0.1\" byte_order=\"LittleEndian\">\n";
  s += "  <UnstructuredGrid>\n";
  s += "    <Piece NumberOfPoints=\"" + std::to_string(nPoints) + "\" NumberOfCells=\"" + std::to_string(nCells) + "\">\n";
  s += "      <Points>\n";
  openArray(s, "Float64", "Points", 3);
  for (const Vec3& x : points) {
    appendNum(s, x[0]);
    appendNum(s, x[1]);
    appendNum(s, x[2]);
  }
  closeArray(s);
  s += "      </Points>\n      <Cells>\n";
  openArray(s, "Int64", "connectivity", 1);
  for (std::size_t k = 0; k < nPoints; ++k) appendInt(s, k);
  closeArray(s);
  openArray(s, "Int64", "offsets", 1);
  for (std::size_t c = 1; c <= nCells; ++c) appendInt(s, c * static_cast<std::size_t>(perCell));
  closeArray(s);
  openArray(s, "UInt8", "types", 1);
  for (std::size_t c = 0; c < nCells; ++c) appendInt(s, static_cast<std::uint64_t>(cellType));
  closeArray(s);
  s += "      </Cells>\n";
}

void gridEnd(std::string& s) { s += "    </Piece>\n  </UnstructuredGrid>\n</VTKFile>\n"; }

std::string stepName(const std::string& prefix, std::uint64_t step) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "_%09llu.vtu", static_cast<unsigned long long>(step));
  return prefix + buf;
}

}  // namespace

std::string particlesVtu(const Scene& scene) {
  const Particles& p = scene.particles;
  std::vector<std::size_t> ids;
  for (std::size_t i = 0; i < p.size(); ++i)
    if (p.shape[i] == Shape::Sphere && !p.isClump[i]) ids.push_back(i);
  std::vector<Vec3> pts;
  pts.reserve(ids.size());
  for (const std::size_t i : ids) pts.push_back(p.pos[i]);
  std::string s;
  s.reserve(ids.size() * 400 + 2000);
  gridStart(s, ids.size(), ids.size(), 1, kVtkVertex, pts);
  s += "      <PointData Scalars=\"radius\" Vectors=\"velocity\">\n";
  scalarArray(s, "Int64", "id", ids, [](std::size_t i) { return i; });
  scalarArray(s, "Float64", "radius", ids, [&](std::size_t i) { return p.radius[i]; });
  scalarArray(s, "Int64", "material", ids, [&](std::size_t i) { return p.material[i]; });
  vecArray(s, "velocity", ids, [&](std::size_t i) { return p.vel[i]; });
  vecArray(s, "angularVelocity", ids, [&](std::size_t i) { return p.angVel[i]; });
  vecArray(s, "force", ids, [&](std::size_t i) { return p.force[i]; });
  vecArray(s, "torque", ids, [&](std::size_t i) { return p.torque[i]; });
  s += "      </PointData>\n";
  gridEnd(s);
  return s;
}

std::string contactsVtu(const Scene& scene) {
  const Particles& p = scene.particles;
  std::vector<std::size_t> ids;
  std::vector<Contact> items;
  for (const Contact& c : scene.contacts.records()) items.push_back(c);
  for (std::size_t k = 0; k < items.size(); ++k)
    if (items[k].real) ids.push_back(k);
  std::vector<Vec3> pts;
  pts.reserve(2 * ids.size());
  for (const std::size_t k : ids) {
    const Contact& c = items[k];
    pts.push_back(p.pos[c.id1]);
    // periodic: to the image of particle 2 that the contact sees, x2 + H cellDist
    pts.push_back(c.type == ContactType::SphereWall ? c.point
                                                    : secondPosition(p, c.id2, c.cellDist, scene.cell ? &scene.cell->H() : nullptr));
  }
  std::string s;
  s.reserve(ids.size() * 400 + 2000);
  gridStart(s, pts.size(), ids.size(), 2, kVtkLine, pts);
  s += "      <CellData Scalars=\"normalForce\" Vectors=\"force\">\n";
  scalarArray(s, "Int64", "id1", ids, [&](std::size_t k) { return items[k].id1; });
  scalarArray(s, "Int64", "id2", ids, [&](std::size_t k) { return items[k].id2; });
  scalarArray(s, "Float64", "normalForce", ids,
              [&](std::size_t k) { return std::abs(items[k].force.dot(items[k].normal)); });
  vecArray(s, "force", ids, [&](std::size_t k) { return items[k].force; });
  scalarArray(s, "Float64", "overlap", ids, [&](std::size_t k) { return -items[k].u[0]; });
  s += "      </CellData>\n";
  gridEnd(s);
  return s;
}

std::string cellVtu(const Scene& scene) {
  const Mat3& H = scene.cell.value().H();
  const Vec3 a = H.col(0), b = H.col(1), c = H.col(2);
  const std::vector<Vec3> pts = {Vec3::Zero(), a, Vec3(a + b), b, c, Vec3(a + c), Vec3(a + b + c), Vec3(b + c)};
  std::string s;
  gridStart(s, pts.size(), 1, 8, kVtkHexahedron, pts);
  s += "      <CellData Scalars=\"volume\">\n";
  for (const auto& [name, m] : {std::pair{"H", &H}, {"stress", &scene.stress}}) {
    openArray(s, "Float64", name, 9);
    for (int r = 0; r < 3; ++r)
      for (int k = 0; k < 3; ++k) appendNum(s, (*m)(r, k));
    closeArray(s);
  }
  openArray(s, "Float64", "volume", 1);
  appendNum(s, scene.cell->volume());
  closeArray(s);
  s += "      </CellData>\n";
  gridEnd(s);
  return s;
}

std::string pvdCollection(const std::vector<PvdEntry>& entries) {
  std::string s = "<?xml version=\"1.0\"?>\n<VTKFile type=\"Collection\" version=\"0.1\" byte_order=\"LittleEndian\">\n"
                  "  <Collection>\n";
  for (const PvdEntry& e : entries) {
    s += "    <DataSet timestep=\"";
    append(s, e.time);
    s += "\" group=\"\" part=\"0\" file=\"" + e.file + "\"/>\n";
  }
  s += "  </Collection>\n</VTKFile>\n";
  return s;
}

VtkOutput::VtkOutput(std::string directory, std::string prefix, bool contacts)
    : dir_(std::move(directory)), prefix_(std::move(prefix)), contacts_(contacts) {}

namespace {
std::vector<PvdEntry> earlierEntries(const std::string& path, double time) {
  std::ifstream in(path);
  if (!in) return {};
  std::ostringstream text;
  text << in.rdbuf();
  std::vector<PvdEntry> kept;
  try {
    for (const PvdDataSet& d : parsePvd(text.str()))
      if (d.time <= time) kept.push_back({d.time, d.file});
  } catch (const std::exception&) {
    return {};  // an unreadable collection is started afresh
  }
  return kept;
}
}  // namespace

void VtkOutput::resume(const Scene& scene) {
  particles_ = earlierEntries(dir_ + "/" + prefix_ + ".pvd", scene.time);
  if (contacts_) contactFiles_ = earlierEntries(dir_ + "/" + prefix_ + "_contacts.pvd", scene.time);
  if (scene.cell) cellFiles_ = earlierEntries(dir_ + "/" + prefix_ + "_cell.pvd", scene.time);
  if (!particles_.empty() && particles_.back().time == scene.time) lastStep_ = scene.stepCount;
}

void VtkOutput::write(const Scene& scene) {
  if (scene.stepCount == lastStep_) return;
  lastStep_ = scene.stepCount;
  const std::string pf = stepName(prefix_, scene.stepCount);
  writeFileAtomically(dir_ + "/" + pf, particlesVtu(scene));
  particles_.push_back({scene.time, pf});
  writeFileAtomically(dir_ + "/" + prefix_ + ".pvd", pvdCollection(particles_));
  if (scene.cell) {
    const std::string cf = stepName(prefix_ + "_cell", scene.stepCount);
    writeFileAtomically(dir_ + "/" + cf, cellVtu(scene));
    cellFiles_.push_back({scene.time, cf});
    writeFileAtomically(dir_ + "/" + prefix_ + "_cell.pvd", pvdCollection(cellFiles_));
  }
  if (!contacts_) return;
  const std::string cf = stepName(prefix_ + "_contacts", scene.stepCount);
  writeFileAtomically(dir_ + "/" + cf, contactsVtu(scene));
  contactFiles_.push_back({scene.time, cf});
  writeFileAtomically(dir_ + "/" + prefix_ + "_contacts.pvd", pvdCollection(contactFiles_));
}

}  // namespace dem::io
