#pragma once
// Cundall's linear law with Coulomb friction (seed "Cundall's stress evaluation", Yade
// Law2_ScGeom_FrictPhys_CundallStrack), with optional linear dashpots set from a coefficient of
// restitution (a linear spring-dashpot, LSD: verification theory 2, section 2.1).
//   F_N   = kn u_N + cn v_N                       (local x; negative = repulsive, u_N < 0 in compression)
//   F_s^t = ks u_T,  u_T = u_T,prev + du           (shear spring, local y, z)
//   F_T^t = F_s^t + cs v_T                         (trial shear force)
//   |F_T| <= tan(phi) max(0, -F_N)                 (Coulomb: coulombReturn; while sliding u_T = F_T/ks
//                                                  and the shear dashpot is idle)
// Mixing rule (seed "Stiffnesses", Yade Ip2_FrictMat_FrictMat_FrictPhys): kn = K1 K2/(K1 + K2) with
// K_i = 2 E_i r_i (springs in series), ks the same rule on (ks/kn)_i K_i, phi = min(phi1, phi2). A
// wall is an elastic body whose spring has the sphere's length, K_2 = 2 E_wall r1 (Yade's wall
// geometry gives the wall the sphere's radius): a wall of the sphere's material gives kn = E r as a
// mirror sphere would, and a very stiff wall tends to the sphere's own spring 2 E r1.
// Dashpots: e = min(e1, e2), zeta = -ln e / sqrt(pi^2 + ln^2 e), cn = 2 zeta sqrt(m* kn),
// cs = 2 zeta sqrt(m* ks); the force may turn attractive at the end of an impact (tension allowed), so
// a head-on impact rebounds with exactly e (the "tension allowed" convention of the theory).
// Energies: elastic = kn u_N^2/2 + ks |u_T|^2/2 at t_n; slip and viscous work as in contact_law.hpp.

#include "../contact_law.hpp"

namespace dem {

struct Cundall {
  static constexpr ContactLaw kind = ContactLaw::Cundall;
  static constexpr const char* name = "cundall";
  static constexpr std::size_t kParams = 5;
  static constexpr bool kSpringTerm = false;  // constant ks: LawResult::spring is always zero
  static constexpr bool kRelativeRotation = false;  // no rolling or twisting resistance: phi not kept

  template <class T>
  struct Params {
    T kn, ks, tanPhi, cn, cs;
  };
  template <class T>
  static Params<T> params(const T* v) {
    return {v[0], v[1], v[2], v[3], v[4]};
  }

  static LawValues mix(const PairMaterials& m) {
    const double k1 = 2.0 * m.m1.young * m.r1;  // seed: K_i = E_i l_i, l_i = 2 r_i
    const double k2 = 2.0 * m.m2.young * (m.wall ? m.r1 : m.r2);
    const double kn = series(k1, k2), ks = series(m.m1.ksRatio * k1, m.m2.ksRatio * k2);
    const double zeta = dampingRatioFromRestitution(m.restitution()), mStar = m.reducedMass();
    return {kn, ks, m.tanPhi(), 2.0 * zeta * std::sqrt(mStar * kn), 2.0 * zeta * std::sqrt(mStar * ks)};
  }

  // kn of a pair from its materials and radii (the mixing rule; r2 unused for a wall).
  static double normalStiffness(const Material& m1, double r1, const Material& m2, double r2, bool wall) {
    const double inf = std::numeric_limits<double>::infinity();
    return mix({m1, r1, inf, m2, r2, inf, wall})[0];
  }

  template <bool Dashpots, class T>
  [[gnu::always_inline]] static LawResult<T> force(const Params<T>& p, const LawInput<T>& in, const LawState<T>& prev) {
    LawResult<T> r;
    const T dN = dashpot<Dashpots>(p.cn, in.vN);
    r.fN = withDashpot<Dashpots>(p.kn * in.uN, dN);  // seed: F_N = K_N u_N n (+ dashpot)
    const T uY = prev.sY + in.duY, uZ = prev.sZ + in.duZ;  // seed: u_T += T_mid v_r dt
    const T ty = p.ks * uY, tz = p.ks * uZ;                // seed: F_T^t = K_T u_T
    const CoulombReturn<T> c =
        coulombReturn<Dashpots>(p.tanPhi, r.fN, ty, tz, dashpot<Dashpots>(p.cs, in.vY), dashpot<Dashpots>(p.cs, in.vZ));
    r.fY = c.fY;
    r.fZ = c.fZ;
    const T invKs = 1.0 / p.ks;
    r.slip = slipWork(ty, tz, c, p.ks * prev.sY, p.ks * prev.sZ, invKs);
    r.state.sY = select(c.sliding, c.springY * invKs, uY);
    r.state.sZ = select(c.sliding, c.springZ * invKs, uZ);
    r.state.dN = dN;
    r.state.dY = c.dampY;
    r.state.dZ = c.dampZ;
    r.elastic = 0.5 * p.kn * in.uN * in.uN + 0.5 * p.ks * (r.state.sY * r.state.sY + r.state.sZ * r.state.sZ);
    r.viscous = viscousWork<Dashpots>(prev, dN, c.dampY, c.dampZ, in);
    r.spring = T(0.0);  // constant ks
    return r;
  }

  // ks |u_T|^2 / 2
  template <class T>
  static T shearEnergy(const Params<T>& p, const LawState<T>& s, const T&) {
    return 0.5 * p.ks * (s.sY * s.sY + s.sZ * s.sZ);
  }
  static ContactStiffness stiffness(const Params<double>& p, double) { return {p.kn, p.ks}; }
  static ContactDashpots dashpots(const Params<double>& p, double) { return {p.cn, p.cs}; }

 private:
  // Two springs in series (seed: K_N = K1 K2 / (K1 + K2)); zero if either is zero.
  static double series(double k1, double k2) { return (k1 > 0.0 && k2 > 0.0) ? k1 * k2 / (k1 + k2) : 0.0; }
};

}  // namespace dem
