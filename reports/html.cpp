#include "html.hpp"

#include <cmath>
#include <sstream>

namespace dem::report {

std::string esc(const std::string& s) {
  std::string out;
  for (char ch : s) {
    switch (ch) {
      case '&': out += "&amp;"; break;
      case '<': out += "&lt;"; break;
      case '>': out += "&gt;"; break;
      case '"': out += "&quot;"; break;
      default: out += ch;
    }
  }
  return out;
}

std::string sci(double v, int precision) {
  if (!std::isfinite(v)) return std::isnan(v) ? "n/a" : (v > 0 ? "inf" : "-inf");
  std::ostringstream s;
  s.precision(precision);
  s << std::scientific << v;
  return s.str();
}

std::string fixed(double v, int precision) {
  if (!std::isfinite(v)) return std::isnan(v) ? "n/a" : (v > 0 ? "inf" : "-inf");
  std::ostringstream s;
  s.precision(precision);
  s << std::fixed << v;
  return s.str();
}

std::string rate(double perSecond) {
  if (!(perSecond > 0)) return "";
  const char* units[] = {"/s", " k/s", " M/s", " G/s"};
  int k = 0;
  while (perSecond >= 1000 && k < 3) {
    perSecond /= 1000;
    ++k;
  }
  return fixed(perSecond, perSecond < 10 ? 2 : 1) + units[k];
}

std::string duration(double seconds) {
  if (!(seconds > 0)) return "";
  if (seconds < 1e-6) return fixed(seconds * 1e9, 1) + " ns";
  if (seconds < 1e-3) return fixed(seconds * 1e6, 1) + " us";
  if (seconds < 1) return fixed(seconds * 1e3, 1) + " ms";
  return fixed(seconds, 2) + " s";
}

std::string figure(const std::string& base, const std::string& caption) {
  return "<figure><a href=\"" + esc(base) + ".svg\"><img src=\"" + esc(base) + ".png\" alt=\"" + esc(caption) +
         "\" loading=\"eager\"></a><figcaption>" + esc(caption) +
         " (<a href=\"" + esc(base) + ".svg\">SVG</a>)</figcaption></figure>\n";
}

std::string slug(const std::string& s) {
  std::string out;
  for (char ch : s) {
    const bool ok = (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') || (ch >= '0' && ch <= '9') ||
                    ch == '_' || ch == '-' || ch == '.';
    out += ok ? ch : '_';
  }
  return out;
}

}  // namespace dem::report
