// Unit: outputs on a restart (io/output_files.hpp, VtkOutput::restore). A CSV cut back to the
// length and checksum a checkpoint recorded, then appended to, has the bytes of an uninterrupted
// series, whatever the interrupted run left after that length (rows, half a row); a file shorter
// than the record, or whose bytes differ, or missing, is refused with OutputResumeError naming it.
// VTK collections are cut back to their recorded entries and later snapshots (and leftover
// temporaries) removed. Checkpoint format 4 carries the records; older files (versions 1 and 3
// read here) have none. A write to
// a full disk fails naming the file and the system's reason.
#include "io/checkpoint.hpp"
#include "io/csv_output.hpp"
#include "io/output_files.hpp"
#include "io/vtk_output.hpp"
#include "solver/builders.hpp"

#include <boost/test/unit_test.hpp>

#include <filesystem>
#include <fstream>
#include <sstream>

using namespace dem;
using namespace dem::io;

namespace {

const auto kResumeDir = std::filesystem::temp_directory_path() / "dem-output-resume-test";

std::string resumeSlurp(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

void resumeAppendRaw(const std::filesystem::path& path, const std::string& bytes) {
  std::ofstream out(path, std::ios::binary | std::ios::app);
  out << bytes;
}

Scene resumeScene() {
  DepositionSpec spec;
  spec.n = 20;
  return depositionScene(spec);
}

// The message of the OutputResumeError that f throws ("" and a test error when none).
template <class F>
std::string refusal(F&& f) {
  try {
    f();
  } catch (const OutputResumeError& e) {
    return e.what();
  }
  BOOST_ERROR("not refused");
  return {};
}

}  // namespace

BOOST_AUTO_TEST_SUITE(output_resume)

BOOST_AUTO_TEST_CASE(csv_is_cut_back_to_the_checkpoint) {
  std::filesystem::remove_all(kResumeDir);
  std::filesystem::create_directories(kResumeDir);
  const auto straight = kResumeDir / "straight.csv", resumed = kResumeDir / "resumed.csv";
  OutputRecord atCheckpoint;
  {
    Scene a = resumeScene(), b = resumeScene();
    CsvOutput s(straight.string(), {3}, false), r(resumed.string(), {3}, false);
    for (int k = 0; k < 5; ++k) {
      a.run(20);
      b.run(20);
      s.write(a);
      r.write(b);
      if (k == 2) {
        r.sync();
        atCheckpoint = r.record("resumed.csv");
      }
    }
    s.close();
    r.close();
  }
  BOOST_TEST(atCheckpoint.offset < std::filesystem::file_size(resumed));
  resumeAppendRaw(resumed, "100,0.0020000000000000");  // half a row, as a kill leaves it
  // The resumed run: from the checkpoint's state (step 60), its rows appended after the cut.
  {
    Scene c = resumeScene();
    c.run(60);
    CsvOutput r(resumed.string(), {3}, true, false, &atCheckpoint, "restart.ckpt");
    for (int k = 3; k < 5; ++k) {
      c.run(20);
      r.write(c);
    }
    r.close();
  }
  BOOST_TEST((resumeSlurp(resumed) == resumeSlurp(straight)));
  std::filesystem::remove_all(kResumeDir);
}

BOOST_AUTO_TEST_CASE(short_changed_or_missing_files_are_refused) {
  std::filesystem::remove_all(kResumeDir);
  std::filesystem::create_directories(kResumeDir);
  const auto file = kResumeDir / "series.csv";
  OutputRecord rec;
  {
    Scene a = resumeScene();
    CsvOutput s(file.string(), std::vector<std::size_t>{}, false);
    for (int k = 0; k < 3; ++k) {
      a.run(10);
      s.write(a);
    }
    s.sync();
    rec = s.record("series.csv");
    s.close();
  }
  const std::string good = resumeSlurp(file);
  const auto restore = [&] { CsvOutput(file.string(), {}, true, false, &rec, "restart.ckpt"); };

  std::filesystem::resize_file(file, rec.offset - 10);
  std::string m = refusal(restore);
  BOOST_TEST_INFO(m);
  BOOST_TEST(m.find(file.string() + ": the file is shorter (" + std::to_string(rec.offset - 10) + " bytes)") == 0u);
  BOOST_TEST(m.find("restart.ckpt") != std::string::npos);
  BOOST_TEST(std::filesystem::file_size(file) == rec.offset - 10);  // left as it was

  std::string changed = good;
  changed[rec.offset / 2] = changed[rec.offset / 2] == '1' ? '2' : '1';
  std::ofstream(file, std::ios::binary | std::ios::trunc) << changed;
  m = refusal(restore);
  BOOST_TEST_INFO(m);
  BOOST_TEST(m.find(file.string() + ": its first " + std::to_string(rec.offset) + " bytes do not match the checksum") == 0u);
  BOOST_TEST((resumeSlurp(file) == changed));

  std::filesystem::remove(file);
  m = refusal(restore);
  BOOST_TEST_INFO(m);
  BOOST_TEST(m.find(file.string() + ": cannot open") == 0u);
  BOOST_TEST(m.find("No such file or directory") != std::string::npos);

  // The intact file with rows after the record is accepted and cut back.
  std::ofstream(file, std::ios::binary | std::ios::trunc) << good << "40,1e-3";
  BOOST_CHECK_NO_THROW(restore());
  BOOST_TEST((resumeSlurp(file) == good));
  std::filesystem::remove_all(kResumeDir);
}

BOOST_AUTO_TEST_CASE(vtk_collections_are_cut_back_and_later_snapshots_removed) {
  std::filesystem::remove_all(kResumeDir);
  std::filesystem::create_directories(kResumeDir);
  const std::string dir = kResumeDir.string();
  Scene s = resumeScene();
  OutputState state;
  std::string pvdAtCheckpoint;
  {
    VtkOutput vtk(dir, "p", true);
    for (int k = 0; k < 5; ++k) {
      vtk.write(s);
      if (k == 2) {
        vtk.records(state.files);
        pvdAtCheckpoint = resumeSlurp(kResumeDir / "p.pvd");
      }
      s.run(10);
    }
  }
  BOOST_REQUIRE(state.files.size() == 3u);  // p.pvd, p_contacts.pvd, p_walls.pvd (the scene has walls)
  BOOST_TEST(state.files[2].file == "p_walls.pvd");
  BOOST_TEST(state.files[0].file == "p.pvd");
  BOOST_TEST(state.files[0].hasSnapshot);
  BOOST_TEST(state.files[0].lastStep == 20u);
  BOOST_TEST(std::filesystem::exists(kResumeDir / "p_000000040.vtu"));
  resumeAppendRaw(kResumeDir / "p_000000050.vtu.tmp", "<?xml");  // a write the kill interrupted
  {
    Scene at20 = resumeScene();
    at20.run(20);
    VtkOutput vtk(dir, "p", true);
    vtk.removeTemporaries();
    BOOST_TEST(vtk.restore(at20, state, "restart.ckpt"));
  }
  BOOST_TEST((resumeSlurp(kResumeDir / "p.pvd") == pvdAtCheckpoint));
  for (const char* f : {"p_000000020.vtu", "p_contacts_000000020.vtu", "p_walls_000000020.vtu"})
    BOOST_TEST(std::filesystem::exists(kResumeDir / f));
  for (const char* f : {"p_000000030.vtu", "p_000000040.vtu", "p_contacts_000000040.vtu", "p_walls_000000040.vtu",
                        "p_000000050.vtu.tmp"})
    BOOST_TEST(!std::filesystem::exists(kResumeDir / f));

  // A collection whose recorded entries were changed is refused.
  std::string pvd = pvdAtCheckpoint;
  pvd.replace(pvd.find("p_000000010.vtu"), 15, "p_000000011.vtu");
  std::ofstream(kResumeDir / "p.pvd", std::ios::binary | std::ios::trunc) << pvd;
  const std::string m = refusal([&] {
    VtkOutput vtk(dir, "p", true);
    vtk.restore(s, state, "restart.ckpt");
  });
  BOOST_TEST_INFO(m);
  BOOST_TEST(m.find((kResumeDir / "p.pvd").string() + ": its first") == 0u);
  std::filesystem::remove_all(kResumeDir);
}

BOOST_AUTO_TEST_CASE(checkpoint_format_4_carries_the_output_state) {
  Scene s = resumeScene();
  s.run(10);
  OutputState state;
  state.files.push_back({OutputRecord::Kind::Appended, "series.csv", 1234, 0x1234567890abcdefull, 0, false});
  state.files.push_back({OutputRecord::Kind::Collection, "p.pvd", 456, 42, 10, true});
  CheckpointInfo info;
  const Scene r = sceneFromCheckpointBytes(checkpointBytes(s, state), "mem", &info);
  BOOST_TEST(info.version == kCheckpointVersion);
  BOOST_REQUIRE(info.outputs.has_value());
  BOOST_REQUIRE(info.outputs->files.size() == 2u);
  const OutputRecord* csv = info.outputs->find("series.csv");
  BOOST_REQUIRE(csv);
  BOOST_TEST(csv->offset == 1234u);
  BOOST_TEST(csv->checksum == 0x1234567890abcdefull);
  const OutputRecord* pvd = info.outputs->find("p.pvd");
  BOOST_REQUIRE(pvd);
  BOOST_TEST((pvd->kind == OutputRecord::Kind::Collection));
  BOOST_TEST(pvd->hasSnapshot);
  BOOST_TEST(pvd->lastStep == 10u);
  BOOST_TEST((checkpointBytes(r, *info.outputs) == checkpointBytes(s, state)));
  // Files of versions 1-3 have no output state. (lattice_v3.ckpt: io/tests/legacy_v3.json at step
  // 40, written by format version 3; read, written as the current version and read back, the same bytes.)
  loadCheckpoint(std::string(DEM_SOURCE_DIR) + "/io/tests/data/clump_v1.ckpt", &info);
  BOOST_TEST(info.version == 1u);
  BOOST_TEST(!info.outputs.has_value());
  const Scene v3 = loadCheckpoint(std::string(DEM_SOURCE_DIR) + "/io/tests/data/lattice_v3.ckpt", &info);
  BOOST_TEST(info.version == 3u);
  BOOST_TEST(!info.outputs.has_value());
  BOOST_TEST(v3.stepCount == 40u);
  BOOST_TEST((v3.law == ContactLaw::HertzMindlin));
  BOOST_TEST(v3.contacts.countReal() > 0u);
  const std::string asV4 = checkpointBytes(v3);
  BOOST_TEST((checkpointBytes(sceneFromCheckpointBytes(asV4, "v4 copy", &info)) == asV4));
  BOOST_TEST(info.version == kCheckpointVersion);
  BOOST_TEST(info.outputs.has_value());
}

BOOST_AUTO_TEST_CASE(a_full_disk_is_an_error_naming_the_file) {
  if (!std::filesystem::exists("/dev/full")) return;
  std::filesystem::remove_all(kResumeDir);
  std::filesystem::create_directories(kResumeDir);
  const auto link = kResumeDir / "full.csv";
  std::filesystem::create_symlink("/dev/full", link);
  AppendFile f(link.string(), AppendFile::Mode::Replace);
  f.write("step,time\n");  // buffered
  try {
    f.close();
    BOOST_ERROR("closing a file on a full disk succeeded");
  } catch (const std::runtime_error& e) {
    const std::string m = e.what();
    BOOST_TEST_INFO(m);
    BOOST_TEST(m.find(link.string() + ": write failed: No space left on device") == 0u);
  }
  std::filesystem::remove_all(kResumeDir);
}

BOOST_AUTO_TEST_SUITE_END()
