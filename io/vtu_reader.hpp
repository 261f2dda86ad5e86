#pragma once
// A reader for the VTK files dem-run writes (ASCII XML UnstructuredGrid .vtu, and .pvd
// collections), used by tests to check that the files are well formed and carry what was written:
// a small XML parser (elements, attributes, text), then the VTK structure is checked (one Piece;
// Points with 3 components; connectivity / offsets / types consistent with NumberOfCells; every
// PointData array has NumberOfPoints tuples, every CellData array NumberOfCells). Throws
// std::runtime_error describing the first problem.

#include <map>
#include <string>
#include <vector>

namespace dem::io {

struct VtuArray {
  std::string type;
  int components = 1;
  std::vector<double> values;
};

struct VtuGrid {
  std::size_t nPoints = 0, nCells = 0;
  std::vector<double> points;  // 3 per point
  std::vector<double> connectivity, offsets, types;
  std::map<std::string, VtuArray> pointData, cellData;
};

VtuGrid parseVtu(const std::string& text);

struct PvdDataSet {
  double time;
  std::string file;
};
std::vector<PvdDataSet> parsePvd(const std::string& text);

}  // namespace dem::io
