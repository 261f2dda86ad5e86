// Unit: every class of bad scene input gets a SceneError naming the file, the JSON path and what was
// expected (unknown keys, wrong types, out-of-range and non-finite values, unknown references,
// generators that cannot place all spheres, the periodic cell's own errors, dt from the
// global-stiffness estimate, output file names that collide, unreadable files, bad JSON).
#include "io/scene_loader.hpp"

#include <boost/test/unit_test.hpp>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <limits>
#include <string>

using namespace dem::io;

namespace {

// A valid scene; each test breaks one thing in it.
nlohmann::json base() {
  return nlohmann::json::parse(R"({
    "materials": [{"name": "m", "density": 1000, "young": 1e7, "ksRatio": 0.2, "frictionAngle": 0.3}],
    "walls": [{"point": [0, 0, 0], "normal": [0, 0, 1], "material": "m"}],
    "particles": [
      {"pos": [0, 0, 0.2], "radius": 0.1, "material": "m"},
      {"pos": [0.3, 0, 0.2], "radius": 0.1, "material": "m", "vel": [1, 0, 0], "angVel": [0, 0, 1], "blocked": "xX"},
      {"pos": [0.6, 0, 0.2], "radius": 0.1, "material": "m", "fixed": true},
      {"pos": [0.9, 0, 0.2], "radius": 0.1, "material": "m"},
      {"pos": [1.1, 0, 0.2], "radius": 0.1, "material": "m"}
    ],
    "generators": [
      {"type": "lattice", "origin": [0, 1, 1], "spacing": 0.3, "count": [2, 2, 2], "radius": 0.1, "material": "m"},
      {"type": "randomPacking", "min": [2, 2, 2], "max": [3, 3, 3], "count": 10, "radius": {"distribution": "uniform", "min": 0.05, "max": 0.1}, "seed": 3, "material": "m"}
    ],
    "bodies": [{"pos": [5, 5, 5], "mass": 1, "inertia": [1, 2, 3], "radius": 0.2, "material": "m", "ori": [1, 0, 0, 0]}],
    "clumps": [{"members": [4, 5], "inertia": "grid"}],
    "engine": {"dt": 1e-5, "steps": 10, "damping": 0.1, "gravity": [0, 0, -9.81], "verletDist": -0.1,
               "rotation": "omelyan", "firstStepAdjustment": true, "threads": 1},
    "outputs": {"directory": "out", "csv": {"interval": 5, "particles": [1, 2]}, "vtk": {"interval": 5, "contacts": true},
                "final": "end.ckpt", "checkpoint": {"file": "c.ckpt", "interval": 5}, "progress": false}
  })");
}

// Loads `doc`; expects a SceneError whose path is `path` and whose message contains `needle`.
void expectError(const nlohmann::json& doc, const std::string& path, const std::string& needle) {
  BOOST_TEST_INFO("expected path " << path << ", message containing '" << needle << "'");
  try {
    loadSceneText(doc.dump(), "scene.json");
    BOOST_ERROR("no error for a scene with a bad " << path);
  } catch (const SceneError& e) {
    const std::string m = e.what();
    BOOST_TEST_INFO("message: " << m);
    BOOST_TEST(e.file == "scene.json");
    BOOST_TEST(e.path == path);
    BOOST_TEST(m.find("scene.json: " + (path.empty() ? std::string("$") : path) + ": ") == 0u);
    BOOST_TEST(m.find(needle) != std::string::npos);
  }
}

}  // namespace

BOOST_AUTO_TEST_SUITE(scene_errors)

BOOST_AUTO_TEST_CASE(valid_scene_loads) {
  const LoadedScene s = loadSceneText(base().dump(), "scene.json");
  // 1 wall + 5 particles + 8 lattice + 10 packed + 1 body + 1 clump body
  BOOST_TEST(s.scene.particles.size() == 26u);
  BOOST_TEST(s.run.steps == 10u);
  BOOST_TEST(s.scene.particles.blocked[2] == (dem::dof::x | dem::dof::rx));
  BOOST_TEST(s.scene.particles.blocked[3] == dem::dof::all);
  BOOST_TEST(s.scene.particles.isClump[25] == 1);
  BOOST_TEST(s.run.outputs.csv.particles.size() == 2u);
  BOOST_TEST(s.scene.damping() == 0.1);
}

