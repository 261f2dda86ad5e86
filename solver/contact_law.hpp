#pragma once
// Contact laws: what every law shares, and the one switch that picks a law (style: a law is a
// parameter struct plus pure functions; the loop is written once, HOOMD's PotentialPair<Evaluator>).
//
// A law (laws/cundall.hpp, laws/hertz_mindlin.hpp) is a struct with
//   kind, name                     its ContactLaw value and scene-file name;
//   kParams                        how many parameters a contact stores (ContactStore columns);
//   kSpringTerm                    whether LawResult::spring can be non-zero (a stiffness that
//                                  changes with the overlap); false: the stage skips it;
//   kRelativeRotation              whether the law reads phi, the relative rotation of the bodies
//                                  (rolling or twisting resistance); false: the kernel neither
//                                  updates nor stores it (a contact's phi stays zero);
//   Params<T>, params(p)           the parameters of one contact (T = double) or of a batch (lanes),
//                                  from the kParams stored values;
//   mix(PairMaterials) -> values   the mixing rule: the parameters of a pair from its two materials;
//   force<Dashpots>(Params, LawInput, LawState) -> LawResult   the pure force function (Dashpots
//                                  false: a stage without dashpots, see dashpot() below);
//   shearEnergy(Params, LawState, uN)  the energy of the shear spring, released as slip when the
//                                      contact separates;
//   stiffness(Params, uN)          tangent normal and shear stiffness (timestep estimate);
//   dashpots(Params, uN)           the dashpot coefficients cn, cs at u_N (timestep estimate).
// Sign conventions as in contact_geometry.hpp: local x is the normal from particle 1 to 2, u_N < 0 in
// compression; forces are those on particle 1 in local axes (particle 2 receives the opposite).

#include "components.hpp"
#include "materials.hpp"

#include <array>
#include <cmath>
#include <cstdint>
#include <limits>
#include <string>

