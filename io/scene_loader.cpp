#include "scene_loader.hpp"

#include "clump_report.hpp"
#include "generators.hpp"
#include "scene_document.hpp"
#include "solver/laws.hpp"
#include "solver/mesh_generators.hpp"
#include "solver/mesh_motion.hpp"
#include "stl.hpp"

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <functional>
#include <limits>
#include <numbers>
#include <optional>
#include <sstream>
#include <unordered_map>

namespace dem::io {

namespace {

using nlohmann::json;

constexpr std::uint64_t kMaxSteps = kMaxRunSteps;

// Runs f, turning the solver's std::invalid_argument into a SceneError at `node`'s path.
template <class F>
auto atPath(const JsonNode& node, F&& f) {
  try {
    return f();
  } catch (const std::invalid_argument& e) {
    node.problem(e.what());
  }
}

class Loader {
 public:
  Loader(const LoadOptions& options, LoadedScene& out) : opt_(options), out_(out), s_(out.scene) {}

  void load(const JsonNode& root, const SceneDocument& doc) {
    root.requireObject();
    root.keysOnly({"$schema", "description", "materials", "walls", "meshes", "particles", "generators", "bodies",
                   "clumps", "cell", "engine", "outputs"});
    if (root.has("description")) root["description"].string();
    if (root.has("$schema")) root["$schema"].string();
    if (root.has("cell")) cell(root["cell"]);
    if (root.has("materials")) materials(root["materials"]);
    if (root.has("walls")) forEach(root["walls"], [&](const JsonNode& n) { wall(n); });
    if (root.has("meshes")) forEach(root["meshes"], [&](const JsonNode& n) { mesh(n); });
    if (root.has("particles")) {
      if (!doc.particlesListed) root["particles"].arraySize();  // (not an array: the error)
      listedParticles(root["particles"], doc);
    }
    if (root.has("generators")) forEach(root["generators"], [&](const JsonNode& n) { generator(n); });
    if (root.has("bodies")) forEach(root["bodies"], [&](const JsonNode& n) { body(n); });
    if (root.has("clumps")) forEach(root["clumps"], [&](const JsonNode& n) { clump(n); });
    engine(root["engine"]);
    outputs(root.has("outputs") ? std::optional<JsonNode>(root["outputs"]) : std::nullopt);
    atPath(root, [&] {
      s_.particles.checkFinite();
      return 0;
    });
    if (cell_) startCell(root["cell"]);
  }

 private:
  const LoadOptions& opt_;
  LoadedScene& out_;
  Scene& s_;
  std::unordered_map<std::string, std::uint32_t> materialIds_;
  // The periodic cell ("cell"), set on the scene once every body is known.
  std::optional<Cell> cell_;
  bool startOnAffineField_ = false;
  // The scene-file entry that made each body, in id order: from body `first` on, `node`, or for the
  // listed particles (`list`) the element (id - first) of `node`.
  struct Origin {
    std::size_t first;
    JsonNode node;
    bool list;
  };
  std::vector<Origin> origins_;

  void mark(const JsonNode& n) { origins_.push_back({s_.particles.size(), n, false}); }
  JsonNode origin(std::size_t id) const {
    const auto it = std::upper_bound(origins_.begin(), origins_.end(), id,
                                     [](std::size_t i, const Origin& o) { return i < o.first; });
    const Origin& o = *std::prev(it);
    return o.list ? listed(o.node, id - o.first) : o.node;
  }
  // Element i of the particles list (read into a ListedParticle; its path, for messages).
  static JsonNode listed(const JsonNode& list, std::size_t i) {
    static const json kRead;
    return JsonNode(kRead, list.file(), list.path() + "[" + std::to_string(i) + "]");
  }

  // A 3x3 matrix written as 3 rows of 3 numbers.
  static Mat3 matrix(const JsonNode& n) {
    if (!n.json().is_array() || n.json().size() != 3)
      n.fail("a 3x3 matrix: an array of 3 rows, each an array of 3 numbers");
    Mat3 m;
    for (std::size_t r = 0; r < 3; ++r) m.row(static_cast<Eigen::Index>(r)) = n.at(r).vec3().transpose();
    return m;
  }

  // "cell": H (3 rows; its columns are the side vectors) or size (an axis-aligned box), the
  // velocity gradient L, homoDeform, flip (Cell::flipFlippable), startOnAffineField (default: on
  // when L != 0).
  void cell(const JsonNode& n) {
    n.keysOnly({"H", "size", "velGrad", "homoDeform", "flip", "startOnAffineField"});
    if (n.has("H") == n.has("size"))
      n.problem(
          "expected exactly one of \"H\" (3x3 matrix whose columns are the cell's side vectors) and \"size\" "
          "(side lengths of an axis-aligned box)");
    Mat3 H;
    if (n.has("H")) {
      H = matrix(n["H"]);
    } else {
      const Vec3 size = n["size"].vec3();
      if (!(size.minCoeff() > 0.0)) n["size"].fail("3 side lengths > 0");
      H = size.asDiagonal();
    }
    cell_ = atPath(n.has("H") ? n["H"] : n["size"], [&] { return Cell(H); });
    Mat3 L = Mat3::Zero();
    if (n.has("velGrad")) {
      L = matrix(n["velGrad"]);
      atPath(n["velGrad"], [&] {
        cell_->setVelGrad(L);
        return 0;
      });
    }
    if (n.has("homoDeform")) cell_->homoDeform = n["homoDeform"].boolean();
    if (n.has("flip")) cell_->flipFlippable = n["flip"].boolean();
    startOnAffineField_ = n.has("startOnAffineField") ? n["startOnAffineField"].boolean() : !L.isZero(0.0);
  }