BOOST_AUTO_TEST_CASE(unknown_keys) {
  auto d = base();
  d["particles"][3]["radiuss"] = 0.1;
  expectError(d, "particles[3].radiuss", "unknown key");
  d = base();
  d["enigne"] = nlohmann::json::object();
  expectError(d, "enigne", "expected one of");
  d = base();
  d["engine"]["dampnig"] = 0.1;
  expectError(d, "engine.dampnig", "unknown key");
  d = base();
  d["outputs"]["vtk"]["contact"] = true;
  expectError(d, "outputs.vtk.contact", "unknown key");
}

BOOST_AUTO_TEST_CASE(repeated_keys) {
  std::string text = base().dump();
  const std::string from = "\"radius\":0.1";
  const auto at = text.find(from, text.find("\"particles\""));
  BOOST_REQUIRE(at != std::string::npos);
  text.insert(at, "\"radius\":-1,");
  try {
    loadSceneText(text, "scene.json");
    BOOST_ERROR("no error for a repeated key");
  } catch (const SceneError& e) {
    BOOST_TEST_INFO(e.what());
    BOOST_TEST(e.path == "particles[0].radius");
    BOOST_TEST(std::string(e.what()).find("repeated key") != std::string::npos);
  }
}

// The repeated key's path counts array elements across nested arrays and objects (each particle
// holds arrays), in a long particle list, and in a nested object; the message names the file.
BOOST_AUTO_TEST_CASE(repeated_keys_paths) {
  auto d = base();
  const nlohmann::json p = d["particles"][0];
  for (int k = 0; k < 300; ++k) d["particles"].push_back(p);
  std::string text = d.dump();
  std::size_t at = text.find("\"particles\":[{");
  for (int k = 0; k <= 250; ++k) at = text.find("\"pos\"", at + 1);  // particles[250]
  text.insert(at, "\"vel\":[[1],{\"a\":[2]}],\"vel\":[0,0,0],");
  try {
    loadSceneText(text, "long.json");
    BOOST_ERROR("no error for a repeated key");
  } catch (const SceneError& e) {
    BOOST_TEST_INFO(e.what());
    BOOST_TEST(e.path == "particles[250].vel");
    BOOST_TEST(e.file == "long.json");
    BOOST_TEST(std::string(e.what()).find("long.json: particles[250].vel: repeated key") == 0);
  }
  text = base().dump();
  at = text.find("\"dt\"");
  BOOST_REQUIRE(at != std::string::npos);
  text.insert(at, "\"dt\":1,");
  try {
    loadSceneText(text, "scene.json");
    BOOST_ERROR("no error for a repeated key");
  } catch (const SceneError& e) {
    BOOST_TEST_INFO(e.what());
    BOOST_TEST(e.path == "engine.dt");
  }
}

BOOST_AUTO_TEST_CASE(wrong_types) {
  auto d = base();
  d["particles"][1]["radius"] = "0.1";
  expectError(d, "particles[1].radius", "expected a number");
  d = base();
  d["particles"][0]["pos"] = {0, 0};
  expectError(d, "particles[0].pos", "array of 3 numbers");
  d = base();
  d["particles"] = nlohmann::json::object();
  expectError(d, "particles", "expected an array");
  d = base();
  d["engine"]["steps"] = 1.5;
  expectError(d, "engine.steps", "integer");
  d = base();
  d["engine"]["firstStepAdjustment"] = 1;
  expectError(d, "engine.firstStepAdjustment", "true or false");
  d = base();
  d["engine"]["spatialOrder"] = "yes";
  expectError(d, "engine.spatialOrder", "true or false");
  d = base();
  d["generators"][0]["count"] = {2, 2};
  expectError(d, "generators[0].count", "3 integers");
  expectError(nlohmann::json::array(), "", "expected an object");
}

