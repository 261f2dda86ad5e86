#pragma once
// Sphere size distributions of the random packing generator, the radii drawn from them, and the
// statistics that compare a drawn set of radii with the request.
//
// Every distribution is held as its distribution of radius BY NUMBER, F(r) = P(R <= r) for a sphere
// picked at random; a distribution requested by mass (= by solid volume, one density) is converted
// with the number density n(r) = m(r) / (4/3 pi r^3), m(r) the mass density (Yade,
// SpherePack::makeCloud with distributeMass; Hatch & Choate 1929 for the log-normal):
//
//  - uniform by number on [a, b]:  F(r) = (r - a) / (b - a).
//  - uniform by mass on [a, b]: every radius interval of [a, b] holds mass in proportion to its width
//    (m(r) = const), so n(r) ~ r^-3 and F(r) = (a^-2 - r^-2) / (a^-2 - b^-2).
//  - discrete: radii r_k with fractions f_k by number, or w_k by mass (then f_k ~ w_k / r_k^3).
//  - log-normal: ln R ~ Normal(mu, sigma^2), median exp(mu). By mass: the mass-weighted radius is
//    log-normal with the same sigma and median exp(mu_m), and then mu = mu_m - 3 sigma^2 (Hatch &
//    Choate 1929). Optionally truncated to [rMin, rMax] (the same window by number and by mass):
//    F(r) = (Phi(z(r)) - Phi(z(rMin))) / (Phi(z(rMax)) - Phi(z(rMin))), z(r) = (ln r - mu) / sigma.
//  - table (a particle size distribution curve, Yade's psdSizes/psdCumm): sizes s_0 < ... < s_m with
//    the cumulative fraction P_k passing (P_0 = 0, P_m = 1), linear in size between the points. By
//    number it is F itself; by mass, piece k carries mass density m_k = (P_{k+1} - P_k) / (r_{k+1} - r_k),
//    so n(r) ~ m_k r^-3 on it: number weight ~ m_k (r_k^-2 - r_{k+1}^-2) / 2, and within the piece F
//    goes as r_k^-2 - r^-2 (uniform by mass is the one-piece table).
//
// Drawing: the N radii are drawn before any placement, stratified: r_i = F^-1((i + v_i) / N) with
// v_i uniform in (0, 1) from the seed, i = 0..N-1 (one radius in each of N equally likely
// quantile strata, a jittered form of Yade's deterministic r_i = F^-1((N - i + 1/2) / (N + 1))). The
// drawn set then deviates from F by at most 1/N in the Kolmogorov-Smirnov distance (i.i.d. draws:
// about 1/sqrt(N)), and a discrete distribution's counts are within 1 of N f_k.

#include <cstddef>
#include <cstdint>
#include <limits>
#include <random>
#include <string>
#include <vector>

namespace dem::io {

enum class SizeBasis { Number, Mass };

class SizeDistribution {
 public:
  // Each throws std::invalid_argument on bad parameters (the scene loader checks them first).
  static SizeDistribution constant(double r);
  static SizeDistribution uniform(double rMin, double rMax, SizeBasis by);
  // Radii (distinct, > 0, any order) and fractions (>= 0, summing to 1 within 1e-6; renormalised).
  static SizeDistribution discrete(const std::vector<double>& radii, const std::vector<double>& fractions, SizeBasis by);
  // median: of the radius by number (by = Number) or of the mass-weighted radius (by = Mass);
  // sigma: standard deviation of ln r; truncation window [rMin, rMax] (0 and +inf: none).
  static SizeDistribution logNormal(double median, double sigma, double rMin, double rMax, SizeBasis by);
  // Radii r_0 < ... < r_m (> 0) and cumulative fractions (non-decreasing, first 0, last 1).
  static SizeDistribution table(const std::vector<double>& radii, const std::vector<double>& cumulative, SizeBasis by);

  double cdf(double r) const;        // P(R <= r), by number
  double cdfBelow(double r) const;   // P(R < r) (differs from cdf at a discrete radius only)
  double quantile(double u) const;   // the smallest r with cdf(r) >= u, for u in (0, 1)
  double minRadius() const;          // the support's ends (a log-normal without truncation: 0, +inf)
  double maxRadius() const;
  bool isDiscrete() const { return kind_ == Kind::Atoms; }
  const std::string& description() const { return desc_; }

 private:
  enum class Kind { Atoms, Linear, InverseCube, LogNormal };
  Kind kind_ = Kind::Atoms;
  std::vector<double> r_, c_;  // atoms or knots, and F at them (atoms: F including the atom)
  double mu_ = 0.0, sigma_ = 1.0, lo_ = 0.0, hi_ = std::numeric_limits<double>::infinity(), pLo_ = 0.0, pHi_ = 1.0;
  std::string desc_;
};

// n radii drawn stratified from `d` (see above), in increasing order.
std::vector<double> drawRadii(const SizeDistribution& d, std::size_t n, std::mt19937_64& rng);

// Count, mean radius, diameter quantiles by number (d10: 10 % of the spheres are smaller) and by mass
// (d10: the spheres smaller than it hold 10 % of the solid volume), total solid volume.
struct SizeStats {
  std::size_t count = 0;
  double meanRadius = 0.0;
  double d10n = 0.0, d50n = 0.0, d90n = 0.0;
  double d10m = 0.0, d50m = 0.0, d90m = 0.0;
  double solidVolume = 0.0;
};
// Of a set of radii: quantile p is the smallest radius whose cumulative fraction reaches p.
SizeStats sizeStats(std::vector<double> radii);
// Of the request, for n spheres: by-number quantiles exact, the mean, the by-mass quantiles and
// n E[4/3 pi R^3] by the midpoint rule over 2^16 quantile strata (relative error ~1e-5 or less).
SizeStats requestedStats(const SizeDistribution& d, std::size_t n);

// Kolmogorov-Smirnov distance sup_r |F_n(r) - F(r)| between the radii's empirical CDF and d's.
double ksDistance(std::vector<double> radii, const SizeDistribution& d);
// Asymptotic critical value of the one-sample KS statistic at significance alpha for sample size n,
// c(alpha) / sqrt(n) with c(alpha) = sqrt(-ln(alpha / 2) / 2) (Kolmogorov's limit law, first term;
// alpha = 1e-3: c = 1.9495). Conservative for a discrete F.
double ksCritical(std::size_t n, double alpha);

// A particle size distribution table (CSV): per line "size, cumulative fraction"; '#' starts a
// comment; blank lines and one leading header line without numbers are skipped. Throws
// std::runtime_error "PATH: line L: PROBLEM" (or "PATH: PROBLEM") when the file cannot be read, is
// larger than maxBytes or not a regular file, or a line is not two finite numbers. The values are
// not checked further here.
struct SizeTable {
  std::vector<double> size, cumulative;
  std::vector<std::size_t> line;  // the file's line of each row
};
SizeTable readSizeTable(const std::string& path, std::size_t maxBytes);

}  // namespace dem::io
