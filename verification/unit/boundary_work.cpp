// Unit: the ledger's boundary work (solver/energy.hpp) closes the balance of scenes driven by
// prescribed motions: a mesh plate (meshLoadPower), an infinite wall and a sphere (blocked axes,
// integrator) moving at a constant velocity V hit a free sphere obliquely (Cundall law with
// friction and, in a second run, Hertz-Mindlin with dashpots; no gravity, no damping).
//
// Identity (exact in exact arithmetic): the frame moving with V is inertial and the contact laws
// see only relative motion, so in that frame the driven body is at rest and the ledger's balance is
// the one of an impact on a fixed body. Back in the lab frame only the free sphere's kinetic energy
// changes: between two instants t_a, t_b at which no contact acts,
//   K(t_b) - K(t_a) = K'(t_b) - K'(t_a) + V . m (v_b - v_a),   K' = m |v - V|^2 / 2,
// and the leapfrog's momentum change is m (v_b - v_a) = dt sum_n F_n (forces on the sphere), while
// the trapezoid of the boundary work gives W = dt sum_n (-F_body,n) . V = V . dt sum_n F_n (the
// trapezoid's end halves vanish: no force at t_a, t_b). Hence
//   [E(t_b) - E(t_a)] - [K'(t_b) - K'(t_a) + (every other ledger term's change)] = 0
// with E the ledger's total (which subtracts W). Without the booking the residual is W, of the
// order of the impact energy. Tolerance: round-off, a few eps per step of the energy scale
// m (|V| + |v|)^2 / 2 accumulated over the steps (each kick, position update and trapezoid half
// rounds once): 8 eps N E_scale.
#include "solver/builders.hpp"
#include "solver/mesh_motion.hpp"
#include "solver/scene.hpp"
#include "solver/triangle.hpp"

#include <boost/test/unit_test.hpp>

#include <cmath>
#include <functional>
#include <limits>

using namespace dem;