BOOST_AUTO_TEST_CASE(out_of_range) {
  auto d = base();
  d["particles"][4]["radius"] = -0.1;
  expectError(d, "particles[4].radius", "> 0");
  d = base();
  d["engine"]["damping"] = 1.0;
  expectError(d, "engine.damping", "[0, 1)");
  d = base();
  d["engine"]["dt"] = 0;
  expectError(d, "engine.dt", "> 0");
  d = base();
  d["materials"][0]["frictionAngle"] = 2.0;
  expectError(d, "materials[0].frictionAngle", "pi/2");
  d = base();
  d["engine"]["threads"] = 0;
  expectError(d, "engine.threads", "integer in [1, 1024]");
  d = base();
  d["outputs"]["csv"]["particles"][1] = 1000;
  expectError(d, "outputs.csv.particles[1]", "particle id below 26");
  d = base();
  d["bodies"][0]["inertia"] = {1, 0, 3};
  expectError(d, "bodies[0].inertia", "> 0");
  d = base();
  d["particles"][1]["blocked"] = "xq";
  expectError(d, "particles[1].blocked", "xyzXYZ");
  d = base();
  d["engine"]["rotation"] = "euler";
  expectError(d, "engine.rotation", "\"finchamAT\"");
  d = base();
  d["bodies"][0]["ori"] = {1, 1, 0, 0};
  expectError(d, "bodies[0].ori", "unit quaternion");
  d = base();
  d["walls"][0]["normal"] = {0, 0, 0};
  expectError(d, "walls[0].normal", "non-zero");
  d = base();
  d["generators"][0]["count"] = {100000, 100000, 100000};
  expectError(d, "generators[0].count", "more than");
  d = base();
  d["engine"]["law"] = "hertz";
  expectError(d, "engine.law", "\"hertzMindlin\"");
  d = base();
  d["materials"][0]["poisson"] = 0.6;
  expectError(d, "materials[0].poisson", "[0, 0.5]");
  d = base();
  d["materials"][0]["restitution"] = 1.5;
  expectError(d, "materials[0].restitution", "[0, 1]");
  d = base();
  d["materials"][0]["restitution"] = -0.1;
  expectError(d, "materials[0].restitution", "[0, 1]");
}

// The law and the dashpots reach the scene: engine.law selects Hertz-Mindlin, and the materials'
// poisson and restitution are read.
BOOST_AUTO_TEST_CASE(law_and_material_keys) {
  auto d = base();
  d["engine"]["law"] = "hertzMindlin";
  d["materials"][0]["poisson"] = 0.3;
  d["materials"][0]["restitution"] = 0.5;
  const LoadedScene loaded = loadSceneText(d.dump(), "law.json");
  BOOST_TEST((loaded.scene.law == dem::ContactLaw::HertzMindlin));
  BOOST_TEST(loaded.scene.materials[0].poisson == 0.3);
  BOOST_TEST(loaded.scene.materials[0].restitution == 0.5);
}

// A material's friction: the angle (radians) or the coefficient mu = tan(angle), not both.
BOOST_AUTO_TEST_CASE(friction_coefficient_or_angle) {
  auto d = base();
  d["materials"][0].erase("frictionAngle");
  d["materials"][0]["friction"] = 0.5;
  BOOST_TEST(loadSceneText(d.dump(), "scene.json").scene.materials[0].frictionAngle == std::atan(0.5));
  BOOST_TEST(loadSceneText(base().dump(), "scene.json").scene.materials[0].frictionAngle == 0.3);
  d["materials"][0]["frictionAngle"] = 0.3;
  expectError(d, "materials[0]", "at most one of \"friction\"");
  d["materials"][0].erase("frictionAngle");
  d["materials"][0]["friction"] = -0.1;
  expectError(d, "materials[0].friction", "friction coefficient");
  d["materials"][0]["friction"] = 1e7;
  expectError(d, "materials[0].friction", "[0, 1e6]");
}

BOOST_AUTO_TEST_CASE(non_finite_values) {
  // JSON has no NaN or infinity literals; a number too large for a double is the way in.
  const std::string text = base().dump();
  std::string bad = text;
  const std::string from = "\"dt\":1e-05";
  BOOST_REQUIRE(bad.find(from) != std::string::npos);
  bad.replace(bad.find(from), from.size(), "\"dt\":1e999");
  try {
    loadSceneText(bad, "scene.json");
    BOOST_ERROR("no error for dt = 1e999");
  } catch (const SceneError& e) {
    BOOST_TEST_INFO(e.what());
    BOOST_TEST((e.path == "engine.dt" || e.path.empty()));
  }
  auto d = base();
  d["particles"][0]["vel"] = {0, std::numeric_limits<double>::infinity(), 0};  // dumps as null
  expectError(d, "particles[0].vel[1]", "expected a number");
}

