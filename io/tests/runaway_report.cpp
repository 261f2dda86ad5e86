// Unit: a run with dt far above the critical timestep stops with a runaway report (step, particle,
// estimated critical dt below dt) and writes the last good state, which loads back and is finite.
#include "io/checkpoint.hpp"
#include "io/runner.hpp"
#include "io/scene_loader.hpp"

#include <boost/test/unit_test.hpp>

#include <filesystem>

using namespace dem;
using namespace dem::io;

BOOST_AUTO_TEST_SUITE(runaway_report)

BOOST_AUTO_TEST_CASE(unstable_dt_is_reported_and_last_good_state_kept) {
  const auto dir = std::filesystem::temp_directory_path() / "dem-runaway-test";
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir);
  // A lattice of touching spheres pressed together; dt = 10 x the p-wave estimate r sqrt(rho/E).
  const std::string scene = R"({
    "materials": [{"name": "m", "density": 1000, "young": 1e7}],
    "walls": [{"point": [0, 0, 0], "normal": [0, 0, 1], "material": "m"}],
    "generators": [{"type": "lattice", "origin": [0, 0, 0.0095], "spacing": 0.019, "count": [3, 3, 3],
                    "radius": 0.01, "material": "m"}],
    "engine": {"dt": 1e-3, "steps": 5000, "gravity": [0, 0, -9.81]},
    "outputs": {"progress": false}
  })";
  LoadedScene l = loadSceneText(scene, "runaway.json");
  l.run.outputs.directory = dir.string();
  const double pWave = 0.01 * std::sqrt(1000.0 / 1e7);
  BOOST_TEST(l.scene.dt() > 5 * pWave);
  const RunOutcome r = runScene(l.scene, l.run, RunOptions{});
  BOOST_REQUIRE(r.runaway.has_value());
  BOOST_TEST(!r.finished);
  BOOST_TEST_MESSAGE("runaway: " << r.runaway->what() << " at step " << r.runaway->step << ", particle "
                                 << r.runaway->particle << ", dt_crit " << r.runaway->dtCritical);
  BOOST_TEST(r.runaway->step < 5000u);
  BOOST_TEST(r.runaway->particle < l.scene.particles.size());
  BOOST_TEST(r.runaway->dt == 1e-3);
  BOOST_TEST(r.runaway->dtCritical < r.runaway->dt);
  BOOST_TEST(r.runaway->dtCritical > 0.0);
  BOOST_TEST(r.lastGoodStep <= r.runaway->step);
  const Scene good = loadCheckpoint(r.lastGoodPath);
  BOOST_TEST(good.stepCount == r.lastGoodStep);
  BOOST_CHECK_NO_THROW(good.particles.checkFinite());
  std::filesystem::remove_all(dir);
}

BOOST_AUTO_TEST_SUITE_END()
