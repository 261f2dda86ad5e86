#pragma once
// Hertz-Mindlin with viscous damping and Coulomb friction: Hertz's normal force, Mindlin's no-slip
// tangential stiffness as an incremental spring, dashpots in the "standard" form set from a
// coefficient of restitution (Tsuji, Tanaka & Ishida 1992 with alpha = sqrt5 beta; the form of EDEM,
// LIGGGHTS and Yade's Ip2_FrictMat_FrictMat_MindlinPhys; verification theory 2, sections 1-3).
//   d = -u_N (overlap), a = sqrt(R* d)
//   F_N   = -K d^(3/2) + cn v_N,       K = (4/3) E* sqrt(R*)           (Hertz; local x, negative = repulsive)
//   F_s   = F_s,prev + k_t du,         k_t = 8 G* a                     (Mindlin no-slip stiffness, incremental)
//   F_T^t = F_s + ct v_T;  |F_T| <= tan(phi) max(0, -F_N)               (coulombReturn)
//   cn = 2 sqrt(5/6) beta sqrt(S_n m*), S_n = 2 E* a;  ct = 2 sqrt(5/6) beta sqrt(k_t m*)
//   beta = -ln e / sqrt(ln^2 e + pi^2)
// With the force allowed to turn attractive (no clamp) a head-on impact rebounds with exactly e for
// any speed (theory 2, section 2.2: e_Hertz(alpha) = e_LSD(alpha/sqrt5)).
// Mixing (Johnson 1985): 1/E* = (1 - nu1^2)/E1 + (1 - nu2^2)/E2, 1/G* = (2 - nu1)/G1 + (2 - nu2)/G2
// with G_i = E_i / (2 (1 + nu_i)), 1/R* = 1/r1 + 1/r2, m* = m1 m2/(m1 + m2). A wall is an elastic
// half-space of its own material (R2 = infinity: R* = r1; m* = m1); a very stiff wall tends to the
// rigid plane (1/E* = (1 - nu1^2)/E1).
// Stored parameters: K, k_t/sqrt(d) = 8 G* sqrt(R*), tan(phi), cn/d^(1/4), ct/d^(1/4).
// Energies: elastic = (2/5) K d^(5/2) + |F_s|^2 / (2 k_t); slip and viscous work as in contact_law.hpp.
// The incremental spring with a stiffness that changes with d is not conservative: its stored
// energy |F_s|^2/(2 k_t) changes when k_t does at constant F_s, with no force doing work; that
// change is booked (LawResult::spring, the ledger's springDissipated), so the ledger closes.

#include "../contact_law.hpp"

namespace dem {

struct HertzMindlin {
  static constexpr ContactLaw kind = ContactLaw::HertzMindlin;
  static constexpr const char* name = "hertzMindlin";
  static constexpr std::size_t kParams = 5;
  static constexpr bool kSpringTerm = true;  // k_t changes with the overlap (LawResult::spring)
  static constexpr bool kRelativeRotation = false;  // no rolling or twisting resistance: phi not kept

  template <class T>
  struct Params {
    T K, ktCoef, tanPhi, cnCoef, ctCoef;
  };
  template <class T>
  static Params<T> params(const T* v) {
    return {v[0], v[1], v[2], v[3], v[4]};
  }

  static LawValues mix(const PairMaterials& m) {
    const double inv = (1.0 - m.m1.poisson * m.m1.poisson) / m.m1.young + (1.0 - m.m2.poisson * m.m2.poisson) / m.m2.young;
    const double eStar = 1.0 / inv;
    const auto shearTerm = [](const Material& x) { return 2.0 * (2.0 - x.poisson) * (1.0 + x.poisson) / x.young; };
    const double gStar = 1.0 / (shearTerm(m.m1) + shearTerm(m.m2));
    const double rStar = m.wall ? m.r1 : m.r1 * m.r2 / (m.r1 + m.r2);
    const double sqrtR = std::sqrt(rStar), mStar = m.reducedMass();
    const double beta = dampingRatioFromRestitution(m.restitution());
    const double c = 2.0 * std::sqrt(5.0 / 6.0) * beta;
    return {4.0 / 3.0 * eStar * sqrtR, 8.0 * gStar * sqrtR, m.tanPhi(), c * std::sqrt(2.0 * eStar * sqrtR * mStar),
            c * std::sqrt(8.0 * gStar * sqrtR * mStar)};
  }

