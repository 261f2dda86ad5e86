#pragma once
// Shared measurement for the impact cases: runs a scene through one contact between bodies a and b
// and records the contact's start and end (linear interpolation of the on-step overlap's sign
// change, verification theory section 6.1), the sampled peak overlap and force, and the
// velocities after separation.

#include "solver/particles.hpp"
#include "solver/scene.hpp"

#include <cstdint>
#include <functional>

namespace dem::verify {

struct ImpactRecord {
  double tStart = -1.0, tEnd = -1.0;
  double maxOverlap = 0.0, maxForce = 0.0;
  Vec3 vA, wA, vB, wB;  // mid-step velocities after separation (constant from then on)
  // Where the sign changes fall in their steps (0 <= fraction < 1): the onset lies a fraction
  // `startFraction` of a step after the last free sample (theory 2, 1.3: its overlap is
  // -startFraction v dt), the end a fraction `endFraction` after the last contact sample.
  double startFraction = -1.0, endFraction = -1.0;
  bool separated = false;
};

// A wall z = 0 with normal +z of its own material `wall` (id 0) and one sphere of material `sphere`
// (id 1) at x with on-step velocities v, w; contact law `law`, no gravity, no damping.
inline Scene lawWallScene(ContactLaw law, const Material& sphere, const Material& wall, double R, const Vec3& x, const Vec3& v,
                          const Vec3& w, double dt) {
  Scene s;
  s.materials = {sphere, wall};
  s.law = law;
  s.particles.addWall(Vec3::Zero(), Vec3::UnitZ(), 1);
  ParticleSpec a = sphereSpec(x, R, sphere.density);
  a.vel = v;
  a.angVel = w;
  a.material = 0;
  s.particles.add(a);
  s.setDt(dt);
  s.setDamping(0.0);
  return s;
}

// gap(scene) is the signed surface distance of a and b (negative = overlap).
inline ImpactRecord runImpact(Scene& s, std::uint32_t a, std::uint32_t b,
                              const std::function<double(const Scene&)>& gap, std::uint64_t maxSteps) {
  ImpactRecord r;
  double gPrev = gap(s), tPrev = s.time;
  bool inContact = gPrev < 0.0;
  for (std::uint64_t k = 0; k < maxSteps; ++k) {
    s.step();
    const std::int64_t ci = s.contacts.find(a, b);
    if (ci >= 0) r.maxForce = std::max(r.maxForce, s.contacts.get(static_cast<std::size_t>(ci)).force.norm());
    const double g = gap(s);
    r.maxOverlap = std::max(r.maxOverlap, -g);
    if (!inContact && g < 0.0) {
      r.startFraction = gPrev / (gPrev - g);
      r.tStart = tPrev + (s.time - tPrev) * r.startFraction;
      inContact = true;
    } else if (inContact && g >= 0.0) {
      r.endFraction = gPrev / (gPrev - g);
      r.tEnd = tPrev + (s.time - tPrev) * r.endFraction;
      s.step();  // one more step: the force at this configuration is zero, velocities are final
      r.vA = s.particles.vel[a];
      r.wA = s.particles.angVel[a];
      r.vB = s.particles.vel[b];
      r.wB = s.particles.angVel[b];
      r.separated = true;
      return r;
    }
    gPrev = g;
    tPrev = s.time;
  }
  return r;
}

}  // namespace dem::verify
