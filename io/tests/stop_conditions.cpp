// Unit: engine.stop and engine.duration with the automatic timestep. A bed poured into a box stops
// at the first checked step where the unbalanced force (recomputed from the contacts CSV of the same
// run) or the kinetic energy (the series' column) falls below the bound, and not before; a scene
// with dt from the global-stiffness estimate and a duration stops at the first step that reaches it.
#include "io/runner.hpp"
#include "io/tests/box_bed_scene.hpp"
#include "io/scene_loader.hpp"
#include "solver/unbalanced_force.hpp"

#include <boost/test/unit_test.hpp>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>

using namespace dem;
using namespace dem::io;

namespace {
std::vector<std::vector<double>> csvRows(const std::filesystem::path& file, std::vector<std::string>& header) {
  std::ifstream in(file);
  std::string line, cell;
  std::getline(in, line);
  std::stringstream h(line);
  while (std::getline(h, cell, ',')) header.push_back(cell);
  std::vector<std::vector<double>> rows;
  while (std::getline(in, line)) {
    std::stringstream s(line);
    rows.emplace_back();
    while (std::getline(s, cell, ',')) rows.back().push_back(std::strtod(cell.c_str(), nullptr));
  }
  return rows;
}

std::size_t columnOf(const std::vector<std::string>& header, const std::string& name) {
  return static_cast<std::size_t>(std::find(header.begin(), header.end(), name) - header.begin());
}

// Yade's unbalanced force at each step of the contacts CSV (force on particle 2: fn + fs).
std::map<double, double> unbalancedFromContacts(const std::filesystem::path& file, const Particles& p, const Vec3& g) {
  std::vector<std::string> h;
  const auto rows = csvRows(file, h);
  const std::size_t fn = columnOf(h, "fn_x"), fs = columnOf(h, "fs_x");
  std::map<double, double> out;
  for (std::size_t k = 0; k < rows.size();) {
    const double step = rows[k][0];
    std::vector<Vec3> f(p.size());
    for (std::size_t i = 0; i < p.size(); ++i) f[i] = p.mass[i] * g;
    double sumContact = 0.0, n = 0.0, sumBody = 0.0, bodies = 0.0;
    for (; k < rows.size() && rows[k][0] == step; ++k) {
      const auto& r = rows[k];
      const Vec3 f2(r[fn] + r[fs], r[fn + 1] + r[fs + 1], r[fn + 2] + r[fs + 2]);
      f[static_cast<std::size_t>(r[2])] -= f2;
      f[static_cast<std::size_t>(r[3])] += f2;
      sumContact += f2.norm();
      n += 1.0;
    }
    for (std::size_t i = 0; i < p.size(); ++i)
      if (!p.isBoundary(i)) {
        sumBody += f[i].norm();
        bodies += 1.0;
      }
    out[step] = sumBody / bodies / (sumContact / n);
  }
  return out;
}

std::string bedScene(const std::string& stop) {
  return test::boxBedScene(R"("stop": )" + stop,
                           R"("csv": {"interval": 100, "micromechanics": true}, "contacts": {"interval": 100})");
}

std::filesystem::path freshDir(const char* name) {
  const auto dir = std::filesystem::temp_directory_path() / name;
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir);
  return dir;
}
}  // namespace

BOOST_AUTO_TEST_SUITE(stop_conditions)

BOOST_AUTO_TEST_CASE(unbalanced_force) {
  const auto dir = freshDir("dem-stop-unbalanced");
  LoadedScene l = loadSceneText(bedScene(R"({"unbalancedForce": 0.01, "interval": 100})"), "stop.json");
  l.run.outputs.directory = dir.string();
  const Particles p0 = l.scene.particles;
  const RunOutcome r = runScene(l.scene, l.run, RunOptions{});
  BOOST_REQUIRE(r.finished);
  BOOST_TEST_MESSAGE("stopped at step " << l.scene.stepCount << ": " << r.stopReason);
  BOOST_TEST(r.stopReason.find("unbalanced force") == 0u);
  const double last = double(l.scene.stepCount);
  const std::map<double, double> unbalanced = unbalancedFromContacts(dir / "contacts.csv", p0, l.scene.gravity);
  BOOST_REQUIRE(unbalanced.size() > 2u);
  BOOST_TEST(unbalanced.rbegin()->first == last);
  BOOST_TEST(unbalanced.rbegin()->second < 0.01);
  std::size_t earlier = 0;
  for (const auto& [step, f] : unbalanced)  // not before: every earlier check was at or above the bound
    if (step < last) {
      BOOST_TEST(!(f < 0.01), "step " << step);
      ++earlier;
    }
  // every check step without a contact (nan) has no row in the contacts CSV; those with are all there
  std::vector<std::string> h;
  const auto rows = csvRows(dir / "series.csv", h);
  BOOST_TEST(rows.back()[0] == last);
  BOOST_TEST(earlier + 1 <= rows.size() - 1);
  std::filesystem::remove_all(dir);
}

