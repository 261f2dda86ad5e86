// Unit: runScene runs with the scene's thread count (engine.threads) and restores the caller's
// afterwards; without engine.threads it keeps the caller's. The count in effect is read inside the
// run, at every step, through Scene::externalForces.
#include "io/runner.hpp"
#include "io/scene_loader.hpp"

#include <boost/test/unit_test.hpp>

#include <omp.h>

#include <filesystem>
#include <set>

using namespace dem;
using namespace dem::io;

namespace {

// The thread counts seen at the steps of a run of a small scene with `threads` (0: no key).
std::set<int> threadCountsInRun(int threads) {
  const std::string engine = threads > 0 ? R"(, "threads": )" + std::to_string(threads) : std::string();
  LoadedScene l = loadSceneText(R"({
    "materials": [{"name": "m", "density": 1000, "young": 1e7}],
    "particles": [{"pos": [0, 0, 0], "radius": 0.01, "material": "m"}],
    "engine": {"dt": 1e-5, "steps": 20)" + engine + R"(},
    "outputs": {"progress": false, "final": null}
  })",
                                "run_threads.json");
  const auto dir = std::filesystem::temp_directory_path() / "dem-run-threads";
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir);
  l.run.outputs.directory = dir.string();
  std::set<int> seen;
  l.scene.externalForces = [&seen](Particles&, double) { seen.insert(omp_get_max_threads()); };
  BOOST_REQUIRE(runScene(l.scene, l.run, RunOptions{}).finished);
  return seen;
}

}  // namespace

BOOST_AUTO_TEST_SUITE(run_threads)

BOOST_AUTO_TEST_CASE(the_scene_thread_count_for_the_run_only) {
  const int caller = omp_get_max_threads();
  const int asked = caller == 3 ? 2 : 3;
  BOOST_TEST((threadCountsInRun(asked) == std::set<int>{asked}));
  BOOST_TEST(omp_get_max_threads() == caller);
  BOOST_TEST((threadCountsInRun(0) == std::set<int>{caller}));
  BOOST_TEST(omp_get_max_threads() == caller);
}

BOOST_AUTO_TEST_SUITE_END()