// The particles list is read element by element while the text is parsed (io/scene_document.hpp):
// every form of element still gets its error at its path, and a list given before the materials
// (or the walls, whose ids come first) loads as any other.
BOOST_AUTO_TEST_CASE(particles_list_read_while_parsed) {
  auto d = base();
  d["particles"] = {{"pos", {0, 0, 0}}};
  expectError(d, "particles", "expected an array");
  d = base();
  d["particles"][1] = 3;
  expectError(d, "particles[1]", "expected an object, got 3");
  d = base();
  d["particles"][0] = {1, 2, 3};
  expectError(d, "particles[0]", "expected an object");
  d = base();
  d["particles"][2]["extra"] = {{"a", {1, {{"b", {2, 3}}}}}};
  expectError(d, "particles[2].extra", "unknown key");
  d = base();
  d["particles"][4]["material"] = 7;
  expectError(d, "particles[4].material", "expected a string");

  const std::string text = R"({"particles": [
      {"pos": [0, 0, 1], "radius": 0.1, "material": "b", "extra": null},
      {"pos": [1, 0, 1], "radius": 0.2, "material": "a", "vel": [1, 2, 3], "angVel": [4, 5, 6], "blocked": "zX"},
      {"pos": [2, 0, 1], "radius": 0.1, "material": "b", "fixed": true}],
    "walls": [{"point": [0, 0, 0], "normal": [0, 0, 1], "material": "a"}],
    "materials": [{"name": "a", "density": 1000, "young": 1e7}, {"name": "b", "density": 3000, "young": 1e7}],
    "engine": {"dt": 1e-5, "steps": 1}})";
  try {
    loadSceneText(text, "scene.json");
    BOOST_ERROR("no error for the unknown key of particles[0]");
  } catch (const SceneError& e) {
    BOOST_TEST(e.path == "particles[0].extra");
  }
  std::string good = text;
  good.erase(good.find(R"(, "extra": null)"), 15);
  const LoadedScene s = loadSceneText(good, "scene.json");
  const dem::Particles& p = s.scene.particles;
  BOOST_TEST_REQUIRE(p.size() == 4u);
  BOOST_TEST(p.isWall(0));
  BOOST_TEST(p.material[1] == 1u);
  BOOST_TEST(p.material[2] == 0u);
  BOOST_TEST(p.material[3] == 1u);
  BOOST_TEST(p.radius[2] == 0.2);
  BOOST_TEST(p.mass[1] == dem::sphereMass(0.1, 3000.0));
  BOOST_TEST(p.mass[2] == dem::sphereMass(0.2, 1000.0));
  BOOST_TEST(p.pos[3].x() == 2.0);
  BOOST_TEST(p.vel[2].y() == 2.0);
  BOOST_TEST(p.angVel[2].z() == 6.0);
  BOOST_TEST(int(p.blocked[2]) == int(dem::dof::z | dem::dof::rx));
  BOOST_TEST(int(p.blocked[3]) == int(dem::dof::all));
  BOOST_TEST(int(p.blocked[1]) == 0);
}

BOOST_AUTO_TEST_CASE(missing_and_unknown_references) {
  auto d = base();
  d["particles"][0].erase("material");
  expectError(d, "particles[0]", "missing required key 'material'");
  d = base();
  d["particles"][0]["material"] = "steel";
  expectError(d, "particles[0].material", "\"m\"");
  d = base();
  d["clumps"][0]["members"] = {4, 0};
  expectError(d, "clumps[0].members[1]", "id of a sphere");
  d = base();
  d["clumps"].push_back({{"members", {5}}});
  expectError(d, "clumps[1]", "clump");  // particle 5 is already in a clump (solver's message)
  d = base();
  d["engine"].erase("steps");
  expectError(d, "engine", "expected one of \"steps\" and \"duration\" (or a \"stop\" condition)");
  d = base();
  d["engine"]["duration"] = 1.0;
  expectError(d, "engine", "not both");
  d = base();
  d["engine"]["stop"] = {{"interval", 3}};
  expectError(d, "engine.stop", "at least one of");
  d = base();
  d["engine"]["stop"] = {{"unbalancedForce", -1}};
  expectError(d, "engine.stop.unbalancedForce", "> 0");
  d = base();
  d["materials"].push_back(d["materials"][0]);
  expectError(d, "materials[1].name", "not used by an earlier material");
}

BOOST_AUTO_TEST_CASE(generator_that_cannot_place_all) {
  auto d = base();
  d["generators"][1]["count"] = 5000;
  d["generators"][1]["maxAttempts"] = 100000;
  expectError(d, "generators[1]", "placed only");
  d = base();
  d["generators"][1]["max"] = {2.1, 3, 3};
  expectError(d, "generators[1].max", "2 * (largest radius)");
}

