// Unit: a checkpoint streamed to its file (saveCheckpoint through io/buffered_file.hpp) holds the
// bytes of checkpointBytes, seal included, for a sheared periodic packing with real contacts and an
// output state; and the buffered file's bytes and running FNV-1a hash, for pieces of every size
// around its buffer's, are those of the whole written at once.
#include "io/buffered_file.hpp"
#include "io/checkpoint.hpp"
#include "io/scene_loader.hpp"

#include <boost/test/unit_test.hpp>

#include <filesystem>
#include <fstream>
#include <random>
#include <sstream>

using namespace dem;
using namespace dem::io;

namespace {

std::string fileBytes(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

// The sheared example after a few hundred steps: contacts real and potential, across the boundary.
Scene shearedPackingScene() {
  LoadedScene l = loadSceneFile(std::string(DEM_SOURCE_DIR) + "/examples/sheared_periodic_packing.json");
  l.scene.run(300);
  return std::move(l.scene);
}

const auto kStreamDir = std::filesystem::temp_directory_path() / "dem-streamed-checkpoint-test";

}  // namespace

BOOST_AUTO_TEST_SUITE(streamed_checkpoint)

BOOST_AUTO_TEST_CASE(streamed_file_holds_the_checkpoint_bytes) {
  const Scene s = shearedPackingScene();
  BOOST_REQUIRE(s.cell.has_value());
  std::size_t real = 0;
  for (const Contact& c : s.contacts.records()) real += c.real;
  BOOST_REQUIRE(real > 0);
  OutputState outputs;
  outputs.files.push_back({OutputRecord::Kind::Appended, "series.csv", 1234, 0x0123456789abcdefull, 0, false});
  std::filesystem::create_directories(kStreamDir);
  const std::string file = (kStreamDir / "streamed.ckpt").string();
  saveCheckpoint(s, file, outputs);
  const std::string expected = checkpointBytes(s, outputs);
  std::string unsealed;
  checkpointBytes(s, outputs, unsealed);
  sealCheckpoint(unsealed);
  BOOST_TEST(unsealed == expected);
  BOOST_TEST(fileBytes(file) == expected);
  BOOST_TEST(!std::filesystem::exists(file + ".tmp"));
  std::filesystem::remove_all(kStreamDir);
}

BOOST_AUTO_TEST_CASE(buffered_file_bytes_and_hash_match_the_whole) {
  std::filesystem::create_directories(kStreamDir);
  const std::string file = (kStreamDir / "buffered.bin").string();
  std::mt19937 rng(7);
  const std::size_t B = BufferedFile::kBufferBytes;
  std::string whole;
  BufferedFile out(file);
  for (const std::size_t n : {std::size_t{1}, std::size_t{8}, B - 20, std::size_t{50}, B, B + 3, std::size_t{0},
                              std::size_t{24}, 2 * B + 1, std::size_t{8}}) {
    std::string piece(n, '\0');
    for (char& c : piece) c = static_cast<char>(rng());
    out.write(piece);
    whole += piece;
    BOOST_TEST(out.hash() == fnv1a64(whole));
  }
  out.close();
  BOOST_TEST(fileBytes(file) == whole);
  std::filesystem::remove_all(kStreamDir);
}

BOOST_AUTO_TEST_SUITE_END()
