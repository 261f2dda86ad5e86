#include "vtk_output.hpp"

#include "atomic_file.hpp"
#include "contacts_output.hpp"
#include "output_files.hpp"
#include "solver/angular_momentum.hpp"
#include "solver/contact_geometry.hpp"
#include "solver/periodic_collider.hpp"
#include "vtu_binary.hpp"
#include "vtu_reader.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <limits>
#include <numeric>
#include <optional>
#include <sstream>
#include <string_view>

namespace dem::io {

namespace {

constexpr int kVtkVertex = 1, kVtkLine = 3, kVtkTriangle = 5, kVtkHexahedron = 12;

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

// Quaternions as 4 components w, x, y, z.
template <class F>
void quatArray(std::string& s, std::string_view name, const std::vector<std::size_t>& ids, F&& get) {
  openArray(s, "Float64", name, 4);
  for (const std::size_t i : ids) {
    const Quat q = get(i);
    for (const double c : {q.w(), q.x(), q.y(), q.z()}) appendNum(s, c);
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
  std::vector<std::size_t> ids;  // the spheres' slots in the order of their user ids
  for (std::size_t u = 0; u < p.size(); ++u)
    if (const std::size_t i = p.slotOf[u]; p.shape[i] == Shape::Sphere && !p.isClump[i]) ids.push_back(i);
  std::vector<Vec3> pts;
  pts.reserve(ids.size());
  for (const std::size_t i : ids) pts.push_back(p.pos[i]);
  std::string s;
  s.reserve(ids.size() * 400 + 2000);
  gridStart(s, ids.size(), ids.size(), 1, kVtkVertex, pts);
  s += "      <PointData Scalars=\"radius\" Vectors=\"velocity\">\n";
  scalarArray(s, "Int64", "id", ids, [&](std::size_t i) { return p.userId[i]; });
  scalarArray(s, "Float64", "radius", ids, [&](std::size_t i) { return p.radius[i]; });
  scalarArray(s, "Int64", "material", ids, [&](std::size_t i) { return p.material[i]; });
  vecArray(s, "velocity", ids, [&](std::size_t i) { return p.vel[i]; });
  vecArray(s, "angularVelocity", ids, [&](std::size_t i) { return p.angVel[i]; });
  vecArray(s, "force", ids, [&](std::size_t i) { return p.force[i]; });
  vecArray(s, "torque", ids, [&](std::size_t i) { return p.torque[i]; });
  quatArray(s, "orientation", ids, [&](std::size_t i) { return p.ori[i]; });
  vecArray(s, "angularMomentum", ids, [&](std::size_t i) { return angularMomentum(p, i); });
  // the rigid body a point belongs to: its clump for a member, itself otherwise
  const auto body = [&](std::size_t i) { return p.isClumpMember(i) ? static_cast<std::size_t>(p.clump[i]) : i; };
  quatArray(s, "bodyOrientation", ids, [&](std::size_t i) { return p.ori[body(i)]; });
  vecArray(s, "bodyAngularMomentum", ids, [&](std::size_t i) { return angularMomentum(p, body(i)); });
  openArray(s, "Int64", "clump", 1);  // the clump body's id (its slot: clump bodies stay), -1 for a body in no clump
  for (const std::size_t i : ids) s += std::to_string(p.clump[i]) + ' ';
  closeArray(s);
  s += "      </PointData>\n";
  gridEnd(s);
  return s;
}

std::string contactsVtu(const Scene& scene) {
  const Particles& p = scene.particles;
  std::vector<Contact> items;  // the real contacts in the order of their bodies' user ids
  for (const std::size_t k : realContactsByUserIds(p, scene.contacts)) items.push_back(scene.contacts.get(k));
  std::vector<std::size_t> ids(items.size());
  std::iota(ids.begin(), ids.end(), std::size_t{0});
  std::vector<Vec3> pts;
  pts.reserve(2 * ids.size());
  for (const std::size_t k : ids) {
    const Contact& c = items[k];
    pts.push_back(p.pos[c.id1]);
    // periodic: to the image of particle 2 that the contact sees, x2 + H cellDist
    // (a wall: the contact point; a facet: the triangle's closest point)
    pts.push_back(c.type == ContactType::SphereWall
                      ? c.point
                      : secondPoint(p, c.type, c.id1, c.id2, c.cellDist, scene.cell ? &scene.cell->H() : nullptr));
  }
  std::string s;
  s.reserve(ids.size() * 400 + 2000);
  gridStart(s, pts.size(), ids.size(), 2, kVtkLine, pts);
  s += "      <CellData Scalars=\"normalForce\" Vectors=\"force\">\n";
  scalarArray(s, "Int64", "id1", ids, [&](std::size_t k) { return p.userId[items[k].id1]; });
  scalarArray(s, "Int64", "id2", ids, [&](std::size_t k) { return p.userId[items[k].id2]; });
  scalarArray(s, "Float64", "normalForce", ids,
              [&](std::size_t k) { return std::abs(items[k].force.dot(items[k].normal)); });
  vecArray(s, "force", ids, [&](std::size_t k) { return items[k].force; });
  scalarArray(s, "Float64", "overlap", ids, [&](std::size_t k) { return -items[k].u[0]; });
  s += "      </CellData>\n";
  gridEnd(s);
  return s;
}

// The force on each boundary body (wall or facet): the reaction -F of its real contacts, summed in
// the order of the spheres' user ids.
std::vector<Vec3> boundaryForces(const Scene& scene) {
  std::vector<Vec3> f(scene.particles.size(), Vec3::Zero());
  const ContactStore& cs = scene.contacts;
  for (const std::size_t k : realContactsByUserIds(scene.particles, cs))
    if (cs.type(k) != ContactType::SphereSphere) f[cs.id2(k)] -= cs.vec(col::fx, k);
  return f;
}

// Two triangles of the infinite wall i: the square centred on the projection of `centre`, of side
// 2 half, in the wall's plane; in a cell (H), in the plane of its image nearest to `centre` (shifted
// by k_m h_m along its cell axis m, periodic_collider.hpp).
void wallPatch(const Particles& p, std::size_t i, const Vec3& centre, double half, const Mat3* H,
               std::vector<Vec3>& pts) {
  const Vec3 n = p.walls[p.shapeIndex[i]].normal;
  Vec3 x = p.pos[i];
  if (const int m = H ? wallCellAxis(n, *H) : -1; m >= 0)
    x += std::round((centre - x).dot(n) / n.dot(H->col(m))) * H->col(m);  // k_m = round(distance / period)
  const Vec3 c = centre - (centre - x).dot(n) * n;
  const Vec3 u = n.unitOrthogonal(), v = n.cross(u);
  const Vec3 q[4] = {c + half * (-u - v), c + half * (u - v), c + half * (u + v), c + half * (-u + v)};
  for (const int k : {0, 1, 2, 0, 2, 3}) pts.push_back(q[k]);
}

std::string boundariesVtu(const Scene& scene) {
  const Particles& p = scene.particles;
  // walls drawn over the spheres' extent (and the facets'), twice its size
  Vec3 lo = Vec3::Constant(std::numeric_limits<double>::infinity()), hi = -lo;
  for (std::size_t i = 0; i < p.size(); ++i)
    if (!p.isWall(i) && !p.isClump[i]) {
      lo = lo.cwiseMin(p.pos[i]);
      hi = hi.cwiseMax(p.pos[i]);
    }
  const bool any = allFinite(lo) && allFinite(hi);
  const Vec3 centre = any ? Vec3(0.5 * (lo + hi)) : Vec3::Zero();
  const double half = any ? std::max((hi - lo).maxCoeff(), 1e-3) : 1.0;
  std::vector<std::size_t> cells;  // the body of each triangle
  std::vector<Vec3> pts;
  for (std::size_t i = 0; i < p.size(); ++i) {
    if (p.isWall(i)) {
      wallPatch(p, i, centre, half, scene.cell ? &scene.cell->H() : nullptr, pts);
      cells.push_back(i);
      cells.push_back(i);
    } else if (p.isFacet(i)) {
      for (const Vec3& v : p.facets[p.shapeIndex[i]].v) pts.push_back(v);
      cells.push_back(i);
    }
  }
  const std::vector<Vec3> force = boundaryForces(scene);
  std::vector<std::size_t> idx(cells.size());
  for (std::size_t c = 0; c < idx.size(); ++c) idx[c] = c;
  std::string s;
  gridStart(s, pts.size(), cells.size(), 3, kVtkTriangle, pts);
  s += "      <CellData Scalars=\"id\" Vectors=\"force\">\n";
  scalarArray(s, "Int64", "id", idx, [&](std::size_t c) { return cells[c]; });
  // the mesh's index, -1 for an infinite wall
  scalarArray(s, "Float64", "mesh", idx, [&](std::size_t c) {
    return p.isFacet(cells[c]) ? static_cast<double>(p.facets[p.shapeIndex[cells[c]]].mesh) : -1.0;
  });
  scalarArray(s, "Int64", "material", idx, [&](std::size_t c) { return p.material[cells[c]]; });
  vecArray(s, "velocity", idx, [&](std::size_t c) { return p.vel[cells[c]]; });
  vecArray(s, "force", idx, [&](std::size_t c) { return p.isWall(cells[c]) ? Vec3(0.5 * force[cells[c]]) : force[cells[c]]; });
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

namespace {
constexpr std::string_view kPvdHead =
    "<?xml version=\"1.0\"?>\n<VTKFile type=\"Collection\" version=\"0.1\" byte_order=\"LittleEndian\">\n"
    "  <Collection>\n";
constexpr std::string_view kPvdTail = "  </Collection>\n</VTKFile>\n";

std::string pvdLine(const PvdEntry& e) {
  std::string s = "    <DataSet timestep=\"";
  append(s, e.time);
  s += "\" group=\"\" part=\"0\" file=\"" + e.file + "\"/>\n";
  return s;
}

// The head and the entries: everything before the tail.
std::string pvdEntries(const std::vector<PvdEntry>& entries) {
  std::string s(kPvdHead);
  for (const PvdEntry& e : entries) s += pvdLine(e);
  return s;
}

// The step of a snapshot file SERIES_NNNNNNNNN.vtu (or its temporary, SERIES_NNN.vtu.tmp).
std::optional<std::uint64_t> snapshotStep(const std::string& file, const std::string& series, bool& temporary) {
  if (file.size() <= series.size() + 1 || file.compare(0, series.size(), series) != 0 || file[series.size()] != '_')
    return std::nullopt;
  std::size_t k = series.size() + 1, digits = 0;
  std::uint64_t step = 0;
  for (; k < file.size() && file[k] >= '0' && file[k] <= '9'; ++k, ++digits) {
    if (step > (~std::uint64_t{0} - 9) / 10) return std::nullopt;
    step = step * 10 + static_cast<std::uint64_t>(file[k] - '0');
  }
  if (digits < 9) return std::nullopt;
  const std::string rest = file.substr(k);
  if (rest != ".vtu" && rest != ".vtu.tmp") return std::nullopt;
  temporary = rest == ".vtu.tmp";
  return step;
}
}  // namespace

std::string pvdCollection(const std::vector<PvdEntry>& entries) { return pvdEntries(entries) + std::string(kPvdTail); }

std::string_view pvdTail() { return kPvdTail; }

void VtkOutput::Series::setText(std::string t) {
  text = std::move(t);
  hash = fnv1a64(text);
}

VtkOutput::VtkOutput(std::string directory, std::string prefix, bool contacts, bool binary, bool compress)
    : dir_(std::move(directory)),
      prefix_(std::move(prefix)),
      contacts_(contacts),
      binary_(binary),
      compress_(compress) {
  for (Series* s : {&particles_, &contactFiles_, &cellFiles_, &boundaryFiles_}) s->setText(std::string(kPvdHead));
  particles_.name = prefix_;
  contactFiles_.name = prefix_ + "_contacts";
  cellFiles_.name = prefix_ + "_cell";
  boundaryFiles_.name = prefix_ + "_walls";
}

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
  const auto keep = [&](Series& s) {
    const std::vector<PvdEntry> entries = earlierEntries(dir_ + "/" + s.pvdName(), scene.time);
    s.setText(pvdEntries(entries));
    // (the kept entries are of steps up to the scene's: a later checkpoint records that bound)
    if (!entries.empty()) s.lastStep = scene.stepCount;
    return entries.empty() ? -1.0 : entries.back().time;
  };
  if (keep(particles_) == scene.time) lastStep_ = scene.stepCount;
  if (contacts_) keep(contactFiles_);
  if (scene.cell) keep(cellFiles_);
  if (hasBoundaries(scene)) keep(boundaryFiles_);
}

bool VtkOutput::restore(const Scene& scene, const OutputState& state, const std::string& checkpoint) {
  bool restored = false;
  for (Series* s : {&particles_, &contactFiles_, &cellFiles_, &boundaryFiles_}) {
    if (s == &contactFiles_ && !contacts_) continue;
    if (s == &cellFiles_ && !scene.cell) continue;
    if (s == &boundaryFiles_ && !hasBoundaries(scene)) continue;
    const OutputRecord* rec = state.find(s->pvdName());
    if (!rec) continue;
    const std::string path = dir_ + "/" + s->pvdName();
    if (rec->kind != OutputRecord::Kind::Collection)
      throw OutputResumeError(path + ": " + checkpoint + " records it as another kind of output; refusing to resume");
    const std::string prefix = verifiedPrefix(path, *rec, checkpoint);
    std::vector<PvdEntry> entries;
    try {
      for (const PvdDataSet& d : parsePvd(prefix + std::string(kPvdTail))) entries.push_back({d.time, d.file});
    } catch (const std::exception& e) {
      throw OutputResumeError(path + ": the entries " + checkpoint + " records are not a collection (" + e.what() +
                              "); refusing to resume");
    }
    if (pvdEntries(entries) != prefix)
      throw OutputResumeError(path + ": the entries " + checkpoint +
                              " records are not a collection this program wrote; refusing to resume");
    s->setText(prefix);
    s->lastStep = rec->hasSnapshot ? std::optional<std::uint64_t>(rec->lastStep) : std::nullopt;
    writeFileAtomically(path, prefix + std::string(kPvdTail));
    removeSnapshotsAfter(*s, s->lastStep);
    if (s == &particles_) {
      restored = true;
      if (s->lastStep) lastStep_ = *s->lastStep;
    }
  }
  return restored;
}

void VtkOutput::removeSnapshotsAfter(const Series& series, std::optional<std::uint64_t> step) const {
  std::error_code ec;
  std::vector<std::filesystem::path> stale;
  for (const auto& e : std::filesystem::directory_iterator(dir_, ec)) {
    bool temporary = false;
    const std::optional<std::uint64_t> k = snapshotStep(e.path().filename().string(), series.name, temporary);
    if (k && (temporary || !step || *k > *step)) stale.push_back(e.path());
  }
  if (ec) throw std::runtime_error(dir_ + ": cannot list the directory: " + ec.message());
  for (const auto& p : stale)
    if (!std::filesystem::remove(p, ec) && ec)
      throw std::runtime_error(p.string() + ": cannot remove a stale snapshot: " + ec.message());
}

void VtkOutput::removeTemporaries() const {
  for (const Series* s : {&particles_, &contactFiles_, &cellFiles_, &boundaryFiles_}) {
    std::error_code ec;
    const std::string tmp = dir_ + "/" + s->pvdName() + ".tmp";
    if (!std::filesystem::remove(tmp, ec) && ec)
      throw std::runtime_error(tmp + ": cannot remove a leftover temporary file: " + ec.message());
    std::vector<std::filesystem::path> stale;
    for (const auto& e : std::filesystem::directory_iterator(dir_, ec)) {
      bool temporary = false;
      if (snapshotStep(e.path().filename().string(), s->name, temporary) && temporary) stale.push_back(e.path());
    }
    if (ec) throw std::runtime_error(dir_ + ": cannot list the directory: " + ec.message());
    for (const auto& p : stale)
      if (!std::filesystem::remove(p, ec) && ec)
        throw std::runtime_error(p.string() + ": cannot remove a leftover temporary file: " + ec.message());
  }
}

void VtkOutput::records(std::vector<OutputRecord>& out) const {
  for (const Series* s : {&particles_, &contactFiles_, &cellFiles_, &boundaryFiles_}) {
    if (s == &contactFiles_ && !contacts_) continue;
    if ((s == &cellFiles_ || s == &boundaryFiles_) && !s->lastStep) continue;
    OutputRecord r;
    r.kind = OutputRecord::Kind::Collection;
    r.file = s->pvdName();
    r.offset = s->text.size();
    r.checksum = s->hash;
    r.hasSnapshot = s->lastStep.has_value();
    r.lastStep = s->lastStep.value_or(0);
    out.push_back(std::move(r));
  }
}

void VtkOutput::add(Series& series, const Scene& scene, const std::string& vtu) {
  const std::string file = stepName(series.name, scene.stepCount);
  writeFileAtomically(dir_ + "/" + file, binary_ ? appendedBinaryVtu(vtu, compress_) : vtu);
  const std::string line = pvdLine({scene.time, file});
  series.text += line;
  series.hash = fnv1a64(line, series.hash);
  series.lastStep = scene.stepCount;
  writeFileAtomically(dir_ + "/" + series.pvdName(), series.text + std::string(kPvdTail));
}

void VtkOutput::write(const Scene& scene) {
  if (scene.stepCount == lastStep_) return;
  lastStep_ = scene.stepCount;
  add(particles_, scene, particlesVtu(scene));
  if (scene.cell) add(cellFiles_, scene, cellVtu(scene));
  if (hasBoundaries(scene)) add(boundaryFiles_, scene, boundariesVtu(scene));
  if (contacts_) add(contactFiles_, scene, contactsVtu(scene));
}

}  // namespace dem::io