// A valid periodic scene: 8 spheres in a sheared cell, dt from the estimate.
nlohmann::json periodicBase() {
  return nlohmann::json::parse(R"({
    "materials": [{"name": "m", "density": 1000, "young": 1e7}],
    "particles": [{"pos": [0.5, 0.5, 0.5], "radius": 0.1, "material": "m", "vel": [0.1, 0, 0]}],
    "generators": [{"type": "lattice", "origin": [0.2, 0.2, 0.2], "spacing": 0.6, "count": [2, 2, 1], "radius": 0.1, "material": "m"}],
    "cell": {"H": [[2, 0.2, 0], [0, 2, 0], [0, 0, 2]], "velGrad": [[0, 0.5, 0], [0, 0, 0], [0, 0, 0]], "homoDeform": true, "flip": true},
    "engine": {"dt": {"fromStiffness": {"safety": 0.4, "interval": 50}}, "steps": 10},
    "outputs": {"csv": {"interval": 5}}
  })");
}

// Walls parallel to two of the cell's side vectors (a floor normal to z, a side wall normal to y
// in the cell sheared in xy) and a mesh of facets narrower than half the cell load.
BOOST_AUTO_TEST_CASE(periodic_scene_with_walls_and_a_mesh_loads) {
  auto d = periodicBase();
  d["walls"] = {{{"point", {0, 0, 0}}, {"normal", {0, 0, 1}}, {"material", "m"}},
                {{"point", {0, 0, 0}}, {"normal", {0, 1, 0}}, {"material", "m"}}};
  d["meshes"] =
      nlohmann::json::array({{{"material", "m"}, {"box", {{"lo", {1.2, 1.2, 1.2}}, {"hi", {1.6, 1.6, 1.6}}}}}});
  const LoadedScene s = loadSceneText(d.dump(), "scene.json");
  BOOST_TEST(s.scene.particles.walls.size() == 2u);
  BOOST_TEST(s.scene.particles.facets.size() == 12u);
  BOOST_TEST(s.scene.cell.has_value());
}

BOOST_AUTO_TEST_CASE(periodic_scene_loads) {
  LoadedScene s = loadSceneText(periodicBase().dump(), "scene.json");
  const dem::Scene& sc = s.scene;
  BOOST_REQUIRE(sc.cell.has_value());
  BOOST_TEST(sc.cell->H()(0, 1) == 0.2);  // rows as written: column 1 is the side vector (0.2, 2, 0)
  BOOST_TEST(sc.cell->nextVelGrad()(0, 1) == 0.5);
  BOOST_TEST(sc.cell->flipFlippable);
  BOOST_TEST(sc.dtSafety() == 0.4);
  BOOST_TEST(sc.dtInterval() == 50u);
  BOOST_TEST(s.run.outputs.csv.cell);
  // L != 0: started on the affine field (mid-step velocity (I + L dt/2)^{-1} (L x0 + v_f), marked integrated).
  BOOST_TEST(sc.particles.velMidstep[0] == 1);
  BOOST_TEST(sc.dt() > 0.0);
  const dem::Vec3 expected = (dem::Mat3::Identity() + 0.5 * sc.dt() * sc.cell->nextVelGrad()).inverse() *
                             (sc.cell->nextVelGrad() * dem::Vec3(0.5, 0.5, 0.5) + dem::Vec3(0.1, 0, 0));
  BOOST_TEST((sc.particles.vel[0] - expected).norm() == 0.0);
  // The size form, no velocity gradient: not started on the field.
  auto d = periodicBase();
  d["cell"] = {{"size", {2, 2, 2}}};
  s = loadSceneText(d.dump(), "scene.json");
  BOOST_TEST((s.scene.cell->H() == dem::Mat3(dem::Vec3(2, 2, 2).asDiagonal())));
  BOOST_TEST(s.scene.particles.velMidstep[0] == 0);
  BOOST_TEST(s.scene.cell->homoDeform);
  BOOST_TEST(!s.scene.cell->flipFlippable);
  d["cell"]["startOnAffineField"] = true;
  d["engine"]["dt"] = 1e-4;
  s = loadSceneText(d.dump(), "scene.json");
  BOOST_TEST(s.scene.particles.velMidstep[0] == 1);
  BOOST_TEST(s.scene.dt() == 1e-4);
  s.scene.run(20);  // the scene runs (dt fixed; cell at rest)
  BOOST_TEST(s.scene.stepCount == 20u);
}

