// Case: tangential load-unload cycles at constant normal load N (verification theory 2, section 4):
//       a sphere pressed into a wall at a fixed overlap and sheared back and forth by +-u*; the
//       hysteresis loop of the linear spring with Coulomb cap, and the dissipation the ledger books.
// Scenario:  glass sphere R = 0.01 m on a glass wall (E = 7e10 Pa, nu = 0.25, friction angle 0.3 rad),
//            overlap d = 1e-5 m, all its DOFs blocked and driven through dem::Scene: it stays at
//            z = R - d (constant N) and moves along x with a prescribed velocity, +u* in m steps from
//            rest, then one steady cycle +u* -> -u* -> +u* (2m steps each way). Laws: Cundall
//            (k = ks = 0.2 kn) and Hertz-Mindlin (at constant d, k = k_t = 8 G* a is constant, so the
//            incremental spring is the linear one with k = 8 G* a: theory 2, 4). Amplitudes
//            u* = A mu N/k, A = 1.5, 3, 10, and m = 5, 6, 7, 50 steps per quarter, 1000 at A = 3
//            (A = 3, m = 6 and A = 10, m = 5 put the stick-slip transitions on step ends); A = 0.5
//            below the cap.
// Reference: the parallelogram (theory 2, 4): F = mu N after the virgin loading, then F falls with
//            slope k after each reversal until -mu N; the dissipation per steady cycle is
//              W = 4 mu N (u* - mu N/k)          (mu N x the total slip; 0 for u* <= mu N/k).
//            The ledger books the slip work of a step by the trapezoid (contact_law.hpp slipWork:
//            (F_trial - F_n)(F_{n-1} + F_n)/(2k), which closes the ledger's trapezoidal work,
//            energy.hpp). On a sliding step after a sliding step it is mu N x slip; on the step where
//            the spring passes from stick (a of its increment du) to slip (b = du - a) it books
//            mu N b - k a b/2. So the ledger's exact discrete value per cycle is W - k a b (two
//            transitions), a = 2 mu N/k - (j - 1) du with j the first step with j k du > 2 mu N.
//            Theory 2, 4 states the ledger equals W to round-off; that holds only when the
//            transitions fall on step ends (a b = 0): the code books the trapezoid, the theory assumed
//            mu N x slip. The difference k a b <= k du^2/4 per cycle vanishes as O(du^2).
//            The loop area, sum over the steady cycle of (F_{k-1} + F_k)/2 du (the trapezoidal work
//            put in), equals what the ledger books: on each step it is the change of F^2/(2k) plus
//            the booked slip work (du = (F_trial - F_{k-1})/k), and F^2/(2k) is back where it was.
// Tolerance: loop area against the ledger: round-off, 1e-12 relative to W; ledger against
//            W - k a b, and against W where the transitions fall on step ends:
//            round-off, 1e-12 relative (theory 2, 4's CI figure; the increments carry m eps);
//            against W otherwise: the bound k du^2/4 (reported as error / bound);
//            the force at every step against the parallelogram: 1e-12 mu N; below the cap the
//            Coulomb return never acts: 0 dissipated exactly.
//            Not reproduced by this law (ungated series): Mindlin-Deresiewicz micro-slip, whose
//            displacement-controlled cycle beyond full slip dissipates 4 mu N (u* - 1.2 mu N/k_t),
//            0.8 mu^2 N^2/k_t less (Johnson 1985, 7.4; theory 2, 4).
#include "cases/registry.hpp"
#include "solver/laws.hpp"
#include "solver/scene.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <string>
#include <vector>