  // The cell joins the scene once the bodies, dt and verletDist are known: every body's box must be
  // narrower than half the cell and every wall parallel to two of its side vectors (the periodic
  // collider's checks, solver/periodic_collider.hpp: periodicBodyProblem), I - L dt/2 invertible;
  // then the optional start on the affine field (Scene::startOnAffineField).
  void startCell(const JsonNode& n) {
    const Particles& p = s_.particles;
    const double dL = sweepLengthFor(p, s_.periodicCollider.verletDist);
    for (std::size_t i = 0; i < p.size(); ++i)
      if (const std::string problem = periodicBodyProblem(p, i, *cell_, dL); !problem.empty())
        origin(i).problem(problem);
    if (s_.dt() > 0.0) {
      Cell trial = *cell_;
      atPath(n.has("velGrad") ? n["velGrad"] : n, [&] {
        trial.advance(s_.dt());
        return 0;
      });
    }
    s_.setCell(*cell_);
    if (!startOnAffineField_) return;
    if (s_.dtSafety() > 0.0) {
      // dt from the estimate: the start uses the estimate of the scene as loaded (no contacts yet:
      // the p-wave value); the first step evaluates it again with the contacts found then.
      const double dt = s_.dtSafety() * s_.criticalTimestep().dt;
      atPath(n, [&] {
        s_.setDt(dt);
        return 0;
      });
    }
    s_.startOnAffineField();
  }

  static void forEach(const JsonNode& arr, const std::function<void(const JsonNode&)>& f) {
    const std::size_t n = arr.arraySize();
    for (std::size_t i = 0; i < n; ++i) f(arr.at(i));
  }

  void room(const JsonNode& n, std::uint64_t more) const {
    if (more > opt_.maxParticles || s_.particles.size() + more > opt_.maxParticles)
      n.problem("the scene would have more than " + std::to_string(opt_.maxParticles) + " bodies");
  }

  void materials(const JsonNode& arr) {
    forEach(arr, [&](const JsonNode& n) {
      n.keysOnly({"name", "density", "young", "poisson", "ksRatio", "frictionAngle", "friction", "restitution"});
      const std::string name = n["name"].string();
      if (name.empty()) n["name"].fail("a non-empty name");
      if (materialIds_.count(name)) n["name"].fail("a name not used by an earlier material");
      Material m;
      m.density = n["density"].positive();
      m.young = n["young"].positive();
      if (n.has("ksRatio")) m.ksRatio = n["ksRatio"].nonNegative();
      if (n.has("poisson")) m.poisson = n["poisson"].inRange(0.0, 0.5, false, "a Poisson ratio in [0, 0.5]");
      if (n.has("restitution"))
        m.restitution =
            n["restitution"].inRange(0.0, 1.0, false, "a coefficient of restitution in [0, 1] (1: no dashpot)");
      if (n.has("frictionAngle") && n.has("friction"))
        n.problem(
            "expected at most one of \"friction\" (the coefficient mu = tan(friction angle)) and "
            "\"frictionAngle\" (radians)");
      if (n.has("frictionAngle"))
        m.frictionAngle = n["frictionAngle"].inRange(0.0, std::numbers::pi / 2, true, "an angle in [0, pi/2) rad");
      if (n.has("friction"))
        m.frictionAngle = std::atan(
            n["friction"].inRange(0.0, 1e6, false, "a friction coefficient mu = tan(friction angle) in [0, 1e6]"));
      atPath(n, [&] {
        validateMaterial(s_.materials.size(), m);
        return 0;
      });
      materialIds_.emplace(name, static_cast<std::uint32_t>(s_.materials.size()));
      s_.materials.push_back(m);
      out_.materialNames.push_back(name);
    });
  }

  std::uint32_t material(const JsonNode& n) const {
    const std::string name = n.string();
    const auto it = materialIds_.find(name);
    if (it == materialIds_.end()) {
      std::string list;
      for (const auto& m : out_.materialNames) list += std::string(list.empty() ? "" : ", ") + "\"" + m + "\"";
      n.fail("the name of a material in \"materials\" (" + (list.empty() ? std::string("none defined") : list) + ")");
    }
    return it->second;
  }

  // Velocity, angular velocity and blocked DOFs shared by particles and bodies.
  static void motion(const JsonNode& n, ParticleSpec& p) {
    if (n.has("vel")) p.vel = n["vel"].vec3();
    if (n.has("angVel")) p.angVel = n["angVel"].vec3();
    if (n.has("blocked")) p.blocked = blockedDofs(n["blocked"]);
    if (n.has("fixed") && n["fixed"].boolean()) p.blocked = dof::all;
  }

  void wall(const JsonNode& n) {
    n.keysOnly({"point", "normal", "material", "vel"});
    room(n, 1);
    mark(n);
    const Vec3 point = n["point"].vec3(), normal = n["normal"].vec3();
    if (!(normal.norm() > 0.0)) n["normal"].fail("a non-zero normal vector");
    const std::uint32_t mat = material(n["material"]);
    const std::size_t id = atPath(n, [&] { return s_.particles.addWall(point, normal, mat); });
    if (n.has("vel")) s_.particles.vel[id] = n["vel"].vec3();  // (its axes are blocked: it moves at vel)
  }