BOOST_AUTO_TEST_CASE(kinetic_energy) {
  const auto dir = freshDir("dem-stop-kinetic");
  LoadedScene l = loadSceneText(bedScene(R"({"kineticEnergy": 1e-7, "interval": 100})"), "stop.json");
  l.run.outputs.directory = dir.string();
  const RunOutcome r = runScene(l.scene, l.run, RunOptions{});
  BOOST_REQUIRE(r.finished);
  BOOST_TEST(r.stopReason.find("kinetic energy") == 0u);
  std::vector<std::string> h;
  const auto rows = csvRows(dir / "series.csv", h);
  const std::size_t ek = columnOf(h, "kinetic"), er = columnOf(h, "rotational");
  BOOST_TEST(rows.back()[0] == double(l.scene.stepCount));
  BOOST_TEST(rows.back()[ek] + rows.back()[er] < 1e-7);
  for (std::size_t k = 1; k + 1 < rows.size(); ++k) BOOST_TEST(!(rows[k][ek] + rows[k][er] < 1e-7));
  std::filesystem::remove_all(dir);
}

BOOST_AUTO_TEST_CASE(duration_with_the_automatic_timestep) {
  const auto dir = freshDir("dem-stop-duration");
  LoadedScene l = loadSceneText(R"({
    "materials": [{"name": "m", "density": 2600, "young": 1e7}],
    "particles": [{"pos": [0, 0, 0], "radius": 0.01, "material": "m", "vel": [1, 0, 0]},
                  {"pos": [0.03, 0, 0], "radius": 0.01, "material": "m"}],
    "engine": {"dt": {"fromStiffness": {"safety": 0.5}}, "duration": 0.01},
    "outputs": {"progress": false, "final": null}
  })",
                                "duration.json");
  l.run.outputs.directory = dir.string();
  const RunOutcome r = runScene(l.scene, l.run, RunOptions{});
  BOOST_REQUIRE(r.finished);
  // dt is evaluated once (no contact: the p-wave value 0.5 r sqrt(rho/E)): the first step with t >= 0.01
  const double dt = 0.5 * 0.01 * std::sqrt(2600.0 / 1e7);
  BOOST_TEST(l.scene.dt() == dt, boost::test_tools::tolerance(1e-12));
  BOOST_TEST(l.scene.stepCount == static_cast<std::uint64_t>(std::ceil(0.01 / l.scene.dt() - 1e-9)));
  BOOST_TEST(l.scene.time >= 0.01 - 1e-9 * dt);
  BOOST_TEST(l.scene.time - l.scene.dt() < 0.01);
  std::filesystem::remove_all(dir);
}

BOOST_AUTO_TEST_CASE(stop_needs_a_criterion) {
  const std::string base = R"({"materials": [{"name": "m", "density": 1, "young": 1}], "engine": {"dt": 1e-3, )";
  BOOST_CHECK_THROW(loadSceneText(base + R"("stop": {"interval": 5}}})", "s.json"), SceneError);
  BOOST_CHECK_THROW(loadSceneText(base + R"("stop": {"time": 1}, "steps": 1, "duration": 1}})", "s.json"), SceneError);
  BOOST_CHECK_THROW(loadSceneText(base + R"("damping": 0}})", "s.json"), SceneError);
  BOOST_CHECK_NO_THROW(loadSceneText(base + R"("stop": {"time": 1}}})", "s.json"));
}

BOOST_AUTO_TEST_SUITE_END()
