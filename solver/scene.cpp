#include "scene.hpp"

#include "lanes.hpp"
#include "mesh_motion.hpp"
#include "spatial_order.hpp"
#include "wall_loads.hpp"

#include <limits>
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

void Scene::setDtFromStiffness(double safety, std::uint64_t interval) {
  if (!(std::isfinite(safety) && safety > 0.0 && safety < 1.0))
    throw std::invalid_argument("scene: setDtFromStiffness: safety = " + str(safety) +
                                " is invalid; expected 0 < safety < 1 (a fraction of the critical timestep)");
  autoDtSafety_ = safety;
  autoDtInterval_ = interval;
  autoDtNext_ = stepCount;
}

void Scene::setCarriedState(const CarriedState& c) {
  if (!(std::isfinite(c.dtSafety) && c.dtSafety >= 0.0 && c.dtSafety < 1.0))
    throw std::invalid_argument("scene: carried state: dt safety = " + str(c.dtSafety) +
                                " is invalid; expected 0 <= safety < 1");
  if (!c.prevStressSum.allFinite())
    throw std::invalid_argument("scene: carried state: the previous stress sum is not finite");
  autoDtSafety_ = c.dtSafety;
  autoDtInterval_ = c.dtInterval;
  autoDtNext_ = c.dtNext;
  prevStressSum_ = c.prevStressSum;
  renumberDue_ = c.renumberDue;
  measureOrdered_ = c.measureOrdered;
  orderedShare_ = c.orderedShare;
  renumberings_ = c.renumberings;
}

void Scene::validate() {
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
        s << "particle " << particles.userId[i] << ": material = " << particles.material[i]
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
      s << "particle " << particles.userId[i] << ": blocked = " << int(particles.blocked[i])
        << " blocks some but not all rotations of "
        << "an aspherical body (inertia = (" << particles.inertia[i].transpose()
        << ")); block all three rotations (dof::rotation) or none";
      throw std::invalid_argument(s.str());
    }
  }
  if (cell && !particles.meshes.empty()) sharePeriodicVertices(particles, cell->H());  // (meshes across the seams)
  liftMass_ = 0.0;
  for (std::size_t u = 0; u < particles.size(); ++u) {  // (in the order of user ids)
    const std::size_t i = particles.slotOf[u];
    if (!particles.isBoundary(i) && !particles.isClump[i]) liftMass_ += particles.mass[i] * particles.radius[i];
  }
  validatedParticles_ = particles.size();
}

// The collider of the scene's space (periodic with a cell); it skips the run when it is up to date.
// After a run the contacts are partitioned: the real ones in front of the others, and the contacts
// that cannot touch before the next run behind all (ContactStore::partition, Collider::dormant,
// PeriodicCollider::dormant). Between runs the real contacts are gathered in front of the active ones
// at every step (ContactStore::gatherReal: the contacts formed or separated since the last step), and
// in a cell the dormant contacts are woken as soon as H is no longer the run's.
void Scene::updateCollider() {
  collider.law = periodicCollider.law = law;
  const bool ran = cell ? periodicCollider.update(particles, *cell, materials, contacts)
                        : collider.update(particles, materials, contacts);
  // how far the bodies may have moved since the run (in a cell, only while H is the run's)
  constexpr double unknown = std::numeric_limits<double>::infinity();
  contacts.setMoveSinceRun(cell ? (cellAtRest() ? periodicCollider.moveSinceRun() : unknown) : collider.moveSinceRun());
  if (ran) {
    // (at each run, rather than each step: dropping the group first checks every contact)
    contacts.useDashpotColumns(hasDashpots());
    contacts.partition([&](const ContactPair& c) { return dormant(c); });
    contacts.recordRunGaps([&](const ContactPair& c) {
      return cell ? periodicCollider.runGap(particles, c) : collider.runGap(particles, c);
    });
    contacts.assertInvariants(particles);
    noteStorageOrder();
    return;
  }
  if (cell && !periodicCollider.dormancyHolds(*cell)) contacts.wakeDormant();
  // (its swaps keep the invariants partition() checks at every run; the sorts at 1/kSortDisorder
  // every kSortPeriod steps)
  contacts.gatherReal(stepCount % kSortPeriod == 0);
}

void Scene::noteStorageOrder() {
  if (!spatialOrder_ || particles.size() <= kLocalityWindow) return;
  const double share = farContactShare(contacts);
  if (measureOrdered_) {
    orderedShare_ = share;
    measureOrdered_ = false;
  }
  renumberDue_ = share > 0.25 && share > 2.0 * orderedShare_;
}