  // A mesh wall: triangles from an STL file or a generator, scaled, rotated and translated, with an
  // optional prescribed motion (solver/mesh_motion.hpp).
  void mesh(const JsonNode& n) {
    n.keysOnly({"name", "material", "stl", "box", "cylinder", "hopper", "scale", "rotate", "translate", "motion"});
    int sources = 0;
    for (const char* k : {"stl", "box", "cylinder", "hopper"}) sources += n.has(k);
    if (sources != 1) n.problem("expected exactly one of \"stl\", \"box\", \"cylinder\", \"hopper\"");
    const std::string name = n.has("name") ? n["name"].string() : std::string();
    const std::uint32_t mat = material(n["material"]);
    TriangleMesh tris = meshTriangles(n);
    const double scale = n.has("scale") ? n["scale"].positive() : 1.0;
    const Quat rot = n.has("rotate") ? n["rotate"].quat() : Quat(Quat::Identity());
    const Vec3 shift = n.has("translate") ? n["translate"].vec3() : Vec3::Zero();
    tris = atPath(n, [&] { return transformMesh(std::move(tris), scale, rot, shift); });
    room(n, tris.size());
    mark(n);
    MeshMotion motion;
    if (n.has("motion")) {
      const JsonNode m = n["motion"];
      m.keysOnly({"centre", "vel", "angVel"});
      if (m.has("centre")) motion.centre = m["centre"].vec3();
      if (m.has("vel")) motion.vel = m["vel"].vec3();
      if (m.has("angVel")) motion.angVel = m["angVel"].vec3();
    }
    atPath(n, [&] { return s_.particles.addMesh(tris, mat, motion, name); });
  }
  TriangleMesh meshTriangles(const JsonNode& n) {
    if (n.has("stl")) {
      const JsonNode f = n["stl"];
      std::string path = f.string();
      if (path.empty()) f.fail("a non-empty file name");
      const std::filesystem::path rel(path);  // relative to the scene file's directory
      if (rel.is_relative()) path = (std::filesystem::path(f.file()).parent_path() / rel).string();
      try {
        return readStl(path, opt_.maxStlBytes);
      } catch (const std::runtime_error& e) {
        f.problem(std::string("cannot use the STL file: ") + e.what());
      }
    }
    if (n.has("box")) {
      const JsonNode b = n["box"];
      b.keysOnly({"lo", "hi", "openTop"});
      const Vec3 lo = b["lo"].vec3(), hi = b["hi"].vec3();
      const bool open = b.has("openTop") && b["openTop"].boolean();
      return atPath(b, [&] { return boxMesh(lo, hi, open); });
    }
    if (n.has("cylinder")) {
      const JsonNode c = n["cylinder"];
      c.keysOnly({"base", "axis", "radius", "height", "segments", "bottomCap", "topCap"});
      const Vec3 base = c["base"].vec3(), axis = c["axis"].vec3();
      const double r = c["radius"].positive(), h = c["height"].positive();
      const auto seg = static_cast<int>(c.has("segments") ? c["segments"].integer(3, 100000) : 32);
      const bool bottom = c.has("bottomCap") && c["bottomCap"].boolean();
      const bool top = c.has("topCap") && c["topCap"].boolean();
      return atPath(c, [&] { return cylinderMesh(base, axis, r, h, seg, bottom, top); });
    }
    const JsonNode c = n["hopper"];
    c.keysOnly({"outlet", "axis", "outletRadius", "topRadius", "height", "segments"});
    const Vec3 outlet = c["outlet"].vec3(), axis = c["axis"].vec3();
    const double ro = c["outletRadius"].positive(), rt = c["topRadius"].positive(), h = c["height"].positive();
    const auto seg = static_cast<int>(c.has("segments") ? c["segments"].integer(3, 100000) : 32);
    return atPath(c, [&] { return coneMesh(outlet, axis, ro, rt, h, seg); });
  }

  // "particles": each element read and checked while the text was parsed (scene_document.hpp).
  void listedParticles(const JsonNode& list, const SceneDocument& doc) {
    if (doc.particles.empty()) return;
    origins_.push_back({s_.particles.size(), list, true});
    std::vector<std::uint32_t> mat(doc.materialNames.size());
    std::vector<bool> known(doc.materialNames.size(), false);
    s_.particles.reserve(s_.particles.size() + std::min<std::size_t>(doc.particles.size(), opt_.maxParticles));
    std::size_t i = 0;
    for (const ListedParticle& e : doc.particles) {
      const JsonNode n = listed(list, i++);
      room(n, 1);
      if (!known[e.materialName]) {  // the first particle naming it
        const json name = doc.materialNames[e.materialName];
        mat[e.materialName] = material(JsonNode(name, n.file(), n.path() + ".material"));
        known[e.materialName] = true;
      }
      ParticleSpec p = sphereSpec(e.pos, e.radius, s_.materials[mat[e.materialName]].density);
      p.material = mat[e.materialName];
      p.vel = e.vel;
      p.angVel = e.angVel;
      p.blocked = e.blocked;
      atPath(n, [&] { return s_.particles.add(p); });
    }
  }

  void addSphere(const JsonNode& n, const Vec3& c, double r, std::uint32_t mat, const Vec3& vel) {
    ParticleSpec p = sphereSpec(c, r, s_.materials[mat].density);
    p.material = mat;
    p.vel = vel;
    atPath(n, [&] { return s_.particles.add(p); });
  }

  void generator(const JsonNode& n) {
    const std::string type = n["type"].oneOf({"lattice", "randomPacking"});
    mark(n);
    if (type == "lattice") lattice(n);
    else packing(n);
  }

  void lattice(const JsonNode& n) {
    n.keysOnly({"type", "origin", "spacing", "count", "radius", "material", "vel"});
    LatticeSpec l;
    l.origin = n["origin"].vec3();
    const JsonNode sp = n["spacing"];
    if (sp.json().is_number()) l.spacing = Vec3::Constant(sp.positive());
    else {
      l.spacing = sp.vec3();
      if (!(l.spacing.minCoeff() > 0.0)) sp.fail("a number > 0 or an array of 3 numbers > 0");
    }
    const JsonNode count = n["count"];
    if (!count.json().is_array() || count.json().size() != 3) count.fail("an array of 3 integers [nx, ny, nz]");
    std::uint64_t total = 1;
    for (std::size_t k = 0; k < 3; ++k) {
      l.count[k] = count.at(k).integer(1, opt_.maxParticles);
      total *= l.count[k];
      if (total > opt_.maxParticles) count.problem("more than " + std::to_string(opt_.maxParticles) + " bodies");
    }
    room(n, total);
    l.radius = n["radius"].positive();
    const std::uint32_t mat = material(n["material"]);
    const Vec3 vel = n.has("vel") ? n["vel"].vec3() : Vec3::Zero();
    for (const Vec3& c : latticeCentres(l)) addSphere(n, c, l.radius, mat, vel);
  }