namespace dem {

enum class ContactLaw : std::uint8_t { Cundall = 0, HertzMindlin = 1 };

// The most parameters any law stores per contact (ContactStore's parameter columns).
inline constexpr std::size_t kMaxLawParams = 5;
// The last kDashpotParams of every law's parameters are its dashpots' coefficients (zero for
// materials of restitution 1): a contact store without dashpots need not keep them
// (ContactStore::useDashpotColumns).
inline constexpr std::size_t kDashpotParams = 2;
using LawValues = std::array<double, kMaxLawParams>;

// What the mixing rule knows of a pair: the two materials, radii and masses. A wall is body 2 with
// radius 0 and infinite mass (`wall` true); a body that cannot translate has infinite mass.
struct PairMaterials {
  const Material& m1;
  double r1, mass1;
  const Material& m2;
  double r2, mass2;
  bool wall = false;
  // m* = m1 m2 / (m1 + m2); m1 when body 2 is infinitely heavy (and vice versa).
  double reducedMass() const {
    if (!std::isfinite(mass2)) return std::isfinite(mass1) ? mass1 : 0.0;
    if (!std::isfinite(mass1)) return mass2;
    return mass1 * mass2 / (mass1 + mass2);
  }
  // The pair's restitution coefficient: the smaller of the two (a dead body gives a dead contact).
  double restitution() const { return m1.restitution < m2.restitution ? m1.restitution : m2.restitution; }
  // tan of the smaller friction angle (seed: phi = min(phi1, phi2)).
  double tanPhi() const { return std::tan(m1.frictionAngle < m2.frictionAngle ? m1.frictionAngle : m2.frictionAngle); }
};

// zeta(e) = -ln e / sqrt(pi^2 + ln^2 e): the damping ratio of a linear spring-dashpot whose
// restitution is e when the force may turn attractive before the overlap closes (verification
// theory 2, section 2.1, "tension allowed"); 1 at e = 0, 0 at e = 1.
inline double dampingRatioFromRestitution(double e) {
  if (!(e > 0.0)) return 1.0;
  if (e >= 1.0) return 0.0;  // (no dashpots: +0, where -ln 1 / pi would be -0)
  const double l = std::log(e);
  return -l / std::sqrt(3.14159265358979323846 * 3.14159265358979323846 + l * l);
}

// What a law sees of one contact at t_n (T = double) or of a batch of them (lanes).
template <class T>
struct LawInput {
  T uN;         // normal displacement (negative = overlap)
  T vN;         // normal relative velocity n . (v2 - v1), mid-step (negative = approaching)
  T duY, duZ;   // shear increment of this step, local axes (T_mid v_r dt; since the onset when new)
  T vY, vZ;     // shear relative velocity at the contact point, local axes (mid-step)
  // The relative displacement over the whole step, for the dashpots' work: the change of u_N (for a
  // new contact v_N dt, the closing of the gap before the onset included) and the shear v_T dt. (The
  // leapfrog's kinetic energy changes by F_n . (x_n+1 - x_n-1)/2: the trapezoid over whole steps
  // books exactly that; over the part of the first step in contact it would miss a first-order
  // share of the dashpot's jump to c v at the onset.)
  T stepN, stepY, stepZ;
  T uNPrev;  // u_N of the last step (where the contact was real; the state is zero otherwise)
};

// A law's history of one contact: its shear state (Cundall: the shear displacement u_T; Hertz-Mindlin:
// the tangential spring force) and the dashpot force of the last step (local), for the trapezoidal
// booking of the viscous work (energy.hpp). Zero for a new contact.
template <class T>
struct LawState {
  T sY, sZ;
  T dN, dY, dZ;
};

template <class T>
struct LawResult {
  T fN, fY, fZ;       // force on particle 1, local axes
  LawState<T> state;  // after this step
  T elastic;          // energy stored in the springs at t_n
  T slip;             // work dissipated by Coulomb sliding during this step
  T viscous;          // work dissipated by the dashpots during this step
  // Energy taken from the shear spring by a change of its stiffness during this step (a law whose
  // spring stiffness depends on the overlap: Hertz-Mindlin's incremental spring stores
  // |F_s|^2/(2 k_t) and keeps F_s when k_t changes, so with k_t,n-1 -> k_t,n its stored energy
  // changes by |F_s,n-1|^2 (1/k_t,n - 1/k_t,n-1)/2 without any force doing work: booked here with
  // the opposite sign, it may be negative); zero for a constant stiffness.
  T spring;
};

// Tangent stiffnesses of a contact (N/m).
struct ContactStiffness {
  double kn = 0.0, ks = 0.0;
};
// Dashpot coefficients of a contact (N s/m): normal and tangential.
struct ContactDashpots {
  double cn = 0.0, cs = 0.0;
};

// Dashpots are compiled out of a stage whose scene has none (Dashpots = false: every restitution is
// 1), so that a law without them costs nothing more: the dashpot force c v, and a force plus it.
template <bool Dashpots, class T>
[[gnu::always_inline]] inline T dashpot(const T& c, const T& v) {
  if constexpr (Dashpots) return c * v;
  else return T(0.0);
}
template <bool Dashpots, class T>
[[gnu::always_inline]] inline T withDashpot(const T& f, const T& d) {
  if constexpr (Dashpots) return f + d;
  else return f;
}

// Coulomb's cap with the dashpots (shared by the laws): the trial shear force is the spring's plus the
// dashpot's; if it exceeds tan(phi) times the repulsive normal force (none when the normal force
// pulls), the force is scaled back onto the cap, the spring takes the whole force and the dashpot is
// idle while sliding (seed "Cundall's stress evaluation": non-associated return).
template <class T>
struct CoulombReturn {
  T fY, fZ;        // the shear force after the return
  T springY, springZ;
  T dampY, dampZ;  // the dashpot's part of the shear force
  decltype(T() < T()) sliding;
};
template <bool Dashpots, class T>
[[gnu::always_inline]] inline CoulombReturn<T> coulombReturn(const T& tanPhi, const T& fN, const T& springY, const T& springZ,
                                                             const T& dampY, const T& dampZ) {
  using std::sqrt;
  CoulombReturn<T> r;
  const T ty = withDashpot<Dashpots>(springY, dampY), tz = withDashpot<Dashpots>(springZ, dampZ);
  const T trial2 = ty * ty + tz * tz;
  const T push = select(fN < 0.0, -fN, T(0.0));  // repulsive part of the normal force
  const T cap = push * tanPhi;
  r.sliding = trial2 > cap * cap;
  const T scale = cap / sqrt(select(r.sliding, trial2, T(1.0)));
  r.fY = select(r.sliding, ty * scale, ty);
  r.fZ = select(r.sliding, tz * scale, tz);
  r.springY = select(r.sliding, r.fY, springY);
  r.springZ = select(r.sliding, r.fZ, springZ);
  r.dampY = select(r.sliding, T(0.0), dampY);
  r.dampZ = select(r.sliding, T(0.0), dampZ);
  return r;
}

// The slip work of a step with shear spring stiffness k (trapezoid, energy.hpp): the trial spring
// force minus the returned one, times the mean spring force, over k:
//   W_slip = (F_s^t - F_s,n) . (F_s,n-1 + F_s,n) / (2 k)   (zero while sticking)
template <class T>
[[gnu::always_inline]] inline T slipWork(const T& trialY, const T& trialZ, const CoulombReturn<T>& r, const T& prevY,
                                         const T& prevZ, const T& invK) {
  return select(r.sliding, 0.5 * ((trialY - r.springY) * (prevY + r.springY) + (trialZ - r.springZ) * (prevZ + r.springZ)) * invK,
                T(0.0));
}

// The dashpots' work of a step (trapezoid over the step, energy.hpp): (F_d,n-1 + F_d,n)/2 . du.
template <bool Dashpots, class T>
[[gnu::always_inline]] inline T viscousWork(const LawState<T>& prev, const T& dN, const T& dY, const T& dZ, const LawInput<T>& in) {
  if constexpr (Dashpots) return 0.5 * ((prev.dN + dN) * in.stepN + (prev.dY + dY) * in.stepY + (prev.dZ + dZ) * in.stepZ);
  else return T(0.0);
}

std::string lawName(ContactLaw law);
// The law named `name` ("cundall", "hertzMindlin"); false if there is none.
bool lawFromName(const std::string& name, ContactLaw& law);

}  // namespace dem