void Scene::renumber(std::vector<std::uint32_t> newSlot) {
  particles.permute(newSlot);
  contacts.renumberBodies(newSlot);
  collider.renumber(newSlot);
  periodicCollider.renumber(newSlot);
  for (std::size_t* i : {&integratorScratch_.fastest, &integratorScratch_.firstNonFinite})
    if (*i != IntegratorScratch::npos && *i < newSlot.size()) *i = newSlot[*i];
  contacts.assertInvariants(particles);
}

bool Scene::dormant(const ContactPair& c) const {
  // (in a cell that moves, H changes at this step: dormant marks would be woken at the next)
  if (cell) return cellAtRest() && periodicCollider.dormancyHolds(*cell) && periodicCollider.dormant(particles, c);
  return collider.dormant(particles, c);
}

void Scene::recoverContactMarks() {
  contacts.recoverMarks([&](const ContactPair& c) { return dormant(c); });
  contacts.assertInvariants(particles);
}

// dt := safety * (global-stiffness estimate) with the contacts present at t_n: the collider runs
// first (contactForces() then finds it up to date), and the estimator counts pairs that overlap now
// (across the periodic boundary with their images).
void Scene::updateDtFromStiffness() {
  if (particles.size() > 1) updateCollider();
  const TimestepEstimate e = criticalTimestep();
  if (!(std::isfinite(e.dt) && e.dt > 0.0))
    throw std::invalid_argument(
        "scene: setDtFromStiffness: no sphere and no contact to estimate the critical "
        "timestep from (estimate = " +
        str(e.dt) + "); call setDt() instead");
  dt_ = autoDtSafety_ * e.dt;
  autoDtNext_ = autoDtInterval_ > 0 ? stepCount + autoDtInterval_ : std::numeric_limits<std::uint64_t>::max();
}

// Runaway check of the step just taken (runaway.hpp); the critical dt in the error is the
// global-stiffness estimate over every pair the collider holds (ContactSelection::Potential: a
// runaway has often thrown the bodies apart), real contacts with their normals of t_n, the last
// state that was finite; the p-wave value when there is none.
void Scene::checkRunaway(bool gradientChanged) {
  const IntegratorScratch& s = integratorScratch_;
  const bool nonFinite = s.firstNonFinite != IntegratorScratch::npos;
  // A deforming cell with homoDeform: the ledger books the cell's work on the contacts (cellWork) and
  // the fluctuation energies, so the balance closes and criterion 2 holds as in a closed system
  // (runaway.hpp). Without homoDeform the particles are not convected and the cell's work on them is
  // not booked: not a closed system.
  const bool deforming = cell && (!cell->velGrad().isZero(0.0) || !cell->nextVelGrad().isZero(0.0));
  // A step whose gradient differs from the previous one's (a switch-on) gives every particle the
  // velocity change (L_n+1/2 - L_n-1/2) x, work the ledger does not book: open, a new reference after it.
  const bool closed = !externalForces && !(deforming && !cell->homoDeform) && !gradientChanged;
  const RunawayMonitor::Verdict v =
      runaway.check(energy, gravity.norm() * liftMass_, closed, nonFinite, particles.size());
  if (v == RunawayMonitor::Verdict::Ok) return;
  const std::size_t whoSlot = nonFinite ? s.firstNonFinite : s.fastest;
  const std::size_t who = whoSlot < particles.size() ? particles.userId[whoSlot] : whoSlot;  // (user id)
  double dtCr = std::numeric_limits<double>::quiet_NaN();
  std::string how;
  try {
    const TimestepEstimate e =
        globalStiffnessTimestep(particles, contacts, materials, ContactSelection::Potential, cellH(), law);
    dtCr = e.dt;
    how = e.fromContacts ? "global stiffness of the contacts held by the collider" : "p-wave, no contacts";
  } catch (const std::invalid_argument& err) {
    how = std::string("not available: ") + err.what();
  }
  std::ostringstream m;
  m.precision(6);
  m << "scene: runaway at step " << energy.step << " (t = " << energy.time << "): particle " << who;
  if (nonFinite) m << " has a non-finite position or velocity";
  else if (v == RunawayMonitor::Verdict::NonFiniteEnergy)
    m << " is the fastest; the energy ledger's " << nonFiniteLedgerTerm(energy).name << " is "
      << nonFiniteLedgerTerm(energy).value << " (not finite)";
  else m << " is the fastest; the energy grew by " << runaway.gain() << " J (bound " << runaway.bound() << " J)";
  m << "; dt = " << dt_ << ", estimated critical dt = " << dtCr << " (" << how << "); "
    << (v == RunawayMonitor::Verdict::NonFiniteEnergy
            ? "the energy exceeds the range of doubles: check the scene's speeds, gravity and forces, or reduce dt"
            : "reduce dt (e.g. setDtFromStiffness with a safety factor < 1)");
  throw RunawayError(m.str(), energy.step, who, dt_, dtCr);
}