  void packing(const JsonNode& n) {
    n.keysOnly({"type", "min", "max", "count", "radius", "seed", "material", "maxAttempts", "vel"});
    PackingSpec p;
    p.lo = n["min"].vec3();
    p.hi = n["max"].vec3();
    p.count = n["count"].integer(0, opt_.maxParticles);
    room(n, p.count);
    p.radius = radiusDistribution(n["radius"]);
    if (!allFinite(Vec3(p.hi - p.lo))) n["max"].fail("a box of finite size (max - min overflows)");
    const double rMax = std::isfinite(p.radius.maxRadius()) ? p.radius.maxRadius() : p.radius.minRadius();
    for (int k = 0; k < 3; ++k)
      if (!(p.hi[k] - p.lo[k] > 2.0 * rMax))
        n["max"].fail("a box corner farther than 2 * (largest radius) from \"min\" on every axis");
    if (n.has("seed")) p.seed = n["seed"].integer(0, std::numeric_limits<std::uint64_t>::max());
    if (n.has("maxAttempts")) p.maxAttempts = n["maxAttempts"].integer(1, opt_.maxPackingAttempts);
    const double defaultAttempts = 1000.0 * static_cast<double>(p.count) + 10000.0;
    if (!n.has("maxAttempts") && defaultAttempts > static_cast<double>(opt_.maxPackingAttempts))
      p.maxAttempts = opt_.maxPackingAttempts;
    const std::uint32_t mat = material(n["material"]);
    const Vec3 vel = n.has("vel") ? n["vel"].vec3() : Vec3::Zero();
    std::vector<Sphere> existing;
    for (std::size_t i = 0; i < s_.particles.size(); ++i)
      if (!s_.particles.isBoundary(i)) existing.push_back({s_.particles.pos[i], s_.particles.radius[i]});
    std::vector<Sphere> placed;
    try {
      placed = randomPacking(p, existing);
    } catch (const PackingError& e) {
      n.problem(e.what());
    }
    PackingReport report = packingReport(n.path(), p, placed);
    // The draw is stratified (size_distribution.hpp): the delivered radii are within 1/count of the
    // requested distribution in the Kolmogorov-Smirnov distance.
    if (p.count && !(report.ksDistance <= 1.0 / static_cast<double>(p.count) + 1e-6))
      n.problem("internal error: the delivered radii are " + std::to_string(report.ksDistance) +
                " from the requested distribution in the Kolmogorov-Smirnov distance, more than 1/count");
    out_.packings.push_back(std::move(report));
    for (const Sphere& s : placed) addSphere(n, s.centre, s.radius, mat, vel);
  }

  static SizeBasis basis(const JsonNode& r, SizeBasis byDefault) {
    if (!r.has("by")) return byDefault;
    return r["by"].oneOf({"number", "mass"}) == "mass" ? SizeBasis::Mass : SizeBasis::Number;
  }

  // randomPacking.radius: a number, or {"distribution": "uniform" | "discrete" | "logNormal" |
  // "table", ...} (io/size_distribution.hpp has the formulas).
  SizeDistribution radiusDistribution(const JsonNode& r) const {
    if (r.json().is_number()) return SizeDistribution::constant(r.positive());
    if (!r.json().is_object())
      r.fail(
          "a radius > 0 or an object {\"distribution\": \"uniform\" | \"discrete\" | \"logNormal\" | \"table\", ...}");
    const std::string kind = r["distribution"].oneOf({"uniform", "discrete", "logNormal", "table"});
    if (kind == "uniform") {
      r.keysOnly({"distribution", "min", "max", "by"});
      const double a = r["min"].positive(), b = r["max"].positive();
      if (b < a) r["max"].fail("a number >= radius.min");
      const SizeBasis by = basis(r, SizeBasis::Number);
      return atPath(r, [&] { return SizeDistribution::uniform(a, b, by); });
    }
    if (kind == "discrete") {
      r.keysOnly({"distribution", "radii", "fractions", "by"});
      const JsonNode rs = r["radii"], fs = r["fractions"];
      const std::size_t k = rs.arraySize();
      if (k == 0) rs.fail("a non-empty array of radii > 0");
      if (fs.arraySize() != k) fs.fail("an array of " + std::to_string(k) + " fractions (one per radius)");
      std::vector<double> radii, fractions;
      double sum = 0.0;
      for (std::size_t i = 0; i < k; ++i) {
        radii.push_back(rs.at(i).positive());
        for (std::size_t j = 0; j < i; ++j)
          if (radii[j] == radii[i]) rs.at(i).fail("a radius different from the earlier ones");
        fractions.push_back(fs.at(i).inRange(0.0, 1.0, false, "a fraction in [0, 1]"));
        sum += fractions.back();
      }
      if (!(std::abs(sum - 1.0) <= 1e-6))
        fs.problem("expected fractions summing to 1 (within 1e-6), got a sum of " + std::to_string(sum));
      const SizeBasis by = basis(r, SizeBasis::Number);
      return atPath(r, [&] { return SizeDistribution::discrete(radii, fractions, by); });
    }
    if (kind == "logNormal") {
      r.keysOnly({"distribution", "median", "sigma", "min", "max", "by"});
      const double median = r["median"].positive();
      const double sigma = r["sigma"].inRange(0.0, 3.0, false, "a standard deviation of ln(radius) in (0, 3]");
      if (!(sigma > 0.0)) r["sigma"].fail("a standard deviation of ln(radius) in (0, 3]");
      const double lo = r.has("min") ? r["min"].nonNegative() : 0.0;
      const double hi = r.has("max") ? r["max"].positive() : std::numeric_limits<double>::infinity();
      if (!(hi > lo)) r["max"].fail("a number > radius.min");
      const SizeBasis by = basis(r, SizeBasis::Number);
      return atPath(r, [&] { return SizeDistribution::logNormal(median, sigma, lo, hi, by); });
    }
    r.keysOnly({"distribution", "file", "size", "by"});
    const JsonNode f = r["file"];
    std::string path = f.string();
    if (path.empty()) f.fail("a non-empty file name");
    const bool diameter = !r.has("size") || r["size"].oneOf({"diameter", "radius"}) == "diameter";
    const SizeBasis by = basis(r, SizeBasis::Mass);
    // Relative to the scene file's directory.
    const std::filesystem::path rel(path);
    if (rel.is_relative()) path = (std::filesystem::path(f.file()).parent_path() / rel).string();
    SizeTable t;
    try {
      t = readSizeTable(path, opt_.maxSizeTableBytes);
    } catch (const std::runtime_error& e) {
      f.problem(std::string("cannot use the size distribution table ") + e.what());
    }
    const auto bad = [&](std::size_t i, const std::string& what) {
      f.problem("size distribution table " + path + ": line " + std::to_string(t.line[i]) + ": expected " + what);
    };
    if (t.size.size() < 2)
      f.problem("size distribution table " + path + ": expected at least 2 rows \"size, cumulative fraction\", found " +
                std::to_string(t.size.size()));
    std::vector<double> radii;
    for (std::size_t i = 0; i < t.size.size(); ++i) {
      if (!(t.size[i] > 0.0)) bad(i, std::string("a ") + (diameter ? "diameter" : "radius") + " > 0");
      if (i && !(t.size[i] > t.size[i - 1])) bad(i, "sizes increasing from row to row");
      if (!(t.cumulative[i] >= 0.0 && t.cumulative[i] <= 1.0)) bad(i, "a cumulative fraction in [0, 1] (not percent)");
      if (i && !(t.cumulative[i] >= t.cumulative[i - 1])) bad(i, "cumulative fractions non-decreasing from row to row");
      radii.push_back(diameter ? 0.5 * t.size[i] : t.size[i]);
    }
    if (t.cumulative.front() != 0.0) bad(0, "a cumulative fraction of 0 in the first row (no smaller spheres)");
    if (t.cumulative.back() != 1.0) bad(t.size.size() - 1, "a cumulative fraction of 1 in the last row");
    return atPath(f, [&] { return SizeDistribution::table(radii, t.cumulative, by); });
  }

