#pragma once
// Plots drawn by gnuplot through gnuplot-iostream: one description, rendered as PNG (pngcairo) and
// SVG with the same layout.

#include <memory>
#include <string>
#include <utility>
#include <vector>

namespace gnuplotio {
class Gnuplot;
}

namespace dem::report {

struct Line {
  std::string title;                             // legend entry; empty: no entry
  std::string style = "linespoints pt 7 ps 0.8"; // gnuplot "with" clause (colour added from `color`)
  int color = 0;                                 // index into the palette (14 colours); < 0: grey
  std::vector<std::pair<double, double>> points;
  // A legend entry only (explains a line style).
  bool keyOnly = false;
};

struct Plot {
  std::string title, xLabel, yLabel;
  bool logX = false, logY = false;
  std::string key = "top left";     // gnuplot "set key" position
  int width = 960, height = 600;    // pixels (PNG), points (SVG)
  std::vector<std::string> extra;   // further gnuplot commands (labels, ranges)
  std::vector<Line> lines;
};

// One gnuplot process for every plot of a report.
class Plotter {
 public:
  Plotter();
  ~Plotter();
  Plotter(const Plotter&) = delete;
  Plotter& operator=(const Plotter&) = delete;

  // Writes <base>.png and <base>.svg. Lines without points are left out; a plot with no points
  // at all is drawn as an empty frame with a note.
  void render(const Plot& plot, const std::string& base);

 private:
  std::unique_ptr<gnuplotio::Gnuplot> gp_;
};

// Point type for the index-th quantity of a plot (cycles with another period than the palette, so that
// colour and marker together tell up to 42 quantities apart).
int pointType(int index);

// Puts the key below the plot, in as many columns as the width holds, and makes the plot taller by
// the key's rows (the plotting area keeps its size whatever the number of entries).
void keyBelow(Plot& plot);

// Keeps at most maxPoints points (every k-th, always the last) so that plots of long series stay small.
std::vector<std::pair<double, double>> decimate(const std::vector<std::pair<double, double>>& pts,
                                                std::size_t maxPoints);

}  // namespace dem::report
