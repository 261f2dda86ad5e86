#include "plot.hpp"

#include <gnuplot-iostream.h>

#include <algorithm>
#include <cmath>

namespace dem::report {

namespace {

// Distinct colours, all dark enough on white: Okabe-Ito without its yellow, then four of Paul Tol's
// muted scheme and three more apart from those; grey is kept for the style legend (index < 0).
const char* const kPalette[] = {"#0072B2", "#D55E00", "#009E73", "#CC79A7", "#E69F00", "#56B4E9", "#000000",
                                "#882255", "#44AA99", "#332288", "#999933", "#8C564B", "#7570B3", "#A6761D"};

std::string colour(int index) {
  if (index < 0) return "#777777";
  return kPalette[static_cast<std::size_t>(index) % (sizeof(kPalette) / sizeof(kPalette[0]))];
}

// gnuplot single-quoted string: a quote is doubled.
std::string quoted(const std::string& s) {
  std::string out = "'";
  for (char ch : s) out += ch == '\'' ? std::string("''") : std::string(1, ch);
  return out + "'";
}

bool usable(const std::pair<double, double>& p, const Plot& plot) {
  if (!std::isfinite(p.first) || !std::isfinite(p.second)) return false;
  if (plot.logX && !(p.first > 0)) return false;
  if (plot.logY && !(p.second > 0)) return false;
  return true;
}

}  // namespace

int pointType(int index) {
  static const int kTypes[] = {7, 5, 9, 11, 13, 15};  // filled circle, square, triangles, diamond, pentagon
  return kTypes[static_cast<std::size_t>(index < 0 ? 0 : index) % (sizeof(kTypes) / sizeof(kTypes[0]))];
}

void keyBelow(Plot& plot) {
  std::size_t entries = 0, longest = 0;
  for (const auto& l : plot.lines)
    if (!l.title.empty()) {
      ++entries;
      longest = std::max(longest, l.title.size());
    }
  // At most 7.5 px per character of the key's 10-point font, plus the sample line (gnuplot sizes the
  // columns by the longest entry; too few columns only leave space, too many squeeze the plot).
  const int columnWidth = static_cast<int>(7.5 * static_cast<double>(longest)) + 100;
  const int columns = std::clamp((plot.width - 60) / std::max(columnWidth, 1), 1, 4);
  const int rows =
      static_cast<int>((entries + static_cast<std::size_t>(columns) - 1) / static_cast<std::size_t>(columns));
  plot.key = "outside below center horizontal maxcols " + std::to_string(columns);
  plot.height = 520 + 19 * rows;
}

std::vector<std::pair<double, double>> decimate(const std::vector<std::pair<double, double>>& pts,
                                                std::size_t maxPoints) {
  if (pts.size() <= maxPoints || maxPoints < 2) return pts;
  const std::size_t stride = (pts.size() + maxPoints - 2) / (maxPoints - 1);
  std::vector<std::pair<double, double>> out;
  std::size_t last = 0;
  for (std::size_t k = 0; k < pts.size(); k += stride) {
    out.push_back(pts[k]);
    last = k;
  }
  if (last + 1 != pts.size()) out.push_back(pts[pts.size() - 1]);
  return out;
}

Plotter::Plotter() : gp_(std::make_unique<gnuplotio::Gnuplot>("gnuplot")) {}

Plotter::~Plotter() {
  if (gp_) *gp_ << "exit" << std::endl;
}

void Plotter::render(const Plot& plot, const std::string& base) {
  std::vector<Line> lines;
  for (const auto& l : plot.lines) {
    Line kept = l;
    kept.points.clear();
    for (const auto& p : l.points)
      if (usable(p, plot)) kept.points.push_back(p);
    if (!kept.points.empty() || l.keyOnly) lines.push_back(std::move(kept));
  }

  gnuplotio::Gnuplot& gp = *gp_;
  const std::string size = std::to_string(plot.width) + "," + std::to_string(plot.height);
  const std::pair<std::string, const char*> terminals[] = {
      {"pngcairo size " + size + " enhanced font 'DejaVu Sans,12' linewidth 1.5", ".png"},
      {"svg size " + size + " dynamic enhanced font 'DejaVu Sans,12' linewidth 1.5 background '#ffffff'", ".svg"}};
  for (const auto& [terminal, ext] : terminals) {
    gp << "reset\n";
    gp << "set terminal " << terminal << "\n";
    gp << "set output " << quoted(base + ext) << "\n";
    gp << "set encoding utf8\n";
    gp << "set title " << quoted(plot.title) << " noenhanced\n";
    gp << "set xlabel " << quoted(plot.xLabel) << " noenhanced\n";
    gp << "set ylabel " << quoted(plot.yLabel) << " noenhanced\n";
    gp << "set grid xtics ytics mxtics mytics lc rgb '#dddddd'\n";
    // A key below the plot goes without a box (its frame would run into the x label).
    const bool below = plot.key.find("below") != std::string::npos;
    gp << "set key " << plot.key << (below ? " nobox" : " box opaque") << " noenhanced font ',10' spacing 1.1\n";
    if (plot.logX) gp << "set logscale x\nset format x '10^{%L}'\n";
    if (plot.logY) gp << "set logscale y\nset format y '10^{%L}'\n";
    for (const auto& e : plot.extra) gp << e << "\n";
    const bool anyPoints = std::any_of(lines.begin(), lines.end(), [](const Line& l) { return !l.points.empty(); });
    if (!anyPoints) {
      gp << "set label 1 'no positive, finite values to plot' at graph 0.5, 0.5 center\n";
      gp << "unset key\nset xrange [0:1]\nset yrange [0:1]\nunset logscale\nset format x\nset format y\n";
      gp << "plot NaN notitle\n";
    } else {
      gp << "plot ";
      for (std::size_t k = 0; k < lines.size(); ++k) {
        const Line& l = lines[k];
        gp << (k ? ", " : "") << (l.keyOnly ? "NaN" : "'-'") << " with " << l.style << " lc rgb "
           << quoted(colour(l.color)) << (l.title.empty() ? std::string(" notitle") : " title " + quoted(l.title));
      }
      gp << "\n";
      for (const auto& l : lines)
        if (!l.keyOnly) gp.send1d(l.points);
    }
    gp << "unset output\n";
  }
  gp.flush();
}

}  // namespace dem::report
