#include "size_distribution.hpp"

#include <boost/math/distributions/normal.hpp>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <numbers>
#include <numeric>
#include <sstream>
#include <stdexcept>

namespace dem::io {

namespace {

std::string num(double x) {
  std::ostringstream s;
  s.precision(6);
  s << x;
  return s.str();
}

const char* basisName(SizeBasis by) { return by == SizeBasis::Mass ? "mass" : "number"; }

double normalCdf(double z) { return boost::math::cdf(boost::math::normal_distribution<double>(), z); }

double normalQuantile(double p) {
  // p in (0, 1) strictly: the quantile of 0 or 1 is infinite (Boost throws).
  p = std::clamp(p, std::numeric_limits<double>::min(), 1.0 - std::numeric_limits<double>::epsilon() / 2);
  return boost::math::quantile(boost::math::normal_distribution<double>(), p);
}

void require(bool ok, const std::string& what) {
  if (!ok) throw std::invalid_argument("expected " + what);
}

bool positiveFinite(double x) { return std::isfinite(x) && x > 0.0; }

}  // namespace

SizeDistribution SizeDistribution::constant(double r) {
  require(positiveFinite(r), "a radius > 0");
  SizeDistribution d;
  d.kind_ = Kind::Atoms;
  d.r_ = {r};
  d.c_ = {1.0};
  d.desc_ = "one radius " + num(r) + " m";
  return d;
}

SizeDistribution SizeDistribution::uniform(double a, double b, SizeBasis by) {
  require(positiveFinite(a) && positiveFinite(b) && a <= b, "0 < min <= max");
  if (a == b) return constant(a);
  require(by == SizeBasis::Number || std::isfinite(1.0 / (a * a)), "min >= 1e-150 (by mass)");
  SizeDistribution d;
  d.kind_ = by == SizeBasis::Mass ? Kind::InverseCube : Kind::Linear;
  d.r_ = {a, b};
  d.c_ = {0.0, 1.0};
  d.desc_ = std::string("uniform by ") + basisName(by) + " in [" + num(a) + ", " + num(b) + "] m";
  return d;
}

SizeDistribution SizeDistribution::discrete(const std::vector<double>& radii, const std::vector<double>& fractions,
                                            SizeBasis by) {
  require(!radii.empty() && radii.size() == fractions.size(), "as many fractions as radii, at least one");
  std::vector<std::pair<double, double>> rf;
  double sum = 0.0;
  for (std::size_t k = 0; k < radii.size(); ++k) {
    require(positiveFinite(radii[k]), "radii > 0");
    require(std::isfinite(fractions[k]) && fractions[k] >= 0.0, "fractions >= 0");
    sum += fractions[k];
    rf.emplace_back(radii[k], fractions[k]);
  }
  require(std::abs(sum - 1.0) <= 1e-6, "fractions summing to 1 (within 1e-6), got a sum of " + num(sum));
  std::sort(rf.begin(), rf.end());
  for (std::size_t k = 1; k < rf.size(); ++k) require(rf[k].first != rf[k - 1].first, "distinct radii");
  // Number weights: f_k, or w_k / r_k^3 by mass.
  SizeDistribution d;
  d.kind_ = Kind::Atoms;
  double total = 0.0;
  for (auto& [r, f] : rf) {
    if (by == SizeBasis::Mass) f /= r * r * r;
    total += f;
  }
  double c = 0.0;
  for (const auto& [r, f] : rf) {
    if (f == 0.0) continue;
    c += f / total;
    d.r_.push_back(r);
    d.c_.push_back(c);
  }
  d.c_.back() = 1.0;
  d.desc_ = std::string("discrete by ") + basisName(by) + ": ";
  for (std::size_t k = 0; k < rf.size(); ++k)
    d.desc_ += (k ? ", " : "") + num(rf[k].first) + " m";
  d.desc_ += " (fractions by " + std::string(basisName(by)) + ": ";
  std::vector<std::pair<double, double>> given;
  for (std::size_t k = 0; k < radii.size(); ++k) given.emplace_back(radii[k], fractions[k]);
  std::sort(given.begin(), given.end());
  for (std::size_t k = 0; k < given.size(); ++k) d.desc_ += (k ? ", " : "") + num(given[k].second);
  d.desc_ += ")";
  return d;
}

SizeDistribution SizeDistribution::logNormal(double median, double sigma, double rMin, double rMax, SizeBasis by) {
  require(positiveFinite(median), "a median > 0");
  require(positiveFinite(sigma), "sigma > 0");
  require(std::isfinite(rMin) && rMin >= 0.0 && !std::isnan(rMax) && rMax > rMin, "0 <= min < max");
  SizeDistribution d;
  d.kind_ = Kind::LogNormal;
  d.sigma_ = sigma;
  d.mu_ = std::log(median) - (by == SizeBasis::Mass ? 3.0 * sigma * sigma : 0.0);
  d.lo_ = rMin;
  d.hi_ = rMax;
  d.pLo_ = rMin > 0.0 ? normalCdf((std::log(rMin) - d.mu_) / sigma) : 0.0;
  d.pHi_ = std::isfinite(rMax) ? normalCdf((std::log(rMax) - d.mu_) / sigma) : 1.0;
  require(d.pHi_ - d.pLo_ > 1e-9,
          "a truncation window [min, max] holding more than 1e-9 of the log-normal's spheres (it holds " +
              num(d.pHi_ - d.pLo_) + ")");
  d.desc_ = std::string("log-normal by ") + basisName(by) + ", median " + num(median) + " m, sigma " + num(sigma);
  if (rMin > 0.0 || std::isfinite(rMax)) d.desc_ += ", truncated to [" + num(rMin) + ", " + num(rMax) + "] m";
  if (by == SizeBasis::Mass) d.desc_ += " (by number: median " + num(std::exp(d.mu_)) + " m)";
  return d;
}

SizeDistribution SizeDistribution::table(const std::vector<double>& radii, const std::vector<double>& cum, SizeBasis by) {
  require(radii.size() >= 2 && radii.size() == cum.size(), "at least 2 rows");
  for (std::size_t k = 0; k < radii.size(); ++k) {
    require(positiveFinite(radii[k]), "sizes > 0");
    require(std::isfinite(cum[k]) && cum[k] >= 0.0 && cum[k] <= 1.0, "cumulative fractions in [0, 1]");
    if (k) require(radii[k] > radii[k - 1], "increasing sizes");
    if (k) require(cum[k] >= cum[k - 1], "non-decreasing cumulative fractions");
  }
  require(cum.front() == 0.0 && cum.back() == 1.0, "a first cumulative fraction of 0 and a last of 1");
  require(by == SizeBasis::Number || std::isfinite(1.0 / (radii.front() * radii.front())), "sizes >= 1e-150 (by mass)");
  SizeDistribution d;
  d.r_ = radii;
  if (by == SizeBasis::Number) {
    d.kind_ = Kind::Linear;
    d.c_ = cum;
  } else {
    d.kind_ = Kind::InverseCube;
    d.c_.assign(radii.size(), 0.0);
    for (std::size_t k = 0; k + 1 < radii.size(); ++k) {
      const double m = (cum[k + 1] - cum[k]) / (radii[k + 1] - radii[k]);
      d.c_[k + 1] = d.c_[k] + m * (1.0 / (radii[k] * radii[k]) - 1.0 / (radii[k + 1] * radii[k + 1]));
    }
    const double total = d.c_.back();
    for (double& c : d.c_) c /= total;
    d.c_.back() = 1.0;
  }
  // Trim pieces of zero weight at the ends, so that the support is where spheres are.
  while (d.c_.size() > 2 && d.c_[1] == 0.0) {
    d.c_.erase(d.c_.begin());
    d.r_.erase(d.r_.begin());
  }
  while (d.c_.size() > 2 && d.c_[d.c_.size() - 2] == 1.0) {
    d.c_.pop_back();
    d.r_.pop_back();
  }
  d.desc_ = "table by " + std::string(basisName(by)) + ", " + std::to_string(radii.size()) + " points, radii [" +
            num(radii.front()) + ", " + num(radii.back()) + "] m";
  return d;
}

double SizeDistribution::minRadius() const { return kind_ == Kind::LogNormal ? lo_ : r_.front(); }
double SizeDistribution::maxRadius() const { return kind_ == Kind::LogNormal ? hi_ : r_.back(); }

double SizeDistribution::cdf(double r) const {
  switch (kind_) {
    case Kind::Atoms: {
      const auto it = std::upper_bound(r_.begin(), r_.end(), r);
      return it == r_.begin() ? 0.0 : c_[static_cast<std::size_t>(it - r_.begin()) - 1];
    }
    case Kind::LogNormal: {
      if (!(r > lo_) || !(r > 0.0)) return 0.0;
      if (r >= hi_) return 1.0;
      const double p = normalCdf((std::log(r) - mu_) / sigma_);
      return std::clamp((p - pLo_) / (pHi_ - pLo_), 0.0, 1.0);
    }
    case Kind::Linear:
    case Kind::InverseCube: {
      if (r <= r_.front()) return 0.0;
      if (r >= r_.back()) return 1.0;
      const std::size_t k = static_cast<std::size_t>(std::upper_bound(r_.begin(), r_.end(), r) - r_.begin()) - 1;
      const double a = r_[k], b = r_[k + 1];
      const double t = kind_ == Kind::Linear ? (r - a) / (b - a) : (1.0 / (a * a) - 1.0 / (r * r)) / (1.0 / (a * a) - 1.0 / (b * b));
      return c_[k] + t * (c_[k + 1] - c_[k]);
    }
  }
  return 0.0;
}

double SizeDistribution::cdfBelow(double r) const {
  if (kind_ != Kind::Atoms) return cdf(r);
  const auto it = std::lower_bound(r_.begin(), r_.end(), r);
  return it == r_.begin() ? 0.0 : c_[static_cast<std::size_t>(it - r_.begin()) - 1];
}

double SizeDistribution::quantile(double u) const {
  switch (kind_) {
    case Kind::Atoms: {
      const auto it = std::lower_bound(c_.begin(), c_.end(), u);
      return r_[std::min(static_cast<std::size_t>(it - c_.begin()), r_.size() - 1)];
    }
    case Kind::LogNormal: {
      const double r = std::exp(mu_ + sigma_ * normalQuantile(pLo_ + u * (pHi_ - pLo_)));
      return std::clamp(r, lo_, hi_);
    }
    case Kind::Linear:
    case Kind::InverseCube: {
      // c_[k] < u <= c_[k + 1]: piece k has weight.
      std::size_t k = static_cast<std::size_t>(std::lower_bound(c_.begin() + 1, c_.end(), u) - c_.begin());
      k = std::clamp<std::size_t>(k, 1, c_.size() - 1) - 1;
      const double a = r_[k], b = r_[k + 1];
      const double t = std::clamp((u - c_[k]) / (c_[k + 1] - c_[k]), 0.0, 1.0);
      if (kind_ == Kind::Linear) return a + t * (b - a);
      const double s = 1.0 / (a * a) - t * (1.0 / (a * a) - 1.0 / (b * b));
      return std::clamp(1.0 / std::sqrt(s), a, b);
    }
  }
  return 0.0;
}

std::vector<double> drawRadii(const SizeDistribution& d, std::size_t n, std::mt19937_64& rng) {
  std::vector<double> r(n);
  const double N = static_cast<double>(n);
  for (std::size_t i = 0; i < n; ++i) {
    // v in (0, 1): (k + 1/2) 2^-53 for the top 53 bits k of one draw (portable, unlike
    // std::uniform_real_distribution).
    const double v = (static_cast<double>(rng() >> 11) + 0.5) * 0x1p-53;
    r[i] = d.quantile((static_cast<double>(i) + v) / N);
  }
  std::sort(r.begin(), r.end());  // already increasing (F^-1 is); guards against round-off
  return r;
}

SizeStats sizeStats(std::vector<double> radii) {
  SizeStats s;
  s.count = radii.size();
  if (radii.empty()) return s;
  std::sort(radii.begin(), radii.end());
  const double n = static_cast<double>(radii.size());
  std::vector<double> cumVol(radii.size());
  double sumR = 0.0, vol = 0.0;
  for (std::size_t i = 0; i < radii.size(); ++i) {
    sumR += radii[i];
    vol += radii[i] * radii[i] * radii[i];
    cumVol[i] = vol;
  }
  s.meanRadius = sumR / n;
  s.solidVolume = 4.0 / 3.0 * std::numbers::pi * vol;
  const auto byNumber = [&](double p) {
    const double k = std::ceil(p * n - 1e-9);
    return 2.0 * radii[static_cast<std::size_t>(std::clamp(k, 1.0, n)) - 1];
  };
  const auto byMass = [&](double p) {
    const auto it = std::lower_bound(cumVol.begin(), cumVol.end(), p * vol);
    return 2.0 * radii[std::min(static_cast<std::size_t>(it - cumVol.begin()), radii.size() - 1)];
  };
  s.d10n = byNumber(0.1), s.d50n = byNumber(0.5), s.d90n = byNumber(0.9);
  s.d10m = byMass(0.1), s.d50m = byMass(0.5), s.d90m = byMass(0.9);
  return s;
}

SizeStats requestedStats(const SizeDistribution& d, std::size_t n) {
  constexpr std::size_t M = 1u << 16;
  std::vector<double> q(M), cumVol(M);
  double sumR = 0.0, vol = 0.0;
  for (std::size_t i = 0; i < M; ++i) {
    q[i] = d.quantile((static_cast<double>(i) + 0.5) / static_cast<double>(M));
    sumR += q[i];
    vol += q[i] * q[i] * q[i];
    cumVol[i] = vol;
  }
  SizeStats s;
  s.count = n;
  s.meanRadius = sumR / static_cast<double>(M);
  s.solidVolume = static_cast<double>(n) * 4.0 / 3.0 * std::numbers::pi * vol / static_cast<double>(M);
  s.d10n = 2.0 * d.quantile(0.1), s.d50n = 2.0 * d.quantile(0.5), s.d90n = 2.0 * d.quantile(0.9);
  const auto byMass = [&](double p) {
    const auto it = std::lower_bound(cumVol.begin(), cumVol.end(), p * vol);
    return 2.0 * q[std::min(static_cast<std::size_t>(it - cumVol.begin()), M - 1)];
  };
  s.d10m = byMass(0.1), s.d50m = byMass(0.5), s.d90m = byMass(0.9);
  return s;
}

double ksDistance(std::vector<double> radii, const SizeDistribution& d) {
  std::sort(radii.begin(), radii.end());
  const double n = static_cast<double>(radii.size());
  double D = 0.0;
  for (std::size_t i = 0; i < radii.size();) {
    std::size_t j = i;
    while (j < radii.size() && radii[j] == radii[i]) ++j;  // ties: radii[i..j) equal
    D = std::max(D, std::abs(static_cast<double>(i) / n - d.cdfBelow(radii[i])));
    D = std::max(D, std::abs(static_cast<double>(j) / n - d.cdf(radii[i])));
    i = j;
  }
  return D;
}

double ksCritical(std::size_t n, double alpha) {
  return std::sqrt(-std::log(alpha / 2.0) / 2.0) / std::sqrt(static_cast<double>(n));
}

SizeTable readSizeTable(const std::string& path, std::size_t maxBytes) {
  std::error_code ec;
  if (!std::filesystem::exists(path, ec)) throw std::runtime_error(path + ": no such file");
  if (!std::filesystem::is_regular_file(path, ec)) throw std::runtime_error(path + ": not a regular file");
  const auto bytes = std::filesystem::file_size(path, ec);
  if (ec) throw std::runtime_error(path + ": cannot read the file size");
  if (bytes > maxBytes)
    throw std::runtime_error(path + ": larger than " + std::to_string(maxBytes) + " bytes; expected a short table");
  std::ifstream in(path);
  if (!in) throw std::runtime_error(path + ": cannot open the file for reading");
  SizeTable t;
  std::string text;
  std::size_t lineNo = 0;
  bool headerSeen = false;
  while (std::getline(in, text)) {
    ++lineNo;
    if (const auto hash = text.find('#'); hash != std::string::npos) text.erase(hash);
    if (!text.empty() && text.back() == '\r') text.pop_back();
    if (text.find_first_not_of(" \t") == std::string::npos) continue;
    const auto comma = text.find(',');
    const auto parse = [&](const std::string& field, double& x) {
      const auto b = field.find_first_not_of(" \t");
      const auto e = field.find_last_not_of(" \t");
      if (b == std::string::npos) return false;
      const std::string f = field.substr(b, e - b + 1);
      std::size_t used = 0;
      try {
        x = std::stod(f, &used);
      } catch (const std::exception&) {
        return false;
      }
      return used == f.size() && std::isfinite(x);
    };
    double s = 0.0, c = 0.0;
    const bool ok = comma != std::string::npos && text.find(',', comma + 1) == std::string::npos &&
                    parse(text.substr(0, comma), s) && parse(text.substr(comma + 1), c);
    if (!ok) {
      const bool hasDigit = text.find_first_of("0123456789") != std::string::npos;
      if (!headerSeen && t.size.empty() && !hasDigit) {
        headerSeen = true;  // a header line such as "diameter, passing"
        continue;
      }
      throw std::runtime_error(path + ": line " + std::to_string(lineNo) +
                               ": expected two finite numbers separated by a comma: size, cumulative fraction");
    }
    t.size.push_back(s);
    t.cumulative.push_back(c);
    t.line.push_back(lineNo);
  }
  if (in.bad()) throw std::runtime_error(path + ": cannot read the file");
  return t;
}

}  // namespace dem::io