  void body(const JsonNode& n) {
    n.keysOnly({"pos", "ori", "mass", "inertia", "radius", "material", "vel", "angVel", "blocked", "fixed"});
    room(n, 1);
    mark(n);
    ParticleSpec p;
    p.pos = n["pos"].vec3();
    if (n.has("ori")) p.ori = n["ori"].quat();
    p.mass = n["mass"].positive();
    p.inertia = n["inertia"].vec3();
    if (!(p.inertia.minCoeff() > 0.0)) n["inertia"].fail("3 principal moments of inertia > 0");
    p.radius = n["radius"].positive();
    p.material = material(n["material"]);
    motion(n, p);
    atPath(n, [&] { return s_.particles.add(p); });
  }

  void clump(const JsonNode& n) {
    n.keysOnly({"members", "inertia", "gridSpacing", "vel", "angVel"});
    room(n, 1);
    mark(n);
    const JsonNode m = n["members"];
    const std::size_t k = m.arraySize();
    if (k == 0) m.fail("a non-empty array of particle ids");
    std::vector<std::size_t> members;
    for (std::size_t i = 0; i < k; ++i) {
      const std::size_t id = m.at(i).integer(0, std::numeric_limits<std::uint32_t>::max());
      if (id >= s_.particles.size() || s_.particles.isBoundary(id) || s_.particles.isClump[id])
        m.at(i).fail(
            "the id of a sphere defined before the clumps (walls come first, then particles, generated "
            "spheres and bodies; " +
            std::to_string(s_.particles.size()) + " bodies so far)");
      members.push_back(id);
    }
    ClumpOptions o;
    if (n.has("inertia")) {
      const std::string method = n["inertia"].oneOf({"auto", "parallelAxis", "grid"});
      o.method = method == "auto"   ? ClumpInertiaMethod::Auto
                 : method == "grid" ? ClumpInertiaMethod::Grid
                                    : ClumpInertiaMethod::ParallelAxis;
    }
    if (n.has("gridSpacing")) {
      o.gridSpacing = n["gridSpacing"].positive();
      double rMin = std::numeric_limits<double>::infinity();
      for (const std::size_t id : members) rMin = std::min(rMin, s_.particles.radius[id]);
      if (o.gridSpacing < rMin / 200.0) n["gridSpacing"].fail("a spacing >= (smallest member radius) / 200");
    }
    gridWork(n, members, o);
    const std::size_t body = atPath(n, [&] { return s_.addClump(members, o); });
    if (n.has("vel") || n.has("angVel")) {
      // given: replaces the motion from the members' momentum and angular momentum
      const Vec3 v = n.has("vel") ? n["vel"].vec3() : s_.particles.vel[body];
      const Vec3 w = n.has("angVel") ? n["angVel"].vec3() : s_.particles.angVel[body];
      atPath(n, [&] {
        s_.clumps.setMotion(s_.particles, body, v, w);
        return 0;
      });
    }
  }

