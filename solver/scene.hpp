#pragma once
// A simulation: particles, fields, integrator settings, time; one step as the architecture lays out:
//   1. forces := gravity m g (clump members: 0, their clump carries it), torques := 0
//   2. contact stage: collider (only when some body moved farther than its Verlet distance; in a
//      periodic cell, when some body's box no longer contains it, periodic_collider.hpp),
//      contact kernel (shape-pair geometry, history, the scene's law) per contact, per-particle
//      force gather (contact_loop.hpp)
//   3. clump members' forces -> clumps; integration (leapfrog, damping, rotation; members are not
//      integrated); members placed rigidly from their clumps
//   4. time += dt, step += 1; the energy ledger refers to the step's start t_n;
//   5. runaway check (runaway.hpp): a non-finite state, or energy gained in a closed system, stops
//      with RunawayError naming the step, a particle, dt and the estimated critical dt.
// With setDtFromStiffness, dt is set before step 1 when due (see there).
// With a periodic cell (setCell), the integrator applies the cell's homogeneous deformation
// (solver/cell.hpp) and the cell advances by eq. (33) after the particles (H_n is the cell of the
// contact stage at t_n).

#include "cell.hpp"
#include "clump.hpp"
#include "collider.hpp"
#include "contact_loop.hpp"
#include "contacts.hpp"
#include "drive_work.hpp"
#include "energy.hpp"
#include "integrator.hpp"
#include "materials.hpp"
#include "particles.hpp"
#include "periodic_collider.hpp"
#include "runaway.hpp"
#include "stage_timer.hpp"
#include "stress.hpp"
#include "timestep.hpp"

#include <cstdint>
#include <functional>
#include <optional>
#include <vector>

namespace dem {

class Scene {
 public:
  Particles particles;
  // Materials, indexed by particles.material[i]. A scene with two or more bodies needs every
  // body's material index to be valid (checked before the first step).
  std::vector<Material> materials;
  // The contact law of every contact (contact_law.hpp, laws.hpp); set before the first step.
  ContactLaw law = ContactLaw::Cundall;
  // Whether any material has a restitution below 1 (contact dashpots); without, the contact stage
  // runs without their terms.
  bool hasDashpots() const {
    for (const Material& m : materials)
      if (m.restitution < 1.0) return true;
    return false;
  }
  Collider collider;                  // set collider.verletDist before the first step
  PeriodicCollider periodicCollider;  // used instead of collider when the scene has a cell
  ContactStore contacts;
  Clumps clumps;
  Vec3 gravity = Vec3::Zero();
  EnergyLedger energy;
  double time = 0.0;
  std::uint64_t stepCount = 0;
  // Periodic deforming cell (solver/cell.hpp); none: aperiodic space.
  std::optional<Cell> cell;
  // Periodic scenes: Love-Weber contact stress at t_n (solver/stress.hpp), updated every step.
  Mat3 stress = Mat3::Zero();

  // Optional user force field, called every step after gravity and before contacts; it adds to
  // particles.force / particles.torque (time is t_n).
  std::function<void(Particles&, double time)> externalForces;

  // Throws std::invalid_argument unless dt is finite and > 0.
  void setDt(double dt);
  double dt() const { return dt_; }

  // Throws std::invalid_argument unless 0 <= lambda < 1.
  void setDamping(double lambda);
  double damping() const { return integrator_.damping; }

  // Whether the damping acts on gravity too (IntegratorSettings::dampGravity; default true).
  void setDampGravity(bool on) { integrator_.dampGravity = on; }
  bool dampGravity() const { return integrator_.dampGravity; }

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

  // Timestep from the global-stiffness estimate (timestep.hpp): dt := safety * dt_cr. It is
  // evaluated at the start of the next step, after the collider has run, so that the contacts
  // present then (real, or overlapping at t_n) count; with interval > 0 it is evaluated again every
  // `interval` steps after that (as Yade's GlobalStiffnessTimeStepper does; the seed warns that big
  // changes of dt can destabilise the leapfrog, so keep the interval long compared with a contact
  // duration in dense packings), with interval = 0 only once. Without contacts the estimate is the
  // p-wave value. In a periodic scene the periodic collider finds the contacts, and those across the
  // boundary count with particle 2's image x2 + H cellDist. Throws std::invalid_argument unless 0 < safety < 1 (safety
  // = 1 sits on the estimate, which is exact, i.e. neutrally unstable, for two equal spheres in contact).
  void setDtFromStiffness(double safety, std::uint64_t interval = 0);
  void clearDtFromStiffness() { autoDtSafety_ = 0.0; }
  double dtSafety() const { return autoDtSafety_; }  // 0 when dt is set by hand

  std::uint64_t dtInterval() const { return autoDtInterval_; }