void Scene::applyFields() {
  Particles& p = particles;
  const std::size_t n = p.size();
  const BalancedRuns& runs = integratorScratch_.runs;
  // Each thread the bodies of its integrator's run (whose core last read these lines and whose
  // contacts mostly add to them next; equal shares before the integrator's first run on this team).
#pragma omp parallel if (n > kParallelThreshold)
  {
    const TeamPlace team = teamPlace();
    std::size_t i0 = n * team.thread / team.threads, i1 = n * (team.thread + 1) / team.threads;
    if (runs.threads() == team.threads) {
      const auto [q0, q1] = runs.run(team.thread, (n + kLanes - 1) / kLanes);
      i0 = std::min(n, q0 * kLanes);
      i1 = std::min(n, q1 * kLanes);
    }
    for (std::size_t i = i0; i < i1; ++i) {
      p.force[i] = p.clump[i] == kNoClump ? Vec3(p.mass[i] * gravity) : Vec3::Zero();
      p.torque[i].setZero();
    }
  }
}

// Contact stage at t_n: elastic energy is the springs' state at t_n, the friction work is
// cumulative through t_n (the slip between t_n-1 and t_n).
void Scene::contactForces(StageClock& clock) {
  if (particles.size() < 2) return;
  ContactStageResult r;
  updateCollider();
  clock.lap(stageTimes_.collider);
  if (cell) {
    const PeriodicShift shift{cell->H(), cell->imageVelocity()};
    r = contactStage(particles, materials, contacts, dt_, contactScratch_, law, &shift, hasDashpots(), sumOrder(),
                     sharedSums_ ? &*sharedSums_ : nullptr);
    // Love-Weber stress at t_n and the cell's work over the last step (trapezoid, energy.hpp).
    const Mat3& S = r.stressSum;
    stress = S / cell->volume();
    if (stepCount > 0) {
      const Mat3 D = 0.5 * (cell->velGrad() + cell->velGrad().transpose());  // L_{n-1/2}, symmetric part
      energy.cellWork += 0.5 * dt_ * (prevStressSum_ + S).cwiseProduct(D).sum();
    }
    prevStressSum_ = S;
  } else {
    r = contactStage(particles, materials, contacts, dt_, contactScratch_, law, nullptr, hasDashpots(), sumOrder(),
                     sharedSums_ ? &*sharedSums_ : nullptr);
  }
  energy.elastic = r.elastic;
  energy.frictionDissipated += r.dissipated;
  energy.viscousDissipated += r.viscous;
  energy.springDissipated += r.spring;
}

// The moving meshes' share of the boundary work (energy.hpp) at t_n: the trapezoid over the step
// that ends at t_n, (P_n-1 + P_n) dt/2, its first half pending since the last step (none on the
// first step). (The blocked axes' share: DriveWork, drive_work.hpp.)
void Scene::bookMeshWork() {
  std::optional<PeriodicShift> shift;  // (the contact stage's: H_n, the cell not advanced yet)
  if (cell) shift = PeriodicShift{cell->H(), cell->imageVelocity()};
  const double power = -meshLoadPower(particles, contacts, time, shift ? &*shift : nullptr,
                                      sharedSums_ ? &*sharedSums_ : nullptr);  // input to the system
  if (stepCount > 0) energy.boundaryWork += energy.boundaryPending + 0.5 * dt_ * power;
  energy.boundaryPending = 0.5 * dt_ * power;
}

namespace {
std::function<void(Scene&)>& stepHook() {
  static std::function<void(Scene&)> hook;
  return hook;
}
thread_local bool inStepHook = false;  // (the hook's own steps are the scenes' own)
}  // namespace

void Scene::setStepHook(std::function<void(Scene&)> hook) { stepHook() = std::move(hook); }

