#pragma once
// Small helpers for writing the report's HTML.

#include <string>

namespace dem::report {

std::string esc(const std::string& s);                 // HTML text/attribute escaping
std::string sci(double v, int precision = 3);          // 1.234e-05
std::string fixed(double v, int precision = 3);        // 1.234
std::string rate(double perSecond);                    // 12.3 M/s
std::string duration(double seconds);                  // 12.3 us

// A plot: the PNG shown, linking to the SVG; `base` is relative to index.html, without extension.
std::string figure(const std::string& base, const std::string& caption);

// File-name-safe form of a name (letters, digits, '_', '-', '.').
std::string slug(const std::string& s);

}  // namespace dem::report