BOOST_AUTO_TEST_CASE(cell_errors) {
  auto d = periodicBase();
  d["cell"]["HH"] = 1;
  expectError(d, "cell.HH", "unknown key");
  d = periodicBase();
  d["cell"]["size"] = {1, 1, 1};
  expectError(d, "cell", "exactly one of \"H\"");
  d = periodicBase();
  d["cell"].erase("H");
  expectError(d, "cell", "exactly one of \"H\"");
  // wrong shape
  d = periodicBase();
  d["cell"]["H"] = {{2, 0, 0}, {0, 2, 0}};
  expectError(d, "cell.H", "3x3 matrix");
  d = periodicBase();
  d["cell"]["H"][1] = {0, 2};
  expectError(d, "cell.H[1]", "array of 3 numbers");
  d = periodicBase();
  d["cell"]["velGrad"] = 0.5;
  expectError(d, "cell.velGrad", "3x3 matrix");
  d = periodicBase();
  d["cell"]["size"] = {1, 0, 1};
  d["cell"].erase("H");
  expectError(d, "cell.size", "side lengths > 0");
  // non-finite entries (an infinity dumps as null)
  d = periodicBase();
  d["cell"]["H"][2][2] = std::numeric_limits<double>::infinity();
  expectError(d, "cell.H[2][2]", "expected a number");
  d = periodicBase();
  d["cell"]["velGrad"][0][1] = std::numeric_limits<double>::quiet_NaN();
  expectError(d, "cell.velGrad[0][1]", "expected a number");
  // singular H (the solver's message)
  d = periodicBase();
  d["cell"]["H"] = {{2, 2, 0}, {0, 0, 0}, {0, 0, 2}};
  expectError(d, "cell.H", "singular");
  // wrong types
  d = periodicBase();
  d["cell"]["flip"] = "yes";
  expectError(d, "cell.flip", "true or false");
  d = periodicBase();
  d["cell"]["startOnAffineField"] = 1;
  expectError(d, "cell.startOnAffineField", "true or false");
  d = periodicBase();
  d["cell"] = {1, 2, 3};
  expectError(d, "cell", "an object");
  // a wall in a periodic scene must be parallel to two of the cell's side vectors: normal x is
  // orthogonal to h_3 = (0, 0, 2) only (h_2 = (0.2, 2, 0) is sheared)
  d = periodicBase();
  d["walls"] = {{{"point", {0, 0, 0}}, {"normal", {0, 0, 1}}, {"material", "m"}},
                {{"point", {0, 0, 0}}, {"normal", {1, 0, 0}}, {"material", "m"}}};
  expectError(d, "walls[1]", "not parallel to two of the periodic cell's side vectors");
  // a facet as wide as half the cell: subdivide
  d = periodicBase();
  d["meshes"] = nlohmann::json::array({{{"material", "m"}, {"box", {{"lo", {0, 0, 0}}, {"hi", {1, 1, 0.5}}}}}});
  expectError(d, "meshes[0]", "subdivide the mesh");
  // a particle larger than half the cell, named by the entry that made it
  d = periodicBase();
  d["generators"][0]["radius"] = 0.5;
  d["generators"][0]["spacing"] = 1.0;
  expectError(d, "generators[0]", "half the cell");
  d = periodicBase();
  d["particles"][0]["radius"] = 0.6;
  expectError(d, "particles[0]", "half the cell");
  // I - L dt/2 singular for the given dt
  d = periodicBase();
  d["engine"]["dt"] = 1.0;
  d["cell"]["velGrad"] = {{2, 0, 0}, {0, 0, 0}, {0, 0, 0}};
  expectError(d, "cell.velGrad", "singular");
  // csv cell columns without a cell
  d = base();
  d["outputs"]["csv"]["cell"] = true;
  expectError(d, "outputs.csv.cell", "no \"cell\"");
}

