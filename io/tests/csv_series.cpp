// Unit: the CSV time series has one header column per value, rows every call, and its numbers read
// back to the same doubles (ledger terms, contact count, chosen particles' state).
#include "io/csv_output.hpp"
#include "solver/builders.hpp"

#include <boost/test/unit_test.hpp>

#include <filesystem>
#include <fstream>
#include <sstream>

using namespace dem;
using namespace dem::io;

namespace {
std::vector<std::string> split(const std::string& line) {
  std::vector<std::string> out;
  std::stringstream s(line);
  std::string cell;
  while (std::getline(s, cell, ',')) out.push_back(cell);
  return out;
}
}  // namespace

BOOST_AUTO_TEST_SUITE(csv_series)

BOOST_AUTO_TEST_CASE(rows_read_back) {
  const auto file = std::filesystem::temp_directory_path() / "dem-csv-test.csv";
  DepositionSpec spec;
  spec.n = 30;
  Scene s = depositionScene(spec);
  {
    CsvOutput csv(file.string(), {5, 7}, false);
    for (int k = 0; k < 3; ++k) {
      s.run(500);
      csv.write(s);
    }
  }
  {
    CsvOutput again(file.string(), {5, 7}, true);  // a restart appends without a second header
    s.run(10);
    again.write(s);
  }
  std::ifstream in(file);
  std::string line;
  std::getline(in, line);
  const auto header = split(line);
  BOOST_TEST(header.size() == 13u + 2 * 16);
  BOOST_TEST(header[0] == "step");
  BOOST_TEST(header[9] == "viscous_dissipated");
  BOOST_TEST(header[10] == "spring_dissipated");
  BOOST_TEST(header[13] == "p5_x");
  std::vector<std::vector<std::string>> rows;
  while (std::getline(in, line)) rows.push_back(split(line));
  BOOST_REQUIRE(rows.size() == 4u);
  for (const auto& r : rows) BOOST_TEST(r.size() == header.size());
  const auto& last = rows.back();
  BOOST_TEST(std::stoull(last[0]) == s.stepCount);
  BOOST_TEST(std::stod(last[1]) == s.time);
  BOOST_TEST(std::stod(last[11]) == s.energy.total());
  BOOST_TEST(std::stoull(last[12]) == s.contacts.countReal());
  for (int a = 0; a < 3; ++a) {
    BOOST_TEST(std::stod(last[13 + a]) == s.particles.pos[5][a]);
    BOOST_TEST(std::stod(last[29 + 3 + a]) == s.particles.vel[7][a]);
    BOOST_TEST(std::stod(last[29 + 13 + a]) == s.particles.angMomOf(7)[a]);  // L = I w of a sphere
  }
  BOOST_TEST(header[29 + 9] == "p7_qw");
  BOOST_TEST(std::stod(last[29 + 9]) == s.particles.ori[7].w());
  std::filesystem::remove(file);
}

BOOST_AUTO_TEST_SUITE_END()
