#pragma once
// A simulation: particles, fields, integrator settings, time; one step as the architecture lays out:
//   1. forces := gravity m g (clump members: 0, their clump carries it), torques := 0
//   2. contact stage: collider (only when some body moved farther than its Verlet distance),
//      contact geometry + Cundall law per contact, per-particle force gather (contact_loop.hpp)
//   3. clump members' forces -> clumps; integration (leapfrog, damping, rotation; members are not
//      integrated); members placed rigidly from their clumps
//   4. time += dt, step += 1; the energy ledger refers to the step's start t_n.

#include "collider.hpp"
#include "contact_loop.hpp"
#include "contacts.hpp"
#include "clump.hpp"
#include "energy.hpp"
#include "integrator.hpp"
#include "materials.hpp"
#include "particles.hpp"
#include "stage_timer.hpp"

#include <cstdint>
#include <functional>
#include <vector>

namespace dem {

class Scene {
 public:
  Particles particles;
  // Materials, indexed by particles.material[i]. A scene with two or more bodies needs every
  // body's material index to be valid (checked before the first step).
  std::vector<Material> materials;
  Collider collider;     // set collider.verletDist before the first step
  ContactStore contacts;
  Clumps clumps;
  Vec3 gravity = Vec3::Zero();
  EnergyLedger energy;
  double time = 0.0;
  std::uint64_t stepCount = 0;

  // Optional user force field, called every step after gravity and before contacts; it adds to
  // particles.force / particles.torque (time is t_n).
  std::function<void(Particles&, double time)> externalForces;

  // Throws std::invalid_argument unless dt is finite and > 0.
  void setDt(double dt);
  double dt() const { return dt_; }

  // Throws std::invalid_argument unless 0 <= lambda < 1.
  void setDamping(double lambda);
  double damping() const { return integrator_.damping; }

  void setAdjVel0(bool on) { integrator_.adjVel0 = on; }
  bool adjVel0() const { return integrator_.adjVel0; }

  // Rotation integrator of aspherical bodies (solver/rotation.hpp); spherical bodies always use the
  // spherical update. Default: Fincham in Allen & Tildesley's form.
  void setRotationAlgorithm(RotationAlgorithm a) { integrator_.rotation = a; }
  RotationAlgorithm rotationAlgorithm() const { return integrator_.rotation; }

  // Makes a clump of existing particles (solver/clump.hpp); returns the clump body's particle id.
  std::size_t addClump(const std::vector<std::size_t>& members, const ClumpOptions& options = {}) {
    return clumps.add(particles, members, options);
  }

  void step();
  void run(std::uint64_t steps);

  // Optional wall-clock timers of the step's stages (stage_timer.hpp), off by default; they only
  // read the clock and never change results.
  void setStageTiming(bool on) { stageTiming_ = on; }
  const StageTimes& stageTimes() const { return stageTimes_; }
  void resetStageTimes() { stageTimes_ = StageTimes{}; }

 private:
  double dt_ = 0.0;
  IntegratorSettings integrator_;
  IntegratorScratch integratorScratch_;
  ContactScratch contactScratch_;
  std::size_t validatedParticles_ = 0;
  bool stageTiming_ = false;
  StageTimes stageTimes_;

  void validate();
  void applyFields();
  void contactForces(StageClock& clock);
};

}  // namespace dem