namespace dem::verify {

namespace {

constexpr double kCycleR = 0.01, kCycleOverlap = 1e-5, kCycleDt = 1e-6;

Scene shearScene(ContactLaw law) {
  const Material glass{2500.0, 7e10, 0.2, 0.3, 0.25, 1.0};
  Scene s;
  s.materials = {glass};
  s.law = law;
  s.particles.addWall(Vec3::Zero(), Vec3::UnitZ(), 0);
  ParticleSpec p = sphereSpec(Vec3(0, 0, kCycleR - kCycleOverlap), kCycleR, glass.density);
  p.blocked = dof::all;
  s.particles.add(p);
  s.setDt(kCycleDt);
  s.setDamping(0.0);
  return s;
}

// The contact's normal load N, Coulomb force mu N and tangential stiffness k (laws/*.hpp).
struct ShearContact {
  double muN, k;
};
ShearContact readContact(const Scene& s, ContactLaw law) {
  const std::int64_t i = s.contacts.find(1, 0);
  if (i < 0) throw std::runtime_error("tangential_cycle: no contact");
  const Contact c = s.contacts.get(static_cast<std::size_t>(i));
  const double N = std::abs(c.force.z()), tanPhi = c.params[2];
  const double k =
      law == ContactLaw::Cundall ? c.params[1] : c.params[1] * std::sqrt(kCycleOverlap);  // ks; k_t = 8 G* sqrt(R* d)
  return {tanPhi * N, k};
}

// The parallelogram: force on the spring at displacement u, moving in direction dir from the
// reversal at -dir u* (where F = -dir min(mu N, k u*)).
double loopForce(const ShearContact& c, double uStar, double u, double dir) {
  const double f = -dir * std::min(c.muN, c.k * uStar) + c.k * (u + dir * uStar);
  return std::clamp(f, -c.muN, c.muN);
}

struct CycleResult {
  double booked = 0, closedForm = 0, discrete = 0, bound = 0, forceErr = 0;
  double area = 0;                        // loop area: trapezoid sum of F du over the steady cycle
  std::vector<std::vector<double>> loop;  // u, F
};

// A cycle of amplitude A mu N/k with m steps per quarter.
CycleResult runCycle(ContactLaw law, double A, int m) {
  Scene s = shearScene(law);
  s.step();  // contact formation: no shear increment (not approaching)
  const ShearContact c = readContact(s, law);
  const double uStar = A * c.muN / c.k, du = uStar / m, v = du / kCycleDt;
  const auto tangential = [&] { return -s.contacts.get(static_cast<std::size_t>(s.contacts.find(1, 0))).force.x(); };
  CycleResult r;
  double u = 0, fPrev = 0;
  const auto move = [&](double dir, int steps, bool measure) {
    s.particles.vel[1] = Vec3(dir * v, 0, 0);
    for (int j = 0; j < steps; ++j) {
      s.step();
      u += dir * du;
      if (!measure) continue;
      const double f = tangential();
      r.forceErr = std::max(r.forceErr, std::abs(f - loopForce(c, uStar, u, dir)) / c.muN);
      r.area += 0.5 * (fPrev + f) * dir * du;
      fPrev = f;
      r.loop.push_back({u, f});
    }
  };
  move(1.0, m, false);
  fPrev = tangential();
  const double w0 = s.energy.frictionDissipated;
  move(-1.0, 2 * m, true);
  move(1.0, 2 * m, true);
  r.booked = s.energy.frictionDissipated - w0;
  r.closedForm = A > 1.0 ? 4.0 * c.muN * (uStar - c.muN / c.k) : 0.0;  // theory 2, 4
  const double j = std::floor(2.0 * c.muN / (c.k * du)) + 1.0, a = 2.0 * c.muN / c.k - (j - 1.0) * du;
  r.discrete = A > 1.0 ? r.closedForm - c.k * a * (du - a) : 0.0;  // two trapezoid transitions
  r.bound = c.k * du * du / 4.0;
  if (s.energy.springDissipated != 0.0) throw std::runtime_error("tangential_cycle: spring term at constant overlap");
  return r;
}

struct LawErrors {
  double discrete = 0, closed = 0, aligned = 0, force = 0, belowCap = 0, area = 0;
};

LawErrors lawErrors(ContactLaw law, Series* loop, Series* work) {
  LawErrors e;
  for (const double A : {1.5, 3.0, 10.0})
    for (const int m : {5, 6, 7, 50, 1000}) {
      if (m == 1000 && A != 3.0) continue;  // many small steps: one amplitude is enough
      CycleResult r = runCycle(law, A, m);
      e.discrete = std::max(e.discrete, std::abs(r.booked - r.discrete) / r.closedForm);
      e.area = std::max(e.area, std::abs(r.area - r.booked) / r.closedForm);
      e.closed = std::max(e.closed, std::abs(r.booked - r.closedForm) / r.bound);
      e.force = std::max(e.force, r.forceErr);
      if ((A == 3.0 && m == 6) || (A == 10.0 && m == 5))  // transitions on step ends
        e.aligned = std::max(e.aligned, std::abs(r.booked - r.closedForm) / r.closedForm);
      if (work && m == 7) {
        const double muNoverK = r.closedForm / (4.0 * (A - 1.0));  // mu N * (mu N/k)
        work->rows.push_back({A, r.booked / muNoverK, r.closedForm / muNoverK, 4.0 * (A - 1.2)});
      }
      if (loop && A == 3.0 && m == 50) loop->rows = std::move(r.loop);
    }
  for (const int m : {7, 50}) {
    const CycleResult r = runCycle(law, 0.5, m);
    e.belowCap = std::max(e.belowCap, std::abs(r.booked));
    e.force = std::max(e.force, r.forceErr);
  }
  return e;
}

}  // namespace

Case tangentialCycleCase() {
  Case c;
  c.name = "tangential_cycle";
  c.title =
      "tangential load-unload cycle at constant N (Cundall, Hertz-Mindlin): loop, booked dissipation 4 mu N (u* - mu "
      "N/k)";
  c.dts = {0.0};
  for (const std::string law : {"cundall_", "hertz_mindlin_"}) {
    c.quantities.push_back(roundOffTolerance({law + "ledger_vs_discrete", [](double) { return 1e-12; }, std::nullopt}));
    c.quantities.push_back(theoryBound("k du^2/4 (theory 2 section 4)", {law + "ledger_vs_closed_form_over_bound",
                                                                         [](double) { return 1.0; }, std::nullopt}));
    c.quantities.push_back(
        roundOffTolerance({law + "loop_area_vs_ledger", [](double) { return 1e-12; }, std::nullopt}));
    c.quantities.push_back(
        roundOffTolerance({law + "ledger_vs_closed_form_aligned", [](double) { return 1e-12; }, std::nullopt}));
    c.quantities.push_back(roundOffTolerance({law + "loop_force", [](double) { return 1e-12; }, std::nullopt}));
    c.quantities.push_back(
        roundOffTolerance({law + "below_cap_dissipation", [](double) { return 0.0; }, std::nullopt, "J"}));
  }
  c.run = [](double) {
    RunOutput out;
    for (const ContactLaw law : {ContactLaw::Cundall, ContactLaw::HertzMindlin}) {
      const std::string t = law == ContactLaw::Cundall ? "cundall_" : "hertz_mindlin_";
      const std::string lawLabel = law == ContactLaw::Cundall ? "Cundall" : "Hertz-Mindlin";
      Series loop{t + "loop", {"u", "F_t"}, {}, lawLabel + ": steady cycle, u* = 3 mu N/k, 50 steps per quarter",
                  "u [m]",    "F_t [N]"};
      Series work{
          t + "work",
          {"A", "W_ledger", "W_closed_form", "W_mindlin_deresiewicz"},
          {},
          lawLabel + ": dissipation per cycle / (mu N)^2/k against u*/(mu N/k), 7 steps per quarter (MD ungated)",
          "u*/(mu N/k)",
          "W k/(mu N)^2"};
      const LawErrors e = lawErrors(law, &loop, &work);
      out.errors[t + "ledger_vs_discrete"] = e.discrete;
      out.errors[t + "ledger_vs_closed_form_over_bound"] = e.closed;
      out.errors[t + "loop_area_vs_ledger"] = e.area;
      out.errors[t + "ledger_vs_closed_form_aligned"] = e.aligned;
      out.errors[t + "loop_force"] = e.force;
      out.errors[t + "below_cap_dissipation"] = e.belowCap;
      out.series.push_back(std::move(loop));
      out.series.push_back(std::move(work));
    }
    return out;
  };
  return c;
}

}  // namespace dem::verify
