#include "table.hpp"

#include <cstdlib>
#include <fstream>
#include <limits>
#include <stdexcept>

namespace dem::report {

namespace {
std::vector<std::string> split(const std::string& line, char sep) {
  std::vector<std::string> out;
  std::string cur;
  for (char ch : line) {
    if (ch == sep) {
      out.push_back(cur);
      cur.clear();
    } else if (ch != '\r') {
      cur += ch;
    }
  }
  out.push_back(cur);
  return out;
}
}  // namespace

std::optional<double> parseNumber(const std::string& text) {
  std::size_t b = text.find_first_not_of(" \t");
  if (b == std::string::npos) return std::nullopt;
  const std::string t = text.substr(b);
  // strtod accepts what iostream writes: exponents, "nan", "inf".
  char* end = nullptr;
  const double v = std::strtod(t.c_str(), &end);
  if (end == t.c_str()) return std::nullopt;
  return v;
}

std::optional<std::size_t> Table::column(const std::string& name) const {
  for (std::size_t j = 0; j < columns.size(); ++j)
    if (columns[j] == name) return j;
  return std::nullopt;
}

std::string Table::field(std::size_t r, const std::string& name) const {
  const auto j = column(name);
  if (!j || r >= rows.size() || *j >= rows[r].size()) return {};
  return rows[r][*j];
}

std::vector<double> Table::numbers(const std::string& name) const {
  std::vector<double> out;
  for (std::size_t r = 0; r < rows.size(); ++r)
    out.push_back(parseNumber(field(r, name)).value_or(std::numeric_limits<double>::quiet_NaN()));
  return out;
}

Table readTable(const std::string& path, char separator) {
  std::ifstream f(path);
  if (!f) throw std::runtime_error("dem-report: cannot read " + path);
  Table t;
  std::string line;
  if (!std::getline(f, line)) return t;
  t.columns = split(line, separator);
  while (std::getline(f, line)) {
    if (line.empty() || line == "\r") continue;
    t.rows.push_back(split(line, separator));
  }
  return t;
}

}  // namespace dem::report