BOOST_AUTO_TEST_CASE(dt_from_stiffness_errors) {
  auto d = periodicBase();
  d["engine"]["dt"]["fromStiffness"]["safety"] = 1.0;
  expectError(d, "engine.dt.fromStiffness.safety", "(0, 1)");
  d["engine"]["dt"]["fromStiffness"]["safety"] = 0;
  expectError(d, "engine.dt.fromStiffness.safety", "(0, 1)");
  d = periodicBase();
  d["engine"]["dt"]["fromStiffness"].erase("safety");
  expectError(d, "engine.dt.fromStiffness", "missing required key 'safety'");
  d = periodicBase();
  d["engine"]["dt"]["fromStiffness"]["interval"] = -1;
  expectError(d, "engine.dt.fromStiffness.interval", "integer");
  d = periodicBase();
  d["engine"]["dt"]["fromStiffnes"] = d["engine"]["dt"]["fromStiffness"];
  expectError(d, "engine.dt.fromStiffnes", "unknown key");
  d = periodicBase();
  d["engine"]["dt"] = "auto";
  expectError(d, "engine.dt", "fromStiffness");
  d = periodicBase();
  d["engine"].erase("steps");
  d["engine"]["duration"] = 1.0;
  {  // a duration with dt from the estimate: the run stops at that time
    const LoadedScene s = loadSceneText(d.dump(), "scene.json");
    BOOST_TEST(s.run.duration.value_or(0.0) == 1.0);
  }
  // aperiodic scenes take it too
  d = base();
  d["engine"]["dt"] = {{"fromStiffness", {{"safety", 0.3}}}};
  const LoadedScene s = loadSceneText(d.dump(), "scene.json");
  BOOST_TEST(s.scene.dtSafety() == 0.3);
  BOOST_TEST(s.scene.dtInterval() == 0u);
}

BOOST_AUTO_TEST_CASE(unreadable_file_and_bad_json) {
  try {
    loadSceneFile("/nonexistent/scene.json");
    BOOST_ERROR("no error for a missing file");
  } catch (const SceneError& e) {
    BOOST_TEST(std::string(e.what()).find("/nonexistent/scene.json: $: cannot open") == 0u);
  }
  try {
    loadSceneFile("/");
    BOOST_ERROR("no error for a directory");
  } catch (const SceneError& e) {
    BOOST_TEST(std::string(e.what()).find("directory") != std::string::npos);
  }
  try {
    loadSceneText("{\"materials\": [", "broken.json");
    BOOST_ERROR("no error for broken JSON");
  } catch (const SceneError& e) {
    BOOST_TEST_INFO(e.what());
    BOOST_TEST(std::string(e.what()).find("broken.json: $: not valid JSON") == 0u);
  }
}

BOOST_AUTO_TEST_CASE(random_packing_is_reproducible_and_non_overlapping) {
  const LoadedScene a = loadSceneText(base().dump(), "a.json"), b = loadSceneText(base().dump(), "b.json");
  const auto& p = a.scene.particles;
  BOOST_TEST((p.pos == b.scene.particles.pos));
  for (std::size_t i = 14; i < 24; ++i) {
    for (int k = 0; k < 3; ++k) {
      BOOST_TEST(p.pos[i][k] - p.radius[i] >= 2.0);
      BOOST_TEST(p.pos[i][k] + p.radius[i] <= 3.0);
    }
    for (std::size_t j = 0; j < i; ++j)
      if (!p.isBoundary(j) && !p.isClump[j]) BOOST_TEST((p.pos[i] - p.pos[j]).norm() >= p.radius[i] + p.radius[j]);
  }
}

// Two outputs that would write the same file (one would silently replace the other) are refused
// at the key that names one of them, the message naming the other's key.
BOOST_AUTO_TEST_CASE(colliding_output_files) {
  auto d = base();
  d["outputs"]["csv"]["file"] = "end.ckpt";  // (both keys given: the error is at the later one)
  expectError(d, "outputs.final", "the CSV series \"end.ckpt\" of outputs.csv.file");
  d = base();
  d["outputs"].erase("final");
  d["outputs"]["csv"]["file"] = "final.ckpt";
  expectError(d, "outputs.csv.file", "the final state \"final.ckpt\" of outputs.final (its default)");
  d = base();
  d["outputs"]["checkpoint"]["file"] = "particles.pvd";  // the VTK collection's default name
  expectError(d, "outputs.checkpoint.file", "outputs.vtk.prefix (its default)");
  d = base();
  d["outputs"]["csv"]["file"] = "particles_contacts.pvd";
  expectError(d, "outputs.csv.file", "the VTK collection \"particles_contacts.pvd\" of outputs.vtk.prefix");
  d = base();
  d["outputs"]["vtk"]["prefix"] = "snap";
  d["outputs"]["csv"]["file"] = "snap_000000005.vtu";
  expectError(d, "outputs.vtk.prefix", "of outputs.csv.file");
  d = base();
  d["outputs"]["final"] = "c.ckpt";
  expectError(d, "outputs.checkpoint.file", "of outputs.final");
  d = base();
  d["outputs"]["checkpoint"]["file"] = "end.ckpt.tmp";  // the final state's temporary file
  expectError(d, "outputs.checkpoint.file", "outputs.final");
  d = base();
  d["outputs"]["final"] = "last-good.ckpt";
  expectError(d, "outputs.final", "the state before a runaway");
  // Names that do not collide: the final state off, its default name taken by the checkpoint; a
  // CSV named like a snapshot of a series that is not written (no contacts).
  d = base();
  d["outputs"]["final"] = nullptr;
  d["outputs"]["checkpoint"]["file"] = "final.ckpt";
  BOOST_CHECK_NO_THROW(loadSceneText(d.dump(), "scene.json"));
  d = base();
  d["outputs"]["vtk"]["contacts"] = false;
  d["outputs"]["csv"]["file"] = "particles_contacts_000000005.vtu";
  BOOST_CHECK_NO_THROW(loadSceneText(d.dump(), "scene.json"));
}

