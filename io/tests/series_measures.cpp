// Unit: the series' micromechanics, wall and packing columns against independent computations from
// the per-contact CSV written by the same run: the unbalanced force (Yade's definition) from each
// body's weight and contact forces, the coordination numbers from each body's contact count, each
// wall's force and torque from its contacts' forces; at rest the walls carry the bed's weight, to
// within the bound N x unbalanced x mean contact force; the step-0 row has nan in the columns of
// ledger_time and the packing fraction of a box holding the whole bed.
#include "io/runner.hpp"
#include "io/tests/box_bed_scene.hpp"
#include "io/scene_loader.hpp"

#include <boost/test/unit_test.hpp>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <limits>
#include <map>
#include <numbers>
#include <sstream>

using namespace dem;
using namespace dem::io;

namespace {
struct Table {
  std::vector<std::string> columns;
  std::vector<std::vector<double>> rows;
  std::size_t at(const std::string& name) const {
    const auto it = std::find(columns.begin(), columns.end(), name);
    BOOST_REQUIRE_MESSAGE(it != columns.end(), "no column " << name);
    return static_cast<std::size_t>(it - columns.begin());
  }
};

std::vector<std::string> cellsOf(const std::string& line) {
  std::vector<std::string> out;
  std::stringstream s(line);
  std::string cell;
  while (std::getline(s, cell, ',')) out.push_back(cell);
  return out;
}

Table readTable(const std::filesystem::path& file) {
  std::ifstream in(file);
  std::string line;
  Table t;
  std::getline(in, line);
  t.columns = cellsOf(line);
  while (std::getline(in, line)) {
    std::vector<double> row;
    for (const std::string& c : cellsOf(line)) row.push_back(std::strtod(c.c_str(), nullptr));
    BOOST_REQUIRE_EQUAL(row.size(), t.columns.size());
    t.rows.push_back(row);
  }
  return t;
}

Vec3 vecAt(const std::vector<double>& row, std::size_t k) { return {row[k], row[k + 1], row[k + 2]}; }

// The bed of box_bed_scene.hpp with every measure in the series and the contacts file.
const std::string kScene = test::boxBedScene(R"("steps": 20000)", R"("csv": {"interval": 4000, "micromechanics": true, "walls": true,
                      "packing": {"min": [0, 0, 0], "max": [0.04, 0.04, 0.05]}},
              "contacts": {"interval": 4000})");
}  // namespace

BOOST_AUTO_TEST_SUITE(series_measures)

