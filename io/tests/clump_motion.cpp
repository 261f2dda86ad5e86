// Unit: a clump's vel and angVel in the scene file. After load, the momentum and angular momentum
// of the members (about the centroid) equal m_c v and I_c w, with m_c, the centroid and I_c computed
// here from the member spheres (parallel-axis theorem: I_c = sum 2/5 m r^2 E + m (|d|^2 E - d d^T));
// the clump body carries v, w and L = I_c w; without the keys a clump of resting members is at rest.
#include "io/runner.hpp"
#include "io/scene_loader.hpp"
#include "io/vtk_output.hpp"
#include "io/vtu_reader.hpp"

#include <Eigen/Eigenvalues>

#include <boost/test/unit_test.hpp>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <numbers>
#include <sstream>

using namespace dem;
using namespace dem::io;

namespace {
std::string clumpScene(const std::string& motion) {
  return R"({
    "materials": [{"name": "m", "density": 1200, "young": 1e7}],
    "particles": [{"pos": [0, 0, 0.5], "radius": 0.05, "material": "m", "vel": [9, 9, 9]},
                  {"pos": [0.1, 0, 0.5], "radius": 0.05, "material": "m"},
                  {"pos": [0, 0.08, 0.52], "radius": 0.03, "material": "m"}],
    "clumps": [{"members": [0, 1, 2])" +
         motion + R"(}],
    "engine": {"dt": 1e-5, "steps": 1}
  })";
}
// The mass, centroid and inertia about it of the three member spheres (density 1200), computed here.
struct MemberMass {
  double m = 0.0;
  Vec3 xc = Vec3::Zero();
  Mat3 I = Mat3::Zero();
};
double memberMass(const Particles& p, std::size_t i) {
  return 1200.0 * 4.0 / 3.0 * std::numbers::pi * std::pow(p.radius[i], 3);
}
MemberMass memberMassProperties(const Particles& p) {
  MemberMass r;
  for (std::size_t i = 0; i < 3; ++i) {
    r.m += memberMass(p, i);
    r.xc += memberMass(p, i) * p.pos[i];
  }
  r.xc /= r.m;
  for (std::size_t i = 0; i < 3; ++i) {
    const double mi = memberMass(p, i);
    const Vec3 d = p.pos[i] - r.xc;
    r.I += 0.4 * mi * p.radius[i] * p.radius[i] * Mat3::Identity() +
           mi * (d.squaredNorm() * Mat3::Identity() - d * d.transpose());
  }
  return r;
}
}  // namespace

BOOST_AUTO_TEST_SUITE(clump_motion)

BOOST_AUTO_TEST_CASE(momentum_and_angular_momentum_after_load) {
  const Vec3 v(2, -1, 0.5), w(1, 3, 10);
  const LoadedScene l = loadSceneText(clumpScene(R"(, "vel": [2, -1, 0.5], "angVel": [1, 3, 10])"), "c.json");
  const Particles& p = l.scene.particles;
  const std::size_t body = 3;
  BOOST_REQUIRE(p.isClump[body]);
  // mass properties from the spheres; the members' momentum and angular momentum about the centroid
  const auto [m, xc, I] = memberMassProperties(p);
  Vec3 P = Vec3::Zero(), L = Vec3::Zero();
  for (std::size_t i = 0; i < 3; ++i) {
    const double mi = memberMass(p, i);
    P += mi * p.vel[i];
    L += mi * (p.pos[i] - xc).cross(p.vel[i]) + 0.4 * mi * p.radius[i] * p.radius[i] * p.angVel[i];
  }
  BOOST_TEST(p.mass[body] == m, boost::test_tools::tolerance(1e-12));
  BOOST_TEST((p.pos[body] - xc).norm() < 1e-14);
  BOOST_TEST((P - m * v).norm() < 1e-12 * m * v.norm());
  BOOST_TEST((L - I * w).norm() < 1e-12 * (I * w).norm());
  BOOST_TEST((p.vel[body] - v).norm() == 0.0);
  BOOST_TEST((p.angVel[body] - w).norm() == 0.0);
  BOOST_TEST((p.angMomOf(body) - I * w).norm() < 1e-12 * (I * w).norm());
  // VTK: each member's point carries the clump's orientation and angular momentum, and its id
  const VtuGrid g = parseVtu(particlesVtu(l.scene));
  BOOST_REQUIRE_EQUAL(g.nPoints, 3u);
  for (std::size_t k = 0; k < 3; ++k) {
    BOOST_TEST(g.pointData.at("clump").values[k] == 3.0);
    for (int a = 0; a < 3; ++a)
      BOOST_TEST(g.pointData.at("bodyAngularMomentum").values[3 * k + a] == p.angMomOf(body)[a]);
    BOOST_TEST(g.pointData.at("bodyOrientation").values[4 * k] == p.ori[body].w());
  }
}