// Mesh walls: the source, the generators' arguments, the STL file (named with the JSON path, the
// file and the triangle), the periodic cell.
BOOST_AUTO_TEST_CASE(mesh_walls) {
  nlohmann::json d = base();
  d["meshes"] = nlohmann::json::array({{{"material", "m"}}});
  expectError(d, "meshes[0]", "exactly one of");
  d["meshes"][0]["box"] = {{"lo", {0, 0, 0}}, {"hi", {1, 1, 1}}};
  d["meshes"][0]["stl"] = "a.stl";
  expectError(d, "meshes[0]", "exactly one of");
  d = base();
  d["meshes"] = nlohmann::json::array({{{"material", "m"}, {"box", {{"lo", {0, 0, 0}}, {"hi", {1, -1, 1}}}}}});
  expectError(d, "meshes[0].box", "hi");
  d = base();
  d["meshes"] = nlohmann::json::array(
      {{{"material", "m"}, {"cylinder", {{"base", {0, 0, 0}}, {"axis", {0, 0, 0}}, {"radius", 1}, {"height", 1}}}}});
  expectError(d, "meshes[0].cylinder", "axis");
  d = base();
  d["meshes"] = nlohmann::json::array({{{"material", "m"}, {"stl", "no-such-file.stl"}}});
  expectError(d, "meshes[0].stl", "no-such-file.stl");
  d = base();
  d["meshes"] =
      nlohmann::json::array({{{"material", "m"}, {"box", {{"lo", {0, 0, 0}}, {"hi", {1, 1, 1}}}}, {"scale", -1}}});
  expectError(d, "meshes[0].scale", "> 0");
  d = base();
  d["meshes"] = nlohmann::json::array(
      {{{"material", "m"}, {"box", {{"lo", {0, 0, 0}}, {"hi", {1, 1, 1}}}}, {"motion", {{"spin", {0, 0, 1}}}}}});
  expectError(d, "meshes[0].motion.spin", "unknown");
  // (meshes in a periodic cell: cell_errors)
}

// A degenerate triangle in an STL file: the error names the JSON path, the file and the triangle.
BOOST_AUTO_TEST_CASE(mesh_stl_file_errors_name_the_triangle) {
  const std::string dir = "scene-errors-stl";
  std::filesystem::create_directories(dir);
  {
    std::ofstream f(dir + "/bad.stl");
    f << "solid s\nfacet normal 0 0 1\nouter loop\nvertex 0 0 0\nvertex 1 0 0\nvertex 0 1 0\nendloop\nendfacet\n"
         "facet normal 0 0 1\nouter loop\nvertex 0 0 0\nvertex 1 0 0\nvertex 2 0 0\nendloop\nendfacet\nendsolid s\n";
  }
  nlohmann::json d = base();
  d["meshes"] = nlohmann::json::array({{{"material", "m"}, {"stl", "bad.stl"}}});
  try {
    loadSceneText(d.dump(), dir + "/scene.json");
    BOOST_ERROR("no error for a degenerate STL triangle");
  } catch (const SceneError& e) {
    const std::string m = e.what();
    BOOST_TEST_INFO(m);
    BOOST_TEST(e.path == "meshes[0].stl");
    BOOST_TEST(m.find("bad.stl") != std::string::npos);
    BOOST_TEST(m.find("triangle 1") != std::string::npos);
  }
  std::filesystem::remove_all(dir);
}

BOOST_AUTO_TEST_SUITE_END()