BOOST_AUTO_TEST_CASE(recomputed_from_the_contacts_file) {
  const auto dir = std::filesystem::temp_directory_path() / "dem-series-measures";
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir);
  LoadedScene l = loadSceneText(kScene, "series_measures.json");
  l.run.outputs.directory = dir.string();
  const Particles p0 = l.scene.particles;
  const Vec3 g = l.scene.gravity;
  BOOST_REQUIRE(runScene(l.scene, l.run, RunOptions{}).finished);
  const Table series = readTable(dir / "series.csv"), contacts = readTable(dir / "contacts.csv");
  BOOST_REQUIRE_EQUAL(series.rows.size(), 6u);  // steps 0, 4000, ..., 20000

  // step 0: the initial state; nan where the columns refer to ledger_time
  const std::vector<double>& first = series.rows[0];
  BOOST_TEST(first[series.at("step")] == 0.0);
  for (const char* c : {"ledger_time", "total", "contacts", "unbalanced_force", "coordination", "w0_fz"})
    BOOST_TEST(std::isnan(first[series.at(c)]), c);
  double solid = 0.0, weight = 0.0;
  std::size_t spheres = 0;
  for (std::size_t i = 0; i < p0.size(); ++i)
    if (!p0.isWall(i)) {
      solid += 4.0 / 3.0 * std::numbers::pi * std::pow(p0.radius[i], 3);
      weight += p0.mass[i] * g.norm();
      ++spheres;
    }
  BOOST_TEST(first[series.at("packing_fraction")] == solid / (0.04 * 0.04 * 0.05), boost::test_tools::tolerance(1e-12));

  const std::size_t cStep = contacts.at("step"), cId1 = contacts.at("id1"), cId2 = contacts.at("id2"),
                    cPoint = contacts.at("cx"), cFn = contacts.at("fn_x"), cFs = contacts.at("fs_x");
  for (std::size_t r = 1; r < series.rows.size(); ++r) {
    const std::vector<double>& row = series.rows[r];
    const double step = row[series.at("step")];
    // Forces on each body: its weight, then -(fn + fs) as particle 1 and fn + fs as particle 2.
    std::vector<Vec3> force(p0.size(), Vec3::Zero());
    std::vector<int> count(p0.size(), 0);
    for (std::size_t i = 0; i < p0.size(); ++i) force[i] = p0.mass[i] * g;
    double sumContact = 0.0;
    std::size_t real = 0;
    std::map<std::size_t, std::pair<Vec3, Vec3>> walls;  // wall id -> force, torque
    for (std::size_t w = 0; w < 5; ++w) walls[w] = {Vec3::Zero(), Vec3::Zero()};
    for (const std::vector<double>& c : contacts.rows) {
      if (c[cStep] != step) continue;
      const auto i1 = static_cast<std::size_t>(c[cId1]), i2 = static_cast<std::size_t>(c[cId2]);
      const Vec3 f2 = vecAt(c, cFn) + vecAt(c, cFs);
      force[i1] -= f2;
      force[i2] += f2;
      ++count[i1];
      ++count[i2];
      sumContact += f2.norm();
      ++real;
      if (p0.isWall(i2)) {
        walls[i2].first += f2;
        walls[i2].second += (vecAt(c, cPoint) - p0.pos[i2]).cross(f2);
      }
    }
    BOOST_TEST(row[series.at("contacts")] == double(real));
    double sumBody = 0.0, n0 = 0.0, n1 = 0.0, sumCount = 0.0;
    for (std::size_t i = 0; i < p0.size(); ++i) {
      if (p0.isWall(i)) continue;
      sumBody += force[i].norm();
      sumCount += count[i];
      n0 += count[i] == 0;
      n1 += count[i] == 1;
    }
    const double n = double(spheres), meanContact = sumContact / double(real);
    const double unbalanced = sumBody / n / meanContact;
    BOOST_TEST_MESSAGE("step " << step << ": unbalanced " << unbalanced << ", Z " << sumCount / n);
    BOOST_TEST(std::abs(row[series.at("unbalanced_force")] - unbalanced) < 1e-9);
    BOOST_TEST(row[series.at("coordination")] == sumCount / n, boost::test_tools::tolerance(1e-15));
    BOOST_TEST(row[series.at("coordination_mechanical")] == (sumCount - n1) / (n - n0 - n1),
               boost::test_tools::tolerance(1e-15));
    Vec3 wallSum = Vec3::Zero();
    for (std::size_t w = 0; w < 5; ++w) {
      std::ostringstream fx, tx;
      fx << 'w' << w << "_fx";
      tx << 'w' << w << "_tx";
      const Vec3 f = vecAt(row, series.at(fx.str())), t = vecAt(row, series.at(tx.str()));
      BOOST_TEST((f - walls[w].first).norm() < 1e-9 * weight);
      BOOST_TEST((t - walls[w].second).norm() < 1e-9 * weight * 0.1);
      wallSum += f;
    }
    if (r + 1 == series.rows.size()) {
      // At rest the walls carry the weight: sum_walls F + W = -sum_i F_i, |.| <= N x unbalanced x mean |F_c|.
      const double bound = n * unbalanced * meanContact;
      BOOST_TEST_MESSAGE("walls carry " << -wallSum.z() << " N of " << weight << " N (bound " << bound << " N)");
      BOOST_TEST(std::abs(wallSum.z() + weight) <= bound * (1 + 1e-9));
      BOOST_TEST(std::abs(wallSum.z() + weight) < 0.01 * weight);
      BOOST_TEST(unbalanced < 0.01);
    }
  }
  std::filesystem::remove_all(dir);
}

// A piston: a sixth wall ("vel" in the scene file) moving down into the bed at a constant
// velocity. It is where point + vel t puts it (the leapfrog adds v dt each step: a few ulps of its
// position per step at most), and the series has the ledger's boundary work by default, as the
// scene ends with it.
BOOST_AUTO_TEST_CASE(a_moving_wall_moves_and_its_work_is_in_the_series) {
  const auto dir = std::filesystem::temp_directory_path() / "dem-series-piston";
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir);
  std::string text = test::boxBedScene(R"("steps": 1000)", R"("csv": {"interval": 500})");
  const std::string top = R"({"point": [0, 0, 0.06], "normal": [0, 0, -1], "material": "m", "vel": [0, 0, -0.5]},)";
  text.insert(text.find("\"walls\": [") + 10, top);
  LoadedScene l = loadSceneText(text, "piston.json");
  l.run.outputs.directory = dir.string();
  BOOST_REQUIRE(l.scene.particles.isWall(0));
  BOOST_REQUIRE(runScene(l.scene, l.run, RunOptions{}).finished);
  const double t = l.scene.time, z = l.scene.particles.pos[0].z();
  BOOST_TEST(std::abs(z - (0.06 - 0.5 * t)) <= 1000 * 4 * std::numeric_limits<double>::epsilon() * 0.06);
  BOOST_TEST((l.scene.particles.vel[0] == Vec3(0, 0, -0.5)));
  const Table series = readTable(dir / "series.csv");
  BOOST_TEST(series.rows.back()[series.at("boundary_work")] == l.scene.energy.boundaryWork);
  BOOST_TEST(l.scene.energy.boundaryWork != 0.0);  // the piston reached the bed (at 0.04 m in the end)
}

BOOST_AUTO_TEST_SUITE_END()