  // Estimates of the current state: global stiffness (p-wave without contacts), and p-wave.
  // In a periodic scene, contacts across the boundary use particle 2's image x2 + H cellDist.
  TimestepEstimate criticalTimestep() const {
    return globalStiffnessTimestep(particles, contacts, materials, ContactSelection::Touching, cellH(), law,
                                   sharedSums_ ? &*sharedSums_ : nullptr);
  }
  TimestepEstimate pWaveTimestep() const { return dem::pWaveTimestep(particles, materials); }

  // Runaway detection after every step (runaway.hpp); runaway.energyCheck turns criterion 2 off.
  RunawayMonitor runaway;
  // Makes the scene periodic with this cell (set its velocity gradient with cell->setVelGrad).
  // Mesh vertices at the same place modulo the cell's lattice then share their ids (before the
  // first step: sharePeriodicVertices).
  void setCell(const Cell& c) {
    cell = c;
    validatedParticles_ = 0;
  }

  // Starts every free particle consistently on the affine field of the cell's (next) velocity
  // gradient L (verification theory 4.3): the stored velocity becomes the mid-step
  //   v(-dt/2) = (I + L dt/2)^{-1} (L x_0 + v_f),
  // with the particle's current velocity v_f taken as its fluctuation velocity at -dt/2 (the
  // integrator's fluctuation v - L (x - v dt/2) is then exactly v_f), spherical
  // bodies' angular velocity gains the medium spin w_L, the particles are marked as integrated
  // (velMidstep = 1, no first-step adjustment) and the cell's previous gradient is set to L (steady
  // deformation). Then non-interacting particles keep their fractional coordinates H^{-1} x to
  // round-off for any constant L. Call after setDt and setCell, before the first step; clump
  // members and blocked particles are left as they are (clump bodies are started like spheres,
  // without the spin term). Throws std::logic_error without a cell or dt.
  void startOnAffineField();

  // Flips the cell (Cell::flip, keeping the walls' cell axes) and maps every contact's cellDist k to F^{-1} k, so that
  // each contact keeps the same image (x2 + H k unchanged); the collider rebuilds its lists at the next step. Returns
  // whether the cell changed. Called after every step when cell->flipFlippable.
  bool flipCell();

  // After the contacts and the collider state were restored (io/checkpoint.hpp): recovers which
  // contacts the contact loop may skip (ContactStore::recoverMarks with Collider::dormant), as after
  // the last collider run; nothing moves, so a resumed run stays bit-identical and as fast.
  void recoverContactMarks();

  void step();
  void run(std::uint64_t steps);
  // Every scene's step() run by `hook` in place of its own work, for the whole process (dem-verify
  // under mpirun: the ranks step each scene, verification/harness/ranks.hpp); the hook's own calls
  // of step(), on any scene, are the scenes' own. An empty function: each scene steps itself.
  static void setStepHook(std::function<void(Scene&)> hook);

  // Spatial order of the bodies in storage (spatial_order.hpp): when on, the step after a collider
  // run that found more than a quarter of the active sphere-sphere contacts far apart in storage (and
  // more than twice the share found after the last renumbering) renumbers the movable bodies along
  // the grid's slabs. While every body is in the slot of its user id the contact stage sums in
  // contact-index order (SumOrder::ContactIndex, the fastest), once the bodies have moved in the order
  // of user ids (SumOrder::UserIds): from then on no result depends on where the bodies are stored
  // (unit suite storage_order). Every other sum runs in the order of user ids always. Off by default.
  void setSpatialOrder(bool on) { spatialOrder_ = on; }
  bool spatialOrder() const { return spatialOrder_; }
  // Moves the body in slot i to slot newSlot[i] (Particles::permute: movable bodies only); the
  // contacts, the colliders and the last step's report follow. Between steps.
  void renumber(std::vector<std::uint32_t> newSlot);  // (a copy: newSlot may be particles.userId)
  // How many times the spatial order renumbered the bodies.
  std::uint64_t renumberings() const { return renumberings_; }
  // Sums in the order of user ids from the first step (SumOrder::UserIds): the results are then the
  // same bits for any storage order of the bodies, with the spatial order on or off (a gather pass
  // more per step). Off by default.
  void setUserIdSums(bool on) { userIdSums_ = on; }
  bool userIdSums() const { return userIdSums_; }
  // The contact stage's order of sums: by contact index while the bodies are in the slots of their
  // user ids (unless setUserIdSums), else by user ids.
  SumOrder sumOrder() const {
    return particles.userOrder && !userIdSums_ && !sharedSums_ ? SumOrder::ContactIndex : SumOrder::UserIds;
  }
  // Whether the steps from now on keep each contact's results (its force, torques and energies:
  // ContactStore::useResultColumns) for readers after the step: outputs, checkpoints,
  // wall loads, the unbalanced force. On by default. Off, a step writes them nowhere (the bodies'
  // forces and the ledger are the same bits), unless the scene reads them itself (moving meshes'
  // work, a rank's drives: shared sums); reading them after such a step throws std::logic_error.
  // dem-run keeps them for the steps its outputs, checks and stop conditions read (io/runner.cpp).
  void keepContactResults(bool keep) { keepContactResults_ = keep; }
  bool keepsContactResults() const { return keepContactResults_; }
  // The ledger's sums over some of the bodies, exact, combined by `sums.combine` (a rank of a
  // distributed scene: shared_sums.hpp, mpi/distributed_scene.hpp); sums in the order of user ids.
  // `sums.owned` names a flag for every slot. std::nullopt: the scene's own sums over all bodies.
  void setSharedSums(std::optional<SharedSums> sums) { sharedSums_ = std::move(sums); }
  const std::optional<SharedSums>& sharedSums() const { return sharedSums_; }

