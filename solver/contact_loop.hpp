#pragma once
// The contact stage of one step (architecture steps 3-4): for every potential contact that was
// real at the last step or may touch now, the contact kernel (contact_kernel.hpp: the shape pair's
// geometry, the history update, the law chosen once for the stage) in batches of lanes, and the
// contact's force and torques stored on the contact; then every particle sums its own contacts in
// the order of their partners' user ids (ContactStore adjacency), and the stage's energy and stress
// sums are summed per body and over the bodies in the order of user ids. Both loops run under OpenMP
// and give the same bits for any thread count and for any storage order of the bodies and the
// contacts: no floating-point sum depends on the schedule or on the slots.

#include "contact_geometry.hpp"
#include "contact_law.hpp"
#include "contacts.hpp"
#include "facet_contacts.hpp"
#include "materials.hpp"
#include "particles.hpp"
#include "shared_sums.hpp"
#include "team.hpp"

#include <array>
#include <cstdint>
#include <vector>

namespace dem {

struct ContactStageResult {
  double elastic = 0.0;           // energy stored in all contacts at t_n
  double dissipated = 0.0;        // Coulomb slip dissipation of this step
  double viscous = 0.0;           // the dashpots' dissipation of this step
  double spring = 0.0;            // energy taken from shear springs by stiffness changes (contact_law.hpp)
  Mat3 stressSum = Mat3::Zero();  // with a cell: sum of F (x) l over the real contacts (stress.hpp)
  bool realChanged = false;       // some contact formed or separated (noted in the ContactStore)
};

// A contact's energies of this step (or their sums over contacts): stored at t_n, dissipated by
// Coulomb slip, by the dashpots, and taken from shear springs by stiffness changes.
struct ContactEnergies {
  double elastic = 0.0, slip = 0.0, viscous = 0.0, spring = 0.0;
  ContactEnergies& operator+=(const ContactEnergies& o) {
    elastic += o.elastic;
    slip += o.slip;
    viscous += o.viscous;
    spring += o.spring;
    return *this;
  }
};

// Block sums in contact order (SumOrder::ContactIndex): energies and the stress's nine entries (row
// by row).
struct BlockSums {
  ContactEnergies e;
  std::array<double, 9> stress{};
};

// A contact's results for the per-body sums: its force on particle 1, its torques
// (Contact::force, torque1, torque2) and its energies.
struct ContactLoad {
  Vec3 force, torque1, torque2;
  ContactEnergies energies;
};

// One contact's terms of its block's sums (BlockSums), kept where a block's first contacts are
// evaluated on another thread: added to the block's sums afterwards, in contact order, as the
// evaluation adds them (the same bits).
struct BlockSumTerm {
  ContactEnergies e;
  Vec3 force, branch;  // the contact stress F (x) l, where `stress`
  bool stress;
};

// A contact's force and torque on one of its bodies, added after the threads before it are done.
struct DeferredLoad {
  std::uint32_t body;
  Vec3 force, torque;
};

struct ContactScratch {
  std::vector<ContactStageResult> blocks;           // fixed-size block sums (deterministic reduction)
  std::vector<BlockSums> blockSums;                 // contact-index order: per block of contacts
  std::vector<ContactLoad> loads;                   // per visited contact, for the per-body gather
  std::vector<Vec3> branch;                         // per visited contact, with a cell (contact stress)
  std::vector<ContactEnergies> bodies;              // per body: the energies of its contacts as body 1
  std::vector<std::array<double, 9>> bodyStress;    // per body, with a cell: its contacts' F (x) l as body 1
  std::vector<std::vector<std::uint32_t>> changed;  // per block: contacts that formed or separated
  FacetContactScratch facets;                       // mesh walls (facet_contacts.hpp)
  std::vector<std::uint8_t> visit;                  // ContactStore::gatherVisited's flags
  BalancedRuns visitRuns;                           // each thread's run of them (chooseVisited)
  std::vector<std::vector<std::uint32_t>> nearBy;   // per thread: the contacts whose bodies' places it tests
  // Contact-index order on several threads (contact_loop.cpp, OrderedScatter): per thread a byte
  // per body, set where its contacts touch the body, then where those of the threads before it do;
  // and the additions it leaves to the end, deferred[s * threads + t] those thread s leaves to thread t.
  std::vector<std::vector<std::uint8_t>> touched, touchedBefore;
  std::vector<std::vector<DeferredLoad>> deferred;
  // Each thread's run of batches, balanced by their times (real contacts cost more than the others,
  // and they lie in front); where a run begins inside a block, the terms of the block's sums and the
  // contacts that changed of that part (team.hpp, RunHeads).
  BalancedRuns runs;
  struct Head {
    std::vector<BlockSumTerm> terms;
    std::vector<std::uint32_t> changed;
  };
  RunHeads<Head> heads;
};

// The order of the contact stage's sums. ContactIndex: a body adds its contacts in increasing
// contact index and the energies and the stress are summed in contact order (one thread adds each
// contact to its bodies as it is evaluated: no second pass); the same bits for any thread count,
// but the contacts' order follows the bodies' slots. UserIds: a body adds its contacts in the
// order of their partners' user ids and every sum runs in the order of user ids: the same bits for
// any thread count and any storage order (Scene::renumber), at the cost of a gather pass.
enum class SumOrder : std::uint8_t { ContactIndex, UserIds };

// Evaluates all contacts at t_n from on-step positions and mid-step velocities, and adds their
// forces and torques to p.force and p.torque, with the contact law `law` (a contact first visited
// takes its parameters from the mixing rule for its bodies' `materials`). shift: the periodic
// cell's image shift (contact_geometry.hpp), or nullptr. The contacts that formed or separated are
// noted in `contacts` (ContactStore::noteRealChanged, for its next gatherReal). dashpots: false when no contact has
// dashpots (every material's restitution is 1, Scene::hasDashpots): the stage then runs without
// their terms (the same results up to the sign of zeros; the dashpot columns are left as they are).
// With a cell (shift) the result also holds the Love-Weber stress sum (stress.hpp), summed as the
// energies are (the same bits for any thread count and storage order). shared (user-id order only):
// the energies and the stress summed over this rank's bodies and combined over the ranks
// (shared_sums.hpp).
ContactStageResult contactStage(Particles& p, const std::vector<Material>& materials, ContactStore& contacts, double dt,
                                ContactScratch& scratch, ContactLaw law = ContactLaw::Cundall,
                                const PeriodicShift* shift = nullptr, bool dashpots = true,
                                SumOrder order = SumOrder::ContactIndex, const SharedSums* shared = nullptr);

}  // namespace dem