  // The grid inertia visits (cells x members); refuse a clump whose grid would take too long.
  void gridWork(const JsonNode& n, const std::vector<std::size_t>& members, const ClumpOptions& o) const {
    const Particles& p = s_.particles;
    std::vector<std::size_t> unique = members;
    std::sort(unique.begin(), unique.end());
    if (std::adjacent_find(unique.begin(), unique.end()) != unique.end()) return;  // the solver's error
    const bool grid =
        o.method == ClumpInertiaMethod::Grid || (o.method == ClumpInertiaMethod::Auto && membersOverlap(p, members));
    if (!grid) return;
    Vec3 lo = Vec3::Constant(std::numeric_limits<double>::infinity()), hi = -lo;
    double rMin = std::numeric_limits<double>::infinity();
    for (const std::size_t i : members) {
      lo = lo.cwiseMin(p.pos[i] - Vec3::Constant(p.radius[i]));
      hi = hi.cwiseMax(p.pos[i] + Vec3::Constant(p.radius[i]));
      rMin = std::min(rMin, p.radius[i]);
    }
    const double h = o.gridSpacing > 0.0 ? o.gridSpacing : rMin / 20.0;
    double work = static_cast<double>(members.size());
    for (int k = 0; k < 3; ++k) work *= std::ceil((hi[k] - lo[k]) / h) + 1.0;
    if (!(work <= opt_.maxClumpGridWork))
      n.problem("the grid inertia of this clump would visit " + std::to_string(work) +
                " (cell, member) pairs, more than the limit " + std::to_string(opt_.maxClumpGridWork) +
                "; use a larger gridSpacing or non-overlapping members");
  }

  void engine(const JsonNode& n) {
    n.keysOnly({"dt", "steps", "duration", "stop", "damping", "dampGravity", "verletDist", "gravity", "rotation",
                "firstStepAdjustment", "threads", "law", "spatialOrder", "userIdSums"});
    s_.setSpatialOrder(!n.has("spatialOrder") || n["spatialOrder"].boolean());  // (on by default for dem-run)
    if (n.has("userIdSums")) s_.setUserIdSums(n["userIdSums"].boolean());
    if (n.has("law")) lawFromName(n["law"].oneOf({"cundall", "hertzMindlin"}), s_.law);
    const double dt = timestep(n["dt"]);
    if (n.has("stop")) stop(n["stop"]);
    if (n.has("steps") && n.has("duration")) n.problem("expected one of \"steps\" and \"duration\", not both");
    if (!n.has("steps") && !n.has("duration") && !out_.run.stop.any())
      n.problem("expected one of \"steps\" and \"duration\" (or a \"stop\" condition)");
    if (n.has("steps")) {
      out_.run.steps = n["steps"].integer(0, kMaxSteps);
    } else if (!n.has("duration")) {
      out_.run.steps = kMaxSteps;  // until a stop condition holds
    } else if (!(dt > 0.0)) {
      // dt from the estimate: the step count is not known in advance; the run stops at the time
      const double T = n["duration"].nonNegative();
      out_.run.steps = kMaxSteps;
      out_.run.duration = T;
    } else {
      const double T = n["duration"].nonNegative();
      const double steps = std::ceil(T / dt - 1e-9);
      if (!(steps <= static_cast<double>(kMaxSteps)))
        n["duration"].fail("a duration of at most " + std::to_string(kMaxSteps) + " steps");
      out_.run.steps = static_cast<std::uint64_t>(std::max(0.0, steps));
    }
    if (n.has("damping")) {
      const double d = n["damping"].inRange(0.0, 1.0, true, "a damping coefficient in [0, 1)");
      s_.setDamping(d);
    }
    if (n.has("dampGravity")) s_.setDampGravity(n["dampGravity"].boolean());
    if (n.has("verletDist")) {
      const double v = n["verletDist"].number();
      if (!(v > -10.0 && v < 1e6))
        n["verletDist"].fail("a number in (-10, 1e6): > 0 a length, < 0 a fraction of the smallest radius");
      s_.collider.verletDist = v;
      s_.periodicCollider.verletDist = v;
    }
    if (n.has("gravity")) s_.gravity = n["gravity"].vec3();
    if (n.has("rotation")) {
      const std::string r = n["rotation"].oneOf({"finchamAT", "finchamYade", "omelyan", "spiral"});
      s_.setRotationAlgorithm(r == "finchamAT"     ? RotationAlgorithm::FinchamAT
                              : r == "finchamYade" ? RotationAlgorithm::FinchamYade
                              : r == "omelyan"     ? RotationAlgorithm::Omelyan
                                                   : RotationAlgorithm::Spiral);
    }
    if (n.has("firstStepAdjustment")) s_.setAdjVel0(n["firstStepAdjustment"].boolean());
    if (n.has("threads")) out_.run.threads = static_cast<int>(n["threads"].integer(1, 1024));
  }

  // engine.stop: {"unbalancedForce": F, "kineticEnergy": E, "time": T, "interval": n}, at least one criterion.
  void stop(const JsonNode& n) {
    n.keysOnly({"unbalancedForce", "kineticEnergy", "time", "interval"});
    StopSpec& st = out_.run.stop;
    if (n.has("unbalancedForce")) st.unbalancedForce = n["unbalancedForce"].positive();
    if (n.has("kineticEnergy")) st.kineticEnergy = n["kineticEnergy"].positive();
    if (n.has("time")) st.time = n["time"].nonNegative();
    if (n.has("interval")) st.interval = n["interval"].integer(1, kMaxSteps);
    if (!st.any()) n.problem("expected at least one of \"unbalancedForce\", \"kineticEnergy\" and \"time\"");
  }

  // engine.dt: a number (s), or {"fromStiffness": {"safety": s, "interval": n}} (dt := s x the
  // global-stiffness estimate, Scene::setDtFromStiffness). Returns dt, or 0 for the estimate.
  double timestep(const JsonNode& n) {
    const char* expected = "a number (s) or {\"fromStiffness\": {\"safety\": S, \"interval\": N}}";
    if (n.json().is_number()) {
      const double dt = n.positive();
      atPath(n, [&] {
        s_.setDt(dt);
        return 0;
      });
      return dt;
    }
    if (!n.json().is_object()) n.fail(expected);
    n.keysOnly({"fromStiffness"});
    const JsonNode f = n["fromStiffness"];
    f.keysOnly({"safety", "interval"});
    const double safety = f["safety"].inRange(0.0, 1.0, true, "a safety factor in (0, 1)");
    if (!(safety > 0.0)) f["safety"].fail("a safety factor in (0, 1)");
    const std::uint64_t interval = f.has("interval") ? f["interval"].integer(0, kMaxSteps) : 0;
    atPath(f, [&] {
      s_.setDtFromStiffness(safety, interval);
      return 0;
    });
    return 0.0;
  }

