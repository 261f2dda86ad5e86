// Unit: the VTK files dem-run writes parse back (io/vtu_reader.hpp checks the XML and the VTK
// structure) and carry exactly the values written (17 significant digits read back to the same
// doubles): positions, radius, velocity, angular velocity, force; contacts as lines with their
// normal force; the .pvd collection lists each snapshot with its time. A scene whose spheres were
// moved to other slots (Scene::renumber) writes the same bytes in every output (VTK, contacts and
// series CSV): bodies and contacts in the order of user ids, named by user ids.
#include "io/contacts_output.hpp"
#include "io/csv_output.hpp"
#include "io/vtk_output.hpp"
#include "io/vtu_reader.hpp"
#include "shuffled_slots.hpp"
#include "solver/builders.hpp"

#include <boost/test/unit_test.hpp>

#include <filesystem>
#include <fstream>
#include <sstream>

using namespace dem;
using namespace dem::io;

namespace {
std::string slurp(const std::string& path) {
  std::ifstream in(path);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

Scene settlingBed() {
  DepositionSpec spec;
  spec.n = 60;
  Scene s = depositionScene(spec);
  s.run(3000);
  return s;
}
}  // namespace

BOOST_AUTO_TEST_SUITE(vtk_roundtrip)

BOOST_AUTO_TEST_CASE(particles_parse_back_with_the_written_values) {
  const Scene s = settlingBed();
  const VtuGrid g = parseVtu(particlesVtu(s));
  const Particles& p = s.particles;
  std::vector<std::size_t> spheres;
  for (std::size_t i = 0; i < p.size(); ++i)
    if (!p.isBoundary(i)) spheres.push_back(i);
  BOOST_REQUIRE(g.nPoints == spheres.size());
  BOOST_TEST(g.nCells == spheres.size());
  for (const char* name : {"id", "radius", "velocity", "angularVelocity", "force", "torque", "material", "orientation",
                           "angularMomentum", "bodyOrientation", "bodyAngularMomentum", "clump"})
    BOOST_TEST(g.pointData.count(name) == 1u, name);
  for (std::size_t k = 0; k < spheres.size(); ++k) {
    const std::size_t i = spheres[k];
    BOOST_TEST(g.types[k] == 1.0);  // VTK_VERTEX
    BOOST_TEST(g.pointData.at("id").values[k] == static_cast<double>(i));
    BOOST_TEST(g.pointData.at("radius").values[k] == p.radius[i]);
    for (int a = 0; a < 3; ++a) {
      BOOST_TEST(g.points[3 * k + a] == p.pos[i][a]);
      BOOST_TEST(g.pointData.at("velocity").values[3 * k + a] == p.vel[i][a]);
      BOOST_TEST(g.pointData.at("angularVelocity").values[3 * k + a] == p.angVel[i][a]);
      BOOST_TEST(g.pointData.at("force").values[3 * k + a] == p.force[i][a]);
      // a sphere's angular momentum: I w (independent of the orientation)
      BOOST_TEST(g.pointData.at("angularMomentum").values[3 * k + a] == p.inertia[i][0] * p.angVel[i][a]);
    }
    const Quat& q = p.ori[i];
    const double* o = &g.pointData.at("orientation").values[4 * k];
    BOOST_TEST((o[0] == q.w() && o[1] == q.x() && o[2] == q.y() && o[3] == q.z()));
    BOOST_TEST(g.pointData.at("clump").values[k] == -1.0);
  }
}

BOOST_AUTO_TEST_CASE(contacts_parse_back_as_lines_with_normal_force) {
  const Scene s = settlingBed();
  const VtuGrid g = parseVtu(contactsVtu(s));
  const std::size_t real = s.contacts.countReal();
  BOOST_REQUIRE(real > 10u);
  BOOST_REQUIRE(g.nCells == real);
  BOOST_TEST(g.nPoints == 2 * real);
  std::size_t k = 0;
  for (const std::size_t index : realContactsByUserIds(s.particles, s.contacts)) {  // (the lines' order)
    const Contact c = s.contacts.get(index);
    BOOST_TEST(g.types[k] == 3.0);  // VTK_LINE
    BOOST_TEST(g.offsets[k] == static_cast<double>(2 * k + 2));
    BOOST_TEST(g.cellData.at("id1").values[k] == static_cast<double>(c.id1));
    BOOST_TEST(g.cellData.at("normalForce").values[k] == std::abs(c.force.dot(c.normal)));
    BOOST_TEST(g.cellData.at("normalForce").values[k] > 0.0);
    for (int a = 0; a < 3; ++a) BOOST_TEST(g.points[6 * k + a] == s.particles.pos[c.id1][a]);
    ++k;
  }
}

BOOST_AUTO_TEST_CASE(renumbered_scene_writes_the_same_bytes) {
  Scene straight = settlingBed();
  straight.setUserIdSums(true);  // (the same sums whatever the slots: Scene::setUserIdSums)
  Scene moved = straight;
  moved.renumber(test::shuffledSlots(moved.particles, 7));
  BOOST_REQUIRE(!moved.particles.userOrder);
  const auto dir = std::filesystem::temp_directory_path() / "dem-vtk-renumbered";
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir);
  const auto write = [&](const Scene& s, const std::string& name) {
    ContactsOutput contacts((dir / (name + "_contacts.csv")).string(), false);
    contacts.write(s);
    contacts.close();
    CsvOutput series((dir / (name + ".csv")).string(), {0, 5, 17, 60}, false);
    series.write(s);
    series.close();
    return particlesVtu(s) + contactsVtu(s) + boundariesVtu(s) + slurp((dir / (name + "_contacts.csv")).string()) +
           slurp((dir / (name + ".csv")).string());
  };
  for (int round = 0; round < 2; ++round) {  // as moved, and after more steps (the same bits)
    const std::string a = write(straight, "straight"), b = write(moved, "moved");
    BOOST_TEST(a.size() > 10000u);
    BOOST_TEST((a == b));
    straight.run(500);
    moved.run(500);
  }
  std::filesystem::remove_all(dir);
}