  template <bool Dashpots, class T>
  [[gnu::always_inline]] static LawResult<T> force(const Params<T>& p, const LawInput<T>& in, const LawState<T>& prev) {
    using std::sqrt;
    LawResult<T> r;
    const T d = select(in.uN < 0.0, -in.uN, T(0.0));
    const T sd = sqrt(d), d14 = sqrt(sd);
    const T dN = dashpot<Dashpots>(p.cnCoef * d14, in.vN);
    r.fN = withDashpot<Dashpots>(-(p.K * d * sd), dN);  // F_N = -K d^(3/2) + cn v_N
    const T kt = p.ktCoef * sd;
    const T ty = prev.sY + kt * in.duY, tz = prev.sZ + kt * in.duZ;  // F_s += k_t du
    const T ct = p.ctCoef * d14;
    const CoulombReturn<T> c =
        coulombReturn<Dashpots>(p.tanPhi, r.fN, ty, tz, dashpot<Dashpots>(ct, in.vY), dashpot<Dashpots>(ct, in.vZ));
    r.fY = c.fY;
    r.fZ = c.fZ;
    const T invKt = 1.0 / select(kt > 0.0, kt, T(1.0));
    r.slip = slipWork(ty, tz, c, prev.sY, prev.sZ, invKt);
    r.state.sY = c.springY;
    r.state.sZ = c.springZ;
    r.state.dN = dN;
    r.state.dY = c.dampY;
    r.state.dZ = c.dampZ;
    r.elastic = 0.4 * p.K * d * d * sd + 0.5 * (c.springY * c.springY + c.springZ * c.springZ) * invKt;
    r.viscous = viscousWork<Dashpots>(prev, dN, c.dampY, c.dampZ, in);
    // k_t changed from k_t(d_n-1) at constant F_s: |F_s,n-1|^2 (1/k_t,n-1 - 1/k_t,n)/2 (contact_law.hpp)
    const T ktPrev = p.ktCoef * sqrt(select(in.uNPrev < 0.0, -in.uNPrev, T(0.0)));
    const T invKtPrev = 1.0 / select(ktPrev > 0.0, ktPrev, T(1.0));
    r.spring = select(ktPrev > 0.0 && kt > 0.0, 0.5 * (prev.sY * prev.sY + prev.sZ * prev.sZ) * (invKtPrev - invKt), T(0.0));
    return r;
  }

  // |F_s|^2 / (2 k_t(d))
  template <class T>
  static T shearEnergy(const Params<T>& p, const LawState<T>& s, const T& uN) {
    using std::sqrt;
    const T kt = p.ktCoef * sqrt(select(uN < 0.0, -uN, T(0.0)));
    return select(kt > 0.0, 0.5 * (s.sY * s.sY + s.sZ * s.sZ) / select(kt > 0.0, kt, T(1.0)), T(0.0));
  }
  // dF_N/dd = (3/2) K sqrt(d) = 2 E* a;  k_t = 8 G* a
  static ContactStiffness stiffness(const Params<double>& p, double uN) {
    const double sd = std::sqrt(uN < 0.0 ? -uN : 0.0);
    return {1.5 * p.K * sd, p.ktCoef * sd};
  }
  // cn = cnCoef d^(1/4), ct = ctCoef d^(1/4) (zeta = cn / (2 sqrt(m* S_n)) = sqrt(5/6) beta at any overlap)
  static ContactDashpots dashpots(const Params<double>& p, double uN) {
    const double d14 = std::sqrt(std::sqrt(uN < 0.0 ? -uN : 0.0));
    return {p.cnCoef * d14, p.ctCoef * d14};
  }
};

}  // namespace dem