  // State carried from one step to the next that has no public member (checkpoint/restart,
  // io/checkpoint.hpp): the automatic timestep's settings and the step of its next evaluation, and
  // V sigma at t_{n-1} for the cell work's trapezoid.
  struct CarriedState {
    double dtSafety = 0.0;  // 0: dt set by hand
    std::uint64_t dtInterval = 0, dtNext = 0;
    Mat3 prevStressSum = Mat3::Zero();
    // the spatial order's: a renumbering due at the next step, the share of far contacts after the
    // last one (and whether the next collider run measures it), the renumberings so far
    bool renumberDue = false, measureOrdered = false;
    double orderedShare = 0.0;
    std::uint64_t renumberings = 0;
  };
  CarriedState carriedState() const {
    return {autoDtSafety_, autoDtInterval_, autoDtNext_,   prevStressSum_,
            renumberDue_,  measureOrdered_, orderedShare_, renumberings_};
  }
  // Throws std::invalid_argument for a safety outside [0, 1) or a non-finite stress sum.
  void setCarriedState(const CarriedState& s);

  // What the last integration pass found (first non-finite particle, fastest particle): read by runaway checks outside
  // the solver (io/runner.hpp).
  const IntegratorScratch& integrationReport() const { return integratorScratch_; }
  // Optional wall-clock timers of the step's stages (stage_timer.hpp), off by default; they only
  // read the clock and never change results.
  void setStageTiming(bool on) { stageTiming_ = on; }
  const StageTimes& stageTimes() const { return stageTimes_; }
  void resetStageTimes() { stageTimes_ = StageTimes{}; }

  // Runs the scene's collider (periodic in a cell) with the scene's law, as the next step does: the
  // contacts of the current positions, e.g. for criticalTimestep() before the first step.
  void updateCollider();
  // Whether contact c cannot touch before the collider's next run (the collider of the scene's space).
  bool dormant(const ContactPair& c) const;
  // A cell whose velocity gradient is zero over the last and the next half step (H stays as it is).
  bool cellAtRest() const { return cell && cell->velGrad().isZero(0.0) && cell->nextVelGrad().isZero(0.0); }

 private:
  double dt_ = 0.0;
  std::optional<SharedSums> sharedSums_;
  bool keepContactResults_ = true;
  double autoDtSafety_ = 0.0;  // > 0: dt from the global-stiffness estimate
  std::uint64_t autoDtInterval_ = 0;
  std::uint64_t autoDtNext_ = 0;  // step at which the estimate is evaluated next
  double liftMass_ = 0.0;         // sum m_i R_i over spheres (runaway energy scale)
  IntegratorSettings integrator_;
  IntegratorScratch integratorScratch_;
  DriveWork drives_;  // the work of the drives of blocked axes (energy.hpp, boundaryWork)
  ContactScratch contactScratch_;
  std::size_t validatedParticles_ = 0;
  Mat3 prevStressSum_ = Mat3::Zero();  // V sigma at t_{n-1} (cell work trapezoid)
  bool stageTiming_ = false;
  StageTimes stageTimes_;
  bool spatialOrder_ = false;
  bool userIdSums_ = false;
  bool renumberDue_ = false;     // the collider found the storage order decayed (setSpatialOrder)
  bool measureOrdered_ = false;  // the next collider run measures the share after a renumbering
  double orderedShare_ = 0.0;    // the share of far contacts found after the last renumbering
  std::uint64_t renumberings_ = 0;
  void noteStorageOrder();

  void validate();
  const Mat3* cellH() const { return cell ? &cell->H() : nullptr; }
  void updateDtFromStiffness();
  void checkRunaway(bool gradientChanged);
  void applyFields();
  void contactForces(StageClock& clock);
  void bookMeshWork();
};

}  // namespace dem