  static std::string fileName(const JsonNode& n) {
    const std::string s = n.string();
    if (s.empty() || s.find('/') != std::string::npos || s == "." || s == "..") n.fail("a plain file name (no '/')");
    return s;
  }

  void outputs(const std::optional<JsonNode>& node) {
    OutputSpec& o = out_.run.outputs;
    if (!node) return;
    const JsonNode& n = *node;
    n.keysOnly({"directory", "progress", "csv", "contacts", "vtk", "final", "checkpoint"});
    if (n.has("directory")) {
      o.directory = n["directory"].string();
      if (o.directory.empty()) n["directory"].fail("a non-empty directory name");
    }
    if (n.has("progress")) o.progress = n["progress"].boolean();
    if (n.has("csv")) {
      const JsonNode c = n["csv"];
      c.keysOnly({"file", "interval", "particles", "cell", "boundary", "micromechanics", "walls", "meshes", "packing"});
      o.csv.cell = cell_.has_value();
      o.csv.boundary = c.has("boundary") ? c["boundary"].boolean() : hasPrescribedMotion(s_.particles);
      if (c.has("cell")) {
        o.csv.cell = c["cell"].boolean();
        if (o.csv.cell && !cell_) c["cell"].problem("the scene has no \"cell\"; remove the key or set it to false");
      }
      if (c.has("file")) o.csv.file = fileName(c["file"]);
      o.csv.interval = c["interval"].integer(1, kMaxSteps);
      if (c.has("particles")) {
        const JsonNode ps = c["particles"];
        const std::size_t k = ps.arraySize();
        for (std::size_t i = 0; i < k; ++i) {
          const std::size_t id = ps.at(i).integer(0, std::numeric_limits<std::uint32_t>::max());
          if (id >= s_.particles.size())
            ps.at(i).fail("a particle id below " + std::to_string(s_.particles.size()) + " (the number of bodies)");
          o.csv.particles.push_back(id);
        }
      }
      if (c.has("micromechanics")) o.csv.micromechanics = c["micromechanics"].boolean();
      if (c.has("walls") && c["walls"].boolean()) {
        for (std::size_t i = 0; i < s_.particles.size(); ++i)
          if (s_.particles.isWall(i)) o.csv.walls.push_back(i);
        if (o.csv.walls.empty()) c["walls"].problem("the scene has no walls; remove the key or set it to false");
      }
      if (c.has("meshes") && c["meshes"].boolean()) {
        o.csv.meshCount = s_.particles.meshes.size();
        if (o.csv.meshCount == 0) c["meshes"].problem("the scene has no meshes; remove the key or set it to false");
      }
      if (c.has("packing")) csvPacking(c["packing"], o.csv);
    }
    if (n.has("contacts")) {
      const JsonNode c = n["contacts"];
      c.keysOnly({"file", "interval"});
      if (c.has("file")) o.contacts.file = fileName(c["file"]);
      o.contacts.interval = c["interval"].integer(1, kMaxSteps);
    }
    if (n.has("vtk")) {
      const JsonNode v = n["vtk"];
      v.keysOnly({"prefix", "interval", "contacts", "format"});
      if (v.has("format")) {
        const std::string f = v["format"].oneOf({"binary", "raw", "ascii"});
        o.vtk.binary = f != "ascii";
        o.vtk.compress = f == "binary";
      }
      if (v.has("prefix")) o.vtk.prefix = fileName(v["prefix"]);
      o.vtk.interval = v["interval"].integer(1, kMaxSteps);
      if (v.has("contacts")) o.vtk.contacts = v["contacts"].boolean();
    }
    if (n.has("final")) {
      const JsonNode f = n["final"];
      o.finalState = f.json().is_null() ? std::string() : fileName(f);
    }
    if (n.has("checkpoint")) {
      const JsonNode c = n["checkpoint"];
      c.keysOnly({"file", "interval"});
      if (c.has("file")) o.checkpointFile = fileName(c["file"]);
      o.checkpointInterval = c["interval"].integer(1, kMaxSteps);
    }
    checkOutputNames(n);
  }

  // outputs.csv.packing: "cell" (a periodic scene) or {"min": [x, y, z], "max": [x, y, z]}, min < max.
  void csvPacking(const JsonNode& n, CsvSpec& csv) const {
    const char* expected = "\"cell\" or a box {\"min\": [x, y, z], \"max\": [x, y, z]}";
    if (n.json().is_string()) {
      if (n.string() != "cell") n.fail(expected);
      if (!cell_) n.problem("the scene has no \"cell\"; give a box {\"min\": [x, y, z], \"max\": [x, y, z]}");
      csv.packing = CsvSpec::Packing::Cell;
      return;
    }
    if (!n.json().is_object()) n.fail(expected);
    n.keysOnly({"min", "max"});
    const Vec3 lo = n["min"].vec3(), hi = n["max"].vec3();
    if (!(lo.array() < hi.array()).all()) n["max"].fail("a corner above \"min\" on every axis");
    csv.packing = CsvSpec::Packing::Box;
    csv.packingMin = {lo[0], lo[1], lo[2]};
    csv.packingMax = {hi[0], hi[1], hi[2]};
  }

