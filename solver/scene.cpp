#include "scene.hpp"

#include <sstream>
#include <stdexcept>

namespace dem {

namespace {
std::string str(double v) {
  std::ostringstream s;
  s.precision(17);
  s << v;
  return s.str();
}
}  // namespace

void Scene::setDt(double dt) {
  if (!(std::isfinite(dt) && dt > 0.0))
    throw std::invalid_argument("scene: dt = " + str(dt) + " is invalid; expected a finite value > 0");
  dt_ = dt;
}

void Scene::setDamping(double lambda) {
  if (!(std::isfinite(lambda) && lambda >= 0.0 && lambda < 1.0))
    throw std::invalid_argument("scene: damping = " + str(lambda) + " is invalid; expected 0 <= damping < 1");
  integrator_.damping = lambda;
}

void Scene::validate() {
  if (!(dt_ > 0.0)) throw std::invalid_argument("scene: dt is not set; call setDt() with a value > 0");
  if (!allFinite(gravity)) {
    std::ostringstream s;
    s << "scene: gravity = (" << gravity.transpose() << ") is invalid; expected finite components";
    throw std::invalid_argument(s.str());
  }
  for (std::size_t k = 0; k < materials.size(); ++k) validateMaterial(k, materials[k]);
  if (validatedParticles_ == particles.size()) return;
  particles.checkFinite();
  if (particles.size() > 1) {
    for (std::size_t i = 0; i < particles.size(); ++i) {
      if (particles.material[i] >= materials.size()) {
        std::ostringstream s;
        s << "particle " << i << ": material = " << particles.material[i]
          << " is invalid; expected an index into scene.materials (size " << materials.size()
          << "); add a Material to scene.materials";
        throw std::invalid_argument(s.str());
      }
    }
  }
  for (std::size_t i = 0; i < particles.size(); ++i) {
    const std::uint8_t rot = particles.blocked[i] & dof::rotation;
    if (particles.isAspherical(i) && rot != 0 && rot != dof::rotation) {
      std::ostringstream s;
      s << "particle " << i << ": blocked = " << int(particles.blocked[i]) << " blocks some but not all rotations of "
        << "an aspherical body (inertia = (" << particles.inertia[i].transpose()
        << ")); block all three rotations (dof::rotation) or none";
      throw std::invalid_argument(s.str());
    }
  }
  validatedParticles_ = particles.size();
}

void Scene::applyFields() {
  Particles& p = particles;
  const std::size_t n = p.size();
#pragma omp parallel for schedule(static) if (n > kParallelThreshold)
  for (std::size_t i = 0; i < n; ++i) {
    p.force[i] = p.clump[i] == kNoClump ? Vec3(p.mass[i] * gravity) : Vec3::Zero();
    p.torque[i].setZero();
  }
}

// Contact stage at t_n: elastic energy is the springs' state at t_n, the friction work is
// cumulative through t_n (the slip between t_n-1 and t_n).
void Scene::contactForces(StageClock& clock) {
  if (particles.size() < 2) return;
  collider.update(particles, materials, contacts);
  clock.lap(stageTimes_.collider);
  const ContactStageResult r = contactStage(particles, contacts, dt_, contactScratch_);
  energy.elastic = r.elastic;
  energy.frictionDissipated += r.dissipated;
}

void Scene::step() {
  validate();
  StageClock clock(stageTiming_);
  applyFields();
  if (externalForces) externalForces(particles, time);
  clock.lap(stageTimes_.fields);
  energy.time = time;
  contactForces(clock);
  clock.lap(stageTimes_.contacts);
  energy.step = stepCount;
  clumps.aggregate(particles);
  integrate(particles, gravity, dt_, integrator_, energy, integratorScratch_);
  clumps.placeMembers(particles);
  clock.lap(stageTimes_.integrator);
  if (stageTiming_) ++stageTimes_.steps;
  ++stepCount;
  time += dt_;
}

void Scene::run(std::uint64_t steps) {
  for (std::uint64_t k = 0; k < steps; ++k) step();
}

}  // namespace dem