BOOST_AUTO_TEST_CASE(periodic_cell_parses_back_as_a_parallelepiped) {
  Scene s;
  s.materials.push_back(Material{});
  Mat3 H;
  H << 1.0, 0.3, 0.0, 0.0, 0.9, 0.1, 0.0, 0.0, 1.2;  // columns: side vectors
  s.setCell(Cell(H));
  s.particles.add(sphereSpec(Vec3(0.05, 0.5, 0.5), 0.1, 1000));
  s.particles.add(sphereSpec(Vec3(1.2, 0.5, 0.5), 0.1, 1000));  // overlaps particle 0's image across x
  s.setDt(1e-5);
  s.run(1);
  s.stress(0, 1) = 2.5;  // any value: it is written as it is
  const VtuGrid g = parseVtu(cellVtu(s));
  BOOST_REQUIRE(g.nPoints == 8u);
  BOOST_REQUIRE(g.nCells == 1u);
  BOOST_TEST(g.types[0] == 12.0);  // VTK_HEXAHEDRON
  BOOST_TEST(g.offsets[0] == 8.0);
  const Vec3 a = H.col(0), b = H.col(1), c = H.col(2);
  const Vec3 corners[8] = {Vec3::Zero(), a, a + b, b, c, a + c, a + b + c, b + c};
  for (int k = 0; k < 8; ++k) {
    BOOST_TEST(g.connectivity[static_cast<std::size_t>(k)] == k);
    for (int w = 0; w < 3; ++w) BOOST_TEST(g.points[static_cast<std::size_t>(3 * k + w)] == corners[k][w]);
  }
  for (int r = 0; r < 3; ++r)
    for (int k = 0; k < 3; ++k) {
      BOOST_TEST(g.cellData.at("H").values[static_cast<std::size_t>(3 * r + k)] == s.cell->H()(r, k));
      BOOST_TEST(g.cellData.at("stress").values[static_cast<std::size_t>(3 * r + k)] == s.stress(r, k));
    }
  BOOST_TEST(g.cellData.at("H").components == 9);
  BOOST_TEST(g.cellData.at("volume").values[0] == s.cell->volume());
  // The contact across the boundary ends at the image of particle 1 (x + H cellDist).
  BOOST_REQUIRE(s.contacts.countReal() == 1u);
  const Contact& ct = s.contacts.get(0);
  BOOST_TEST(ct.cellDist[0] != 0);
  const VtuGrid lines = parseVtu(contactsVtu(s));
  const Vec3 image = s.particles.pos[ct.id2] + s.cell->H() * ct.cellDist.cast<double>();
  for (int w = 0; w < 3; ++w) BOOST_TEST(lines.points[static_cast<std::size_t>(3 + w)] == image[w]);
}

BOOST_AUTO_TEST_CASE(collection_lists_the_snapshots) {
  const auto dir = std::filesystem::temp_directory_path() / "dem-vtk-test";
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir);
  DepositionSpec spec;
  spec.n = 20;
  Scene s = depositionScene(spec);
  VtkOutput out(dir.string(), "snap", true);
  out.write(s);
  s.run(100);
  out.write(s);
  out.write(s);  // same step: no second entry
  const auto sets = parsePvd(slurp((dir / "snap.pvd").string()));
  BOOST_REQUIRE(sets.size() == 2u);
  BOOST_TEST(sets[0].time == 0.0);
  BOOST_TEST(sets[1].time == s.time);
  for (const auto& d : sets) {
    const VtuGrid g = parseVtu(slurp((dir / d.file).string()));
    BOOST_TEST(g.nPoints == 20u);
  }
  BOOST_TEST(parsePvd(slurp((dir / "snap_contacts.pvd").string())).size() == 2u);
  std::filesystem::remove_all(dir);
}

BOOST_AUTO_TEST_CASE(reader_rejects_malformed_files) {
  const Scene s = settlingBed();
  std::string text = particlesVtu(s);
  BOOST_CHECK_THROW(parseVtu(text.substr(0, text.size() / 2)), std::runtime_error);
  std::string wrongCount = text;
  wrongCount.replace(wrongCount.find("NumberOfPoints=\""), 17, "NumberOfPoints=\"9");
  BOOST_CHECK_THROW(parseVtu(wrongCount), std::runtime_error);
}

BOOST_AUTO_TEST_SUITE_END()