  // One file name (or the VTK series PREFIX..._NNNNNNNNN.vtu) an output writes.
  struct OutputName {
    std::string name;
    bool series;                   // name is a series SERIES: the files SERIES_NNNNNNNNN.vtu
    bool atomic;                   // written as NAME.tmp, then renamed
    std::string key;               // the JSON key that names it ("": none, a fixed name)
    std::optional<JsonNode> node;  // that key's node, when the scene file gives it
    std::string what;              // the output, for messages
  };

  static bool inSeries(const std::string& file, const std::string& series) {
    if (file.size() <= series.size() + 1 || file.compare(0, series.size(), series) != 0 || file[series.size()] != '_')
      return false;
    std::size_t k = series.size() + 1;
    const std::size_t digitsFrom = k;
    while (k < file.size() && file[k] >= '0' && file[k] <= '9') ++k;
    const std::string rest = file.substr(k);
    return k - digitsFrom >= 9 && (rest == ".vtu" || rest == ".vtu.tmp");
  }

  static bool collide(const OutputName& a, const OutputName& b) {
    if (a.series && b.series) return false;  // PREFIX_NNN, PREFIX_contacts_NNN, PREFIX_cell_NNN
    if (a.series) return inSeries(b.name, a.name);
    if (b.series) return inSeries(a.name, b.name);
    return a.name == b.name || (b.atomic && a.name == b.name + ".tmp") || (a.atomic && b.name == a.name + ".tmp");
  }

  // Two outputs that would write the same file are an error at the key that names one of them.
  void checkOutputNames(const JsonNode& outputs) const {
    const OutputSpec& o = out_.run.outputs;
    std::vector<OutputName> names;
    const auto given = [&](const char* section, const char* key) -> std::optional<JsonNode> {
      if (!outputs.has(section)) return std::nullopt;
      if (!key) return outputs[section];
      const JsonNode n = outputs[section];
      return n.has(key) ? std::optional<JsonNode>(n[key]) : std::nullopt;
    };
    if (o.csv.interval)
      names.push_back({o.csv.file, false, false, "outputs.csv.file", given("csv", "file"), "the CSV series"});
    if (o.contacts.interval)
      names.push_back(
          {o.contacts.file, false, false, "outputs.contacts.file", given("contacts", "file"), "the contacts CSV"});
    if (o.vtk.interval) {
      std::vector<std::string> series = {o.vtk.prefix};
      if (o.vtk.contacts) series.push_back(o.vtk.prefix + "_contacts");
      if (cell_) series.push_back(o.vtk.prefix + "_cell");
      if (!s_.particles.walls.empty() || !s_.particles.facets.empty()) series.push_back(o.vtk.prefix + "_walls");
      for (const std::string& sname : series) {
        names.push_back(
            {sname + ".pvd", false, true, "outputs.vtk.prefix", given("vtk", "prefix"), "the VTK collection"});
        names.push_back({sname, true, true, "outputs.vtk.prefix", given("vtk", "prefix"), "the VTK snapshots"});
      }
    }
    if (!o.finalState.empty())
      names.push_back({o.finalState, false, true, "outputs.final", given("final", nullptr), "the final state"});
    if (o.checkpointInterval)
      names.push_back({o.checkpointFile, false, true, "outputs.checkpoint.file", given("checkpoint", "file"),
                       "the periodic checkpoint"});
    names.push_back({kLastGoodFile, false, true, "", std::nullopt, "the state before a runaway"});
    names.push_back({pendingLastGoodFile(kLastGoodFile), false, false, "", std::nullopt, "the kept last good state"});
    if (!s_.clumps.list.empty()) names.push_back({kClumpTableFile, false, true, "", std::nullopt, "the clump table"});
    const auto describeName = [](const OutputName& x) {
      return x.what + (x.series ? " " + x.name + "_NNNNNNNNN.vtu" : " \"" + x.name + "\"");
    };
    for (std::size_t j = 1; j < names.size(); ++j)
      for (std::size_t i = 0; i < j; ++i) {
        const OutputName &a = names[i], &b = names[j];
        if (a.key == b.key || !collide(a, b)) continue;
        const OutputName& at = b.node ? b : a;
        const OutputName& other = &at == &b ? a : b;
        const std::string origin =
            other.key.empty() ? " (a fixed name)" : " of " + other.key + (other.node ? "" : " (its default)");
        const std::string text = describeName(at) + " collides with " + describeName(other) + origin +
                                 ": both would write the same file; give each output a file name of its own";
        if (at.node) at.node->problem(text);
        outputs.problem(text);
      }
  }
};

LoadedScene loadDocument(const SceneDocument& doc, const std::string& fileName, const LoadOptions& options) {
  LoadedScene out;
  Loader loader(options, out);
  loader.load(JsonNode(doc.doc, fileName, ""), doc);
  return out;
}

}  // namespace

LoadedScene loadSceneText(const std::string& text, const std::string& fileName, const LoadOptions& options) {
  return loadDocument(parseSceneDocument(text, fileName), fileName, options);
}

LoadedScene loadSceneFile(const std::string& path, const LoadOptions& options) {
  std::error_code ec;
  if (std::filesystem::is_directory(path, ec)) throw SceneError(path, "", "is a directory, not a scene file");
  std::ifstream in(path, std::ios::binary);
  if (!in) throw SceneError(path, "", "cannot open the file for reading");
  // Read straight into one string (an ostringstream's str() would hold a second copy of the text).
  std::string text;
  const auto size = std::filesystem::file_size(path, ec);
  if (!ec && size < (std::uintmax_t{1} << 36)) text.reserve(static_cast<std::size_t>(size));
  char chunk[1 << 16];
  while (in.read(chunk, sizeof chunk) || in.gcount() > 0) text.append(chunk, static_cast<std::size_t>(in.gcount()));
  if (in.bad()) throw SceneError(path, "", "cannot read the file");
  const SceneDocument doc = parseSceneDocument(text, path);
  std::string().swap(text);  // (the text freed before the scene is built: a lower peak)
  return loadDocument(doc, path, options);
}

}  // namespace dem::io