namespace {

constexpr double kR = 0.005, kDt = 2e-6;
const Vec3 kV(0.3, -0.1, 1.0);  // the drive's velocity: towards the sphere, and sideways

// The sum of the ledger's terms other than kinetic, gravity and the boundary work.
double internalTerms(const EnergyLedger& e) {
  return e.rotational + e.elastic + e.dampingDissipated + e.frictionDissipated + e.viscousDissipated +
         e.springDissipated;
}

struct Impact {
  double residual = 0.0, bound = 0.0, work = 0.0;
  bool touched = false;
};

// Runs the scene (free sphere `free`, the driver built by `addDriver`, which moves at kV) from no
// contact through the impact to separation and returns the identity's residual.
Impact runImpact(ContactLaw law, const std::function<void(Scene&, std::uint32_t)>& addDriver) {
  Scene s;
  s.materials = {Material{2600.0, 1e7, 0.3, std::atan(0.5)}};
  if (law == ContactLaw::HertzMindlin) {
    s.materials[0].poisson = 0.25;
    s.materials[0].restitution = 0.7;
  }
  s.law = law;
  s.gravity = Vec3::Zero();
  ParticleSpec ball = sphereSpec(Vec3(0.0, 0.0, kR + 2e-4), kR, 2600.0);
  ball.angVel = Vec3(0.0, 20.0, 0.0);
  const std::uint32_t free = static_cast<std::uint32_t>(s.particles.add(ball));
  addDriver(s, 0);
  s.setDt(kDt);
  s.setDamping(0.0);
  const double m = s.particles.mass[free];
  Impact out;
  s.step();  // t_a = t_0: no contact yet
  const EnergyLedger a = s.energy;
  const Vec3 va = s.particles.vel[free];  // on-step velocity at t_0 (no force)
  double vmax = va.norm();
  const std::uint64_t steps = 1500;
  for (std::uint64_t n = 1; n < steps; ++n) {
    s.step();
    vmax = std::max(vmax, s.particles.vel[free].norm());
    out.touched = out.touched || s.contacts.countReal() > 0;
  }
  BOOST_TEST_REQUIRE(s.contacts.countReal() == 0u);  // t_b: separated
  const EnergyLedger& b = s.energy;
  const Vec3 vb = s.particles.vel[free];  // on-step at t_b = mid-step (no force)
  const double kPrime = 0.5 * m * ((vb - kV).squaredNorm() - (va - kV).squaredNorm());
  out.residual = (b.total() - a.total()) - (kPrime + internalTerms(b) - internalTerms(a));
  const double scale = 0.5 * m * std::pow(kV.norm() + vmax, 2);
  out.bound = 8.0 * std::numeric_limits<double>::epsilon() * static_cast<double>(steps) * scale;
  out.work = b.boundaryWork;
  return out;
}

void check(const Impact& r) {
  BOOST_TEST(r.touched);
  BOOST_TEST(std::abs(r.work) > 1e3 * r.bound);  // the drive did work, far above the tolerance
  BOOST_TEST(std::abs(r.residual) <= r.bound, "residual " << r.residual << " J, bound " << r.bound << " J");
  BOOST_TEST_MESSAGE("boundary work " << r.work << " J, residual " << r.residual << " J, bound " << r.bound << " J");
}

// A 4 x 4 grid plate of squares 4 R wide in z = 0, centred under the sphere, moving at kV.
void addPlate(Scene& s, std::uint32_t mat) {
  TriangleMesh m;
  const double h = 4 * kR;
  for (int i = 0; i < 4; ++i)
    for (int j = 0; j < 4; ++j) {
      const Vec3 o(-2 * h + i * h, -2 * h + j * h, 0.0);
      m.push_back({{o, o + Vec3(h, 0, 0), o + Vec3(h, h, 0)}});
      m.push_back({{o, o + Vec3(h, h, 0), o + Vec3(0, h, 0)}});
    }
  s.particles.addMesh(m, mat, MeshMotion{Vec3::Zero(), kV, Vec3::Zero(), 0.0}, "plate");
}

void addWall(Scene& s, std::uint32_t mat) {
  const std::size_t w = s.particles.addWall(Vec3::Zero(), Vec3::UnitZ(), mat);
  s.particles.vel[w] = kV;  // (all its axes are blocked: it moves at kV)
}

void addDrivenSphere(Scene& s, std::uint32_t) {
  ParticleSpec d = sphereSpec(Vec3(0.3 * kR, 0.0, -kR), kR, 2600.0);
  d.vel = kV;
  d.blocked = dof::all;
  s.particles.add(d);
}

}  // namespace

BOOST_AUTO_TEST_SUITE(boundary_work)

BOOST_AUTO_TEST_CASE(a_moving_mesh_books_the_work_it_does) {
  check(runImpact(ContactLaw::Cundall, addPlate));
  check(runImpact(ContactLaw::HertzMindlin, addPlate));
}

BOOST_AUTO_TEST_CASE(a_moving_wall_books_the_work_it_does) {
  check(runImpact(ContactLaw::Cundall, addWall));
  check(runImpact(ContactLaw::HertzMindlin, addWall));
}

BOOST_AUTO_TEST_CASE(a_driven_sphere_books_the_work_it_does) {
  check(runImpact(ContactLaw::Cundall, addDrivenSphere));
  check(runImpact(ContactLaw::HertzMindlin, addDrivenSphere));
}

// A driven body is outside the ledger's system: its kinetic energy and gravity are not booked.
BOOST_AUTO_TEST_CASE(a_driven_body_alone_leaves_the_ledger_at_zero) {
  Scene s;
  s.materials = {Material{2600.0, 1e7, 0.3, std::atan(0.5)}};
  addDrivenSphere(s, 0);
  const std::size_t w = s.particles.addWall(Vec3(0.0, 0.0, 1.0), Vec3::UnitZ(), 0);  // far from the sphere
  s.particles.vel[w] = kV;
  s.setDt(kDt);
  for (int n = 0; n < 10; ++n) s.step();
  BOOST_TEST(s.contacts.countReal() == 0u);
  BOOST_TEST(s.energy.total() == 0.0);
  BOOST_TEST(hasPrescribedMotion(s.particles));
}

BOOST_AUTO_TEST_SUITE_END()