BOOST_AUTO_TEST_CASE(from_the_members_without_the_keys) {
  // only the first member moves (9, 9, 9): the clump takes the members' momentum
  const LoadedScene l = loadSceneText(clumpScene(""), "c.json");
  const Particles& p = l.scene.particles;
  Vec3 P = Vec3::Zero();
  for (std::size_t i = 0; i < 3; ++i) P += p.mass[i] * p.vel[i];
  BOOST_TEST((P - p.mass[3] * p.vel[3]).norm() < 1e-12 * P.norm());
  BOOST_TEST(p.vel[3].norm() > 0.0);
  // a given angVel alone keeps that velocity
  const LoadedScene k = loadSceneText(clumpScene(R"(, "angVel": [0, 0, 5])"), "c.json");
  BOOST_TEST((k.scene.particles.vel[3] - p.vel[3]).norm() == 0.0);
  BOOST_TEST((k.scene.particles.angVel[3] - Vec3(0, 0, 5)).norm() == 0.0);
}

// The clump table and the series' orientation and angular momentum columns: mass, centroid and
// principal moments against the spheres' (eigenvalues of the I_c above); L = I_c w at step 0 and
// the same bits at every later row (no torque: the integrator's L_new = L + T dt keeps it), a unit
// quaternion whose rotation maps the principal moments onto I_c; a member's L its own spin I_i w.
BOOST_AUTO_TEST_CASE(clump_table_and_series) {
  const auto dir = std::filesystem::temp_directory_path() / "dem-clump-table";
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir);
  std::string text = clumpScene(R"(, "vel": [2, -1, 0.5], "angVel": [1, 3, 10])");
  text.replace(text.find(R"("engine": {"dt": 1e-5, "steps": 1})"), 34,
               R"("engine": {"dt": 1e-5, "steps": 300}, "outputs": {"progress": false, "final": null,
                   "csv": {"interval": 100, "particles": [3, 1]}})");
  LoadedScene l = loadSceneText(text, "c.json");
  l.run.outputs.directory = dir.string();
  const Particles p0 = l.scene.particles;
  BOOST_REQUIRE(runScene(l.scene, l.run, RunOptions{}).finished);
  const auto [m, xc, I] = memberMassProperties(p0);
  const Vec3 principal = Eigen::SelfAdjointEigenSolver<Mat3>(I).eigenvalues();
  std::ifstream table(dir / "clumps.csv");
  std::string header, row;
  std::getline(table, header);
  std::getline(table, row);
  BOOST_TEST(header == "id,members,mass,x,y,z,I1,I2,I3,qw,qx,qy,qz");
  std::vector<double> t;
  std::stringstream rs(row);
  for (std::string c; std::getline(rs, c, ',');) t.push_back(std::stod(c));
  BOOST_REQUIRE_EQUAL(t.size(), 13u);
  BOOST_TEST(t[0] == 3.0);
  BOOST_TEST(t[1] == 3.0);
  BOOST_TEST(t[2] == m, boost::test_tools::tolerance(1e-12));
  BOOST_TEST((Vec3(t[3], t[4], t[5]) - xc).norm() < 1e-14);
  Vec3 moments(t[6], t[7], t[8]);
  std::sort(moments.data(), moments.data() + 3);
  BOOST_TEST((moments - principal).norm() < 1e-12 * principal.norm());
  const Quat q(t[9], t[10], t[11], t[12]);
  BOOST_TEST(std::abs(q.norm() - 1.0) < 1e-14);
  const Mat3 R = q.toRotationMatrix();
  BOOST_TEST((R * Vec3(t[6], t[7], t[8]).asDiagonal() * R.transpose() - I).norm() < 1e-12 * I.norm());

  std::ifstream series(dir / "series.csv");
  std::getline(series, header);
  std::vector<std::string> columns;
  std::stringstream hs(header);
  for (std::string c; std::getline(hs, c, ',');) columns.push_back(c);
  const auto at = [&](const std::string& name) {
    return static_cast<std::size_t>(std::find(columns.begin(), columns.end(), name) - columns.begin());
  };
  const Vec3 L0 = I * Vec3(1, 3, 10);
  int rows = 0;
  for (; std::getline(series, row); ++rows) {
    std::vector<double> v;
    std::stringstream s(row);
    for (std::string c; std::getline(s, c, ',');) v.push_back(std::stod(c));
    const Vec3 L(v[at("p3_Lx")], v[at("p3_Ly")], v[at("p3_Lz")]);
    BOOST_TEST((L - L0).norm() < 1e-12 * L0.norm(), "row " << rows);
    const Quat qc(v[at("p3_qw")], v[at("p3_qx")], v[at("p3_qy")], v[at("p3_qz")]);
    BOOST_TEST(std::abs(qc.norm() - 1.0) < 1e-14);
    const double I1 = 0.4 * p0.mass[1] * p0.radius[1] * p0.radius[1];
    const Vec3 w1(v[at("p1_wx")], v[at("p1_wy")], v[at("p1_wz")]);
    BOOST_TEST((Vec3(v[at("p1_Lx")], v[at("p1_Ly")], v[at("p1_Lz")]) - I1 * w1).norm() < 1e-14 * I1 * w1.norm());
  }
  BOOST_TEST(rows == 4);  // steps 0, 100, 200, 300
  std::filesystem::remove_all(dir);
}

BOOST_AUTO_TEST_SUITE_END()