void Scene::step() {
  if (stepHook() && !inStepHook) {
    inStepHook = true;
    try {
      stepHook()(*this);
    } catch (...) {
      inStepHook = false;
      throw;
    }
    inStepHook = false;
    return;
  }
  validate();
  if (renumberDue_) {  // (the storage order decayed at the last collider run: noteStorageOrder)
    renumber(dem::spatialOrder(particles, cell ? &*cell : nullptr));
    renumberDue_ = false;
    measureOrdered_ = true;
    ++renumberings_;
  }
  const bool gradientChanged = cell && cell->velGrad() != cell->nextVelGrad();
  if (autoDtSafety_ > 0.0 && stepCount >= autoDtNext_) updateDtFromStiffness();
  if (!(dt_ > 0.0)) throw std::invalid_argument("scene: dt is not set; call setDt() with a value > 0");
  // (the meshes' work and a rank's drives read the contacts' results: bookMeshWork, DriveWork)
  contacts.useResultColumns(keepContactResults_ || !particles.meshes.empty() || sharedSums_.has_value());
  // the drives' work over the step that ended, its half at the forces still held from it, with this
  // step's dt as the contact law (drive_work.hpp)
  energy.boundaryWork += drives_.begin(particles, gravity, dt_, sharedSums_ ? &*sharedSums_ : nullptr, &contacts);
  const bool meshes = !particles.meshes.empty();
  if (meshes) placeMeshes(particles, time, dt_);  // (t_n: exact from the time, whatever came before)
  StageClock clock(stageTiming_);
  applyFields();
  if (externalForces) externalForces(particles, time);
  clock.lap(stageTimes_.fields);
  energy.time = time;
  contactForces(clock);
  clock.lap(stageTimes_.contacts);
  energy.step = stepCount;
  clumps.aggregate(particles);
  energy.boundaryWork += drives_.end(particles, gravity, dt_, sharedSums_ ? &*sharedSums_ : nullptr, &contacts);
  // (a cell at rest, L_n-1/2 = L_n+1/2 = 0: the field terms vanish, the plain integrator, whose
  // energies are then the totals)
  const bool field = cell && cell->homoDeform && !cellAtRest();
  if (field) {
    const HomoDeform homo = homoDeformTerms(*cell, dt_);  // position-independent terms, once per step
    integrate(particles, gravity, dt_, integrator_, energy, integratorScratch_, &homo,
              sharedSums_ ? &*sharedSums_ : nullptr);
  } else {
    integrate(particles, gravity, dt_, integrator_, energy, integratorScratch_, nullptr,
              sharedSums_ ? &*sharedSums_ : nullptr);
    if (cell && cell->homoDeform) energy.kineticTotal = energy.kinetic;
  }
  if (meshes) bookMeshWork();
  clumps.placeMembers(particles);
  clock.lap(stageTimes_.integrator);
  if (stageTiming_) ++stageTimes_.steps;
  if (cell) {
    cell->advance(dt_);  // H_{n+1}, eq. (33)
    if (cell->flipFlippable) flipCell();
  }
  ++stepCount;
  time += dt_;
  if (meshes) placeMeshes(particles, time, dt_);  // t_n+1, with the positions
  checkRunaway(gradientChanged);
}

bool Scene::flipCell() {
  if (!cell) return false;
  // a wall's cell axis is never subtracted from the columns its plane contains (they stay in it)
  unsigned kept = 0;
  for (const Wall& w : particles.walls)
    if (const int m = wallCellAxis(w.normal, cell->H()); m >= 0) kept |= 1u << m;
  const Eigen::Matrix3i F = cell->flip(kept);
  if (F == Eigen::Matrix3i::Identity()) return false;
  // det F = 1: F^{-1} is the integer adjugate; rounding the double inverse gives it exactly.
  const Eigen::Matrix3i Finv = F.cast<double>().inverse().array().round().cast<int>().matrix();
  for (std::size_t k = 0; k < contacts.size(); ++k) contacts.setCellDist(k, Finv * contacts.cellDist(k));
  periodicCollider.invalidate();
  return true;
}

void Scene::startOnAffineField() {
  if (!cell) throw std::logic_error("scene: startOnAffineField needs a cell; call setCell() first");
  if (!(dt_ > 0.0)) throw std::logic_error("scene: startOnAffineField needs dt; call setDt() first");
  const Mat3& L = cell->nextVelGrad();
  const Mat3 toMid = (Mat3::Identity() + 0.5 * dt_ * L).inverse();  // theory 4.3: v(-dt/2) = (I + L dt/2)^{-1} L x0
  const Vec3 wL = mediumSpin(L);
  Particles& p = particles;
  for (std::size_t i = 0; i < p.size(); ++i) {
    if (p.isClumpMember(i) || p.blocked[i] != 0 || p.isBoundary(i)) continue;
    p.vel[i] = toMid * (L * p.pos[i] + p.vel[i]);  // (I + L dt/2)^{-1} (L x0 + v_f)
    if (!p.isAspherical(i)) {
      p.angVel[i] += wL;
      p.setAngMom(i, p.inertia[i][0] * p.angVel[i]);
    }
    p.velMidstep[i] = 1;
  }
  cell->assumeSteadyVelGrad(dt_);
}

void Scene::run(std::uint64_t steps) {
  for (std::uint64_t k = 0; k < steps; ++k) step();
}

}  // namespace dem
