// MPI: a scene run by any number of ranks (mpi/distributed_scene.hpp) gives every body the same bits
// as one Scene stepping them all with its sums in the order of user ids: positions, velocities,
// angular velocities and momenta, orientations, after bodies have crossed between ranks' bricks many
// times (migrations) with their contacts. Scenes: a stirred pour into a box of walls (contacts with
// walls, a floor, fixed-velocity pour), and a dense periodic packing in a sheared cell at rest
// (contacts across the periodic boundary, bricks in fractional coordinates). The ranks run with one
// thread or two (OMP_NUM_THREADS of the test); the reference runs in the same process.
#include "mpi/distributed_scene.hpp"
#include "solver/builders.hpp"

#include <boost/test/unit_test.hpp>

#include <cstring>
#include <tuple>

using namespace dem;

namespace {

template <class T>
bool same(const T& a, const T& b) {
  return std::memcmp(&a, &b, sizeof(T)) == 0;
}

// Runs the scene distributed and alone for `steps` steps and compares every body's state bit for bit.
void compare(Scene scene, std::uint64_t steps, const char* what) {
  scene.setUserIdSums(true);
  Scene alone = scene;
  // the reference's ledger: exact sums over all its bodies (as one rank's, combined with nothing)
  alone.setSharedSums(SharedSums{std::vector<std::uint8_t>(scene.particles.size(), 1), [](std::span<ExactSum>) {}});
  mpi::DistributedScene d(scene, MPI_COMM_WORLD);
  d.run(steps);
  alone.run(steps);
  const std::vector<mpi::BodyState> got = d.gather();
  const Particles& p = alone.particles;
  BOOST_TEST_REQUIRE(got.size() == p.size());
  std::size_t differ = 0;
  for (const mpi::BodyState& b : got) {
    const std::size_t i = p.slotOf[b.id];
    const bool ok = same(b.pos, p.pos[i]) && same(b.vel, p.vel[i]) && same(b.angVel, p.angVel[i]) &&
                    same(b.angMom, p.angMom[i]) && same(b.ori.coeffs(), p.ori[i].coeffs());
    if (!ok && differ++ < 3)
      BOOST_TEST_MESSAGE(what << ": body " << b.id << " at " << b.pos.transpose() << " against " << p.pos[i].transpose());
  }
  // the ledger, on every rank
  const EnergyLedger& a = d.local().energy;
  const EnergyLedger& b = alone.energy;
  for (const auto& [name, x, y] : {std::tuple{"kinetic", a.kinetic, b.kinetic}, {"rotational", a.rotational, b.rotational},
                                   {"gravity", a.gravity, b.gravity}, {"elastic", a.elastic, b.elastic},
                                   {"damping", a.dampingDissipated, b.dampingDissipated},
                                   {"friction", a.frictionDissipated, b.frictionDissipated},
                                   {"viscous", a.viscousDissipated, b.viscousDissipated}, {"cell work", a.cellWork, b.cellWork}})
    BOOST_TEST(same(x, y), what << ": ledger " << name << " " << std::hexfloat << x << " against " << y);
  BOOST_TEST(b.elastic > 0.0, what);
  BOOST_TEST(differ == 0u, what << ": " << differ << " of " << got.size() << " bodies differ, " << d.ranks()
                                << " ranks, " << d.epochs() << " epochs, " << d.migrations() << " migrations");
  BOOST_TEST_MESSAGE(what << ": " << d.ranks() << " ranks, " << d.epochs() << " epochs, " << d.migrations() << " migrations, " << d.ownedCount() << " bodies owned and " << d.local().particles.size() - d.ownedCount() << " ghosts on rank " << d.rank() << ", " << alone.contacts.size() << " contacts");
  // the run must have exercised the exchanges: contacts, and bodies changing ranks
  BOOST_TEST(d.epochs() > 3u, what);
  if (d.ranks() > 1) BOOST_TEST(d.migrations() > 0u, what);
  BOOST_TEST(alone.contacts.size() > 0u, what);
}

}  // namespace

BOOST_AUTO_TEST_SUITE(distributed_scene)

BOOST_AUTO_TEST_CASE(a_stirred_pour_into_a_box_has_the_same_bits_on_any_number_of_ranks) {
  DepositionSpec spec;
  spec.n = 400;
  spec.speed = 0.3;
  spec.seed = 5;
  compare(depositionScene(spec), 1500, "pour");
}

BOOST_AUTO_TEST_CASE(a_dense_sheared_periodic_packing_has_the_same_bits_on_any_number_of_ranks) {
  PeriodicLatticeSpec spec;
  spec.H << 1.0, 0.3, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 1.0;
  spec.m = 7;
  spec.radius = 0.075;
  spec.speed = 0.5;
  spec.seed = 3;
  compare(periodicLatticeScene(spec), 800, "periodic");
}

BOOST_AUTO_TEST_SUITE_END()
