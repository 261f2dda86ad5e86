#pragma once
// Delimited text tables (the CSV and TSV files dem-verify writes), read as strings with a header.

#include <optional>
#include <string>
#include <vector>

namespace dem::report {

struct Table {
  std::vector<std::string> columns;
  std::vector<std::vector<std::string>> rows;

  // Index of a column, or nullopt.
  std::optional<std::size_t> column(const std::string& name) const;
  // Field of row r in the named column; empty when the column or field is missing.
  std::string field(std::size_t r, const std::string& name) const;
  // The named column as numbers (NaN where empty or not a number).
  std::vector<double> numbers(const std::string& name) const;
};

// Reads a file whose first line is the header; throws std::runtime_error when it cannot be read.
Table readTable(const std::string& path, char separator);

// A number, or nullopt when the text is empty or not a number.
std::optional<double> parseNumber(const std::string& text);

}  // namespace dem::report
