// MPI: a scene run by any number of ranks (mpi/distributed_scene.hpp) gives every body the same bits
// as one Scene stepping them all with its sums in the order of user ids: positions, velocities,
// angular velocities and momenta, orientations, and the energy ledger, after bodies have crossed
// between ranks' bricks many times (migrations) with their contacts, after the bricks were drawn
// anew (load balance), and through a checkpoint written by some ranks and continued by all. Scenes: a stirred pour into
// a box of walls (contacts with walls, a floor, fixed-velocity pour), and a dense periodic packing in a sheared cell at
// rest (contacts across the periodic boundary, bricks in fractional coordinates). The ranks run with one thread or two
// (OMP_NUM_THREADS of the test); the reference runs in the same process.
#include "mpi/distributed_scene.hpp"
#include "io/checkpoint.hpp"
#include "solver/builders.hpp"
#include "solver/mesh_generators.hpp"

#include <boost/test/unit_test.hpp>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstring>
#include <optional>
#include <random>
#include <string>
#include <tuple>

using namespace dem;

namespace {

template <class T>
bool same(const T& a, const T& b) {
  return std::memcmp(&a, &b, sizeof(T)) == 0;
}

// The reference: one scene with the sums of a distributed one (user-id order, the ledger's exact sums
// over all its bodies, as one rank's combined with nothing).
Scene reference(Scene scene) {
  scene.setUserIdSums(true);
  scene.setSharedSums(SharedSums{std::vector<std::uint8_t>(scene.particles.size(), 1), [](std::span<ExactSum>) {}, true,
                                 [](double x) { return x; }});
  return scene;
}

// Every body's state and the ledger of the gathered scene against the reference, bit for bit.
void expectSame(const Scene& whole, const Scene& alone, const std::string& what) {
  const Particles& p = alone.particles;
  const Particles& q = whole.particles;
  BOOST_TEST_REQUIRE(q.size() == p.size());
  std::size_t differ = 0;
  for (std::size_t u = 0; u < p.size(); ++u) {
    const std::size_t i = p.slotOf[u], j = q.slotOf[u];
    const bool ok = same(q.pos[j], p.pos[i]) && same(q.vel[j], p.vel[i]) && same(q.angVel[j], p.angVel[i]) &&
                    same(q.angMomOf(j), p.angMomOf(i)) && same(q.ori[j].coeffs(), p.ori[i].coeffs());
    if (!ok && differ++ < 3)
      BOOST_TEST_MESSAGE(what << ": body " << u << " at " << q.pos[j].transpose() << " against "
                              << p.pos[i].transpose());
  }
  BOOST_TEST(differ == 0u, what << ": " << differ << " of " << p.size() << " bodies differ");
  const EnergyLedger& a = whole.energy;
  const EnergyLedger& b = alone.energy;
  for (const auto& [name, x, y] : {std::tuple{"kinetic", a.kinetic, b.kinetic},
                                   {"rotational", a.rotational, b.rotational},
                                   {"gravity", a.gravity, b.gravity},
                                   {"elastic", a.elastic, b.elastic},
                                   {"damping", a.dampingDissipated, b.dampingDissipated},
                                   {"friction", a.frictionDissipated, b.frictionDissipated},
                                   {"viscous", a.viscousDissipated, b.viscousDissipated},
                                   {"cell work", a.cellWork, b.cellWork},
                                   {"boundary work", a.boundaryWork, b.boundaryWork}})
    BOOST_TEST(same(x, y), what << ": ledger " << name << " " << std::hexfloat << x << " against " << y);
  BOOST_TEST(whole.stepCount == alone.stepCount);
  BOOST_TEST(b.elastic > 0.0, what);
}

// Runs the scene distributed and alone for `steps` steps and compares them.
void compare(const Scene& scene, std::uint64_t steps, const std::string& what, bool rebalanced = false) {
  Scene alone = reference(scene);
  mpi::DistributedScene d(scene, MPI_COMM_WORLD);
  d.run(steps);
  alone.run(steps);
  BOOST_TEST_MESSAGE(what << ": " << d.ranks() << " ranks, " << d.epochs() << " epochs, " << d.migrations()
                          << " migrations, " << d.rebalances() << " rebalances; rank " << d.rank() << ": "
                          << d.ownedCount() << " bodies and " << d.local().particles.size() - d.ownedCount()
                          << " ghosts; " << alone.contacts.size() << " contacts");
  expectSame(d.gatherScene(), alone, what);
  // the run must have exercised the exchanges: contacts, and bodies changing ranks
  BOOST_TEST(d.epochs() > 3u, what);
  if (d.ranks() > 1) BOOST_TEST(d.migrations() > 0u, what);
  if (d.ranks() > 1 && rebalanced) BOOST_TEST(d.rebalances() > 0u, what);
}

// A floor and four side walls around [0, width]^2.
void addOpenBox(Particles& p, double width) {
  p.addWall(Vec3::Zero(), Vec3::UnitZ(), 0);
  p.addWall(Vec3::Zero(), Vec3::UnitX(), 0);
  p.addWall(Vec3(width, 0, 0), -Vec3::UnitX(), 0);
  p.addWall(Vec3::Zero(), Vec3::UnitY(), 0);
  p.addWall(Vec3(0, width, 0), -Vec3::UnitY(), 0);
}

// Spheres on a tall lattice in a narrow box of walls, falling under a strong gravity onto its floor:
// they leave the upper bricks for the lower ones (load balance).
Scene tallPour(std::size_t layers) {
  const double r = 0.01, spacing = 2.2 * r;
  const Material m{2600.0, 1e7, 0.2, 0.3};
  Scene s;
  s.materials = {m};
  Particles& p = s.particles;
  const int side = 5;
  const double width = side * spacing;
  addOpenBox(p, width);
  std::mt19937_64 rng(9);
  std::uniform_real_distribution<double> jitter(-0.05 * r, 0.05 * r);
  for (std::size_t k = 0; k < layers; ++k)
    for (int i = 0; i < side; ++i)
      for (int j = 0; j < side; ++j) {
        const Vec3 x((i + 0.5) * spacing + jitter(rng), (j + 0.5) * spacing + jitter(rng),
                     (static_cast<double>(k) + 0.5) * spacing);
        p.add(sphereSpec(x, r, m.density));
      }
  s.gravity = Vec3(0, 0, -100.0);
  s.setDamping(0.3);
  s.setDt(0.3 * r * std::sqrt(m.density / m.young));
  s.collider.verletDist = -0.2;
  return s;
}

// A press: spheres in a box of walls under gravity, its lid a wall driven down at a constant
// velocity, and one sphere driven sideways through them (its translations blocked at a velocity):
// the drives' work (the ledger's boundary work) from a wall's contacts on every rank and from a
// sphere's force on the rank that owns it.
Scene drivenPress() {
  const double r = 0.01, spacing = 2.2 * r;
  const Material m{2600.0, 1e7, 0.2, 0.3};
  Scene s;
  s.materials = {m};
  Particles& p = s.particles;
  const int side = 6, layers = 6;
  // (the lid touches the top layer from the start)
  const double width = side * spacing, height = (layers - 0.5) * spacing + 0.98 * r;
  addOpenBox(p, width);
  const std::size_t lid = p.addWall(Vec3(0, 0, height), -Vec3::UnitZ(), 0);
  p.vel[lid] = Vec3(0, 0, -0.2);
  std::mt19937_64 rng(4);
  std::uniform_real_distribution<double> jitter(-0.05 * r, 0.05 * r), speed(-0.2, 0.2);
  for (int k = 0; k < layers; ++k)
    for (int i = 0; i < side; ++i)
      for (int j = 0; j < side; ++j) {
        const Vec3 x((i + 0.5) * spacing + jitter(rng), (j + 0.5) * spacing + jitter(rng), (k + 0.5) * spacing);
        ParticleSpec b = sphereSpec(x, r, m.density);
        b.vel = Vec3(speed(rng), speed(rng), speed(rng));
        if (k == 2 && i == 0 && j == 2) {  // the driven sphere
          b.vel = Vec3(0.3, 0.0, 0.0);
          b.blocked = dof::translation;
        }
        p.add(b);
      }
  s.gravity = Vec3(0, 0, -9.81);
  s.setDamping(0.1);
  s.setDt(0.2 * r * std::sqrt(m.density / m.young));
  s.collider.verletDist = -0.2;
  return s;
}

}  // namespace

// A closed drum (a mesh wall: a cylinder with both caps) turning about its horizontal axis, spheres
// tumbling in it; the mesh's facets take global ids between spheres' (some spheres come before it):
// every rank holds the whole mesh and places it from the time, the mesh's work (the ledger's
// boundary work) is an exact sum over each rank's own spheres' contacts.
Scene turningDrum() {
  const double r = 0.008, spacing = 2.2 * r, R = 0.1;
  const Material m{2600.0, 1e7, 0.2, 0.4};
  Scene s;
  s.materials = {m};
  Particles& p = s.particles;
  std::mt19937_64 rng(6);
  std::uniform_real_distribution<double> jitter(-0.05 * r, 0.05 * r), speed(-0.2, 0.2);
  int k = 0;
  for (int j = 0; j < 3; ++j)
    for (int i = -4; i <= 4; ++i)
      for (int l = 0; l < 5; ++l) {
        const Vec3 x(i * spacing + jitter(rng), 0.012 + j * spacing, -R + 2.0 * r + l * spacing + jitter(rng));
        if (x.x() * x.x() + x.z() * x.z() > (R - 1.5 * r) * (R - 1.5 * r)) continue;
        ParticleSpec b = sphereSpec(x, r, m.density);
        b.vel = Vec3(speed(rng), speed(rng), speed(rng));
        p.add(b);
        if (++k == 20) {
          MeshMotion turn;
          turn.angVel = Vec3(0, 3.0, 0);
          p.addMesh(cylinderMesh(Vec3::Zero(), Vec3::UnitY(), R, 0.06, 48, true, true), 0, turn, "drum");
        }
      }
  s.gravity = Vec3(0, 0, -9.81);
  s.setDamping(0.1);
  s.setDt(0.2 * r * std::sqrt(m.density / m.young));
  s.collider.verletDist = -0.2;
  return s;
}

// Clumps of two and three overlapping spheres (grid inertia), spinning, poured into a box of walls:
// each clump's parts move between ranks together, owned where its body is, and are ghosts together
// wherever any of them is near.
Scene clumpPour() {
  const double r = 0.01, cellSize = 5.0 * r;
  const Material m{2600.0, 1e7, 0.2, 0.4};
  Scene s;
  s.materials = {m};
  Particles& p = s.particles;
  const int side = 4, layers = 6;
  const double width = side * cellSize;
  addOpenBox(p, width);
  std::mt19937_64 rng(8);
  std::uniform_real_distribution<double> unit(-1.0, 1.0);
  std::vector<std::vector<std::size_t>> clumps;
  for (int k = 0; k < layers; ++k)
    for (int i = 0; i < side; ++i)
      for (int j = 0; j < side; ++j) {
        const Vec3 c((i + 0.5) * cellSize, (j + 0.5) * cellSize, (k + 0.5) * cellSize);
        const Vec3 axis = Vec3(unit(rng), unit(rng), unit(rng)).normalized();
        const Vec3 side2 = axis.cross(Vec3(unit(rng), unit(rng), unit(rng))).normalized();
        std::vector<std::size_t> members;
        const int n = (i + j + k) % 2 == 0 ? 2 : 3;
        for (int q = 0; q < n; ++q) {
          const Vec3 x = c + (q == 2 ? 0.8 * r * side2 : (q == 0 ? -0.8 : 0.8) * r * axis);
          ParticleSpec b = sphereSpec(x, r, m.density);
          members.push_back(p.add(b));
        }
        clumps.push_back(members);
      }
  for (const auto& members : clumps) {
    ClumpOptions o;
    o.method = ClumpInertiaMethod::Grid;
    o.gridSpacing = r / 5.0;
    const std::size_t body = s.addClump(members, o);
    s.clumps.setMotion(p, body, Vec3(unit(rng), unit(rng), unit(rng)) * 0.3,
                       Vec3(unit(rng), unit(rng), unit(rng)) * 20.0);
  }
  s.gravity = Vec3(0, 0, -9.81);
  s.setDamping(0.1);
  s.setDt(0.2 * r * std::sqrt(m.density / m.young));
  s.collider.verletDist = -0.2;
  return s;
}

// Dimers (clumps of two overlapping spheres) at random velocities and spins in a periodic cell
// without gravity: clumps cross the cell's faces and the bricks', their members on either side of
// a face at times.
Scene periodicDimers() {
  const double r = 0.045, L = 1.0;
  const int n = 6;
  const Material m{2600.0, 1e7, 0.2, 0.4};
  Scene s;
  s.materials = {m};
  s.setCell(Cell(Mat3::Identity() * L));
  Particles& p = s.particles;
  std::mt19937_64 rng(12);
  std::uniform_real_distribution<double> unit(-1.0, 1.0);
  std::vector<std::array<std::size_t, 2>> dimers;
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < n; ++j)
      for (int k = 0; k < n; ++k) {
        const Vec3 c = (Vec3(i, j, k) + Vec3::Constant(0.5)) * (L / n);
        const Vec3 axis = Vec3(unit(rng), unit(rng), unit(rng)).normalized();
        dimers.push_back(
            {p.add(sphereSpec(c - 0.7 * r * axis, r, m.density)), p.add(sphereSpec(c + 0.7 * r * axis, r, m.density))});
      }
  for (const auto& d : dimers) {
    const std::size_t body = s.addClump({d[0], d[1]});
    s.clumps.setMotion(p, body, Vec3(unit(rng), unit(rng), unit(rng)) * 1.0,
                       Vec3(unit(rng), unit(rng), unit(rng)) * 10.0);
  }
  s.setDamping(0.0);
  s.setDt(0.2 * r * std::sqrt(m.density / m.young));
  s.periodicCollider.verletDist = -0.2;
  return s;
}

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

BOOST_AUTO_TEST_CASE(a_packing_sheared_across_a_flip_has_the_same_bits) {
  // simple shear of a dense periodic packing (the cell's velocity gradient, the affine field), from
  // a shear of 0.4 to past 0.5, where the cell flips to a less sheared basis (flipFlippable): the
  // bricks stay in fractional coordinates, the epochs follow the images' motion too
  PeriodicLatticeSpec spec;
  spec.H << 1.0, 0.4, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 1.0;
  spec.m = 7;
  spec.radius = 0.074;
  spec.speed = 0.2;
  spec.damping = 0.1;
  spec.seed = 4;
  Scene scene = periodicLatticeScene(spec);
  Mat3 L = Mat3::Zero();
  L(0, 1) = 1.0;  // d v_x / d y
  scene.cell->setVelGrad(L);
  scene.cell->flipFlippable = true;
  scene.startOnAffineField();
  Scene alone = reference(scene);
  mpi::DistributedScene d(scene, MPI_COMM_WORLD);
  bool flipped = false;
  double shear = alone.cell->H()(0, 1);
  for (int k = 0; k < 6; ++k) {
    d.run(100);
    alone.run(100);
    flipped = flipped || alone.cell->H()(0, 1) < shear;  // (a flip takes one column from the other)
    shear = alone.cell->H()(0, 1);
  }
  BOOST_TEST(flipped, "the cell never flipped (shear " << shear << ")");
  BOOST_TEST_MESSAGE("sheared: " << d.ranks() << " ranks, " << d.epochs() << " epochs, " << d.migrations()
                                 << " migrations");
  expectSame(d.gatherScene(), alone, "sheared across a flip");
  BOOST_TEST(alone.energy.cellWork != 0.0);
}

BOOST_AUTO_TEST_CASE(a_deposition_settling_to_the_floor_is_rebalanced_with_the_same_bits) {
  compare(tallPour(24), 2500, "settling", true);
}

BOOST_AUTO_TEST_CASE(the_automatic_time_step_has_the_same_bits) {
  // dt from the global stiffness every 20 steps while the spheres settle onto the floor: contacts
  // form on every rank, and each estimate is the minimum over the ranks of their own bodies' (the
  // bodies' blocks summed as alone); a rank's estimate alone would differ from the others' and the
  // states would part
  Scene scene = tallPour(16);
  scene.setDtFromStiffness(0.3, 20);
  Scene alone = reference(scene);
  mpi::DistributedScene d(scene, MPI_COMM_WORLD);
  std::vector<double> seen;
  for (int k = 0; k < 12; ++k) {
    d.run(150);
    alone.run(150);
    seen.push_back(alone.dt());
  }
  const Scene whole = d.gatherScene();
  BOOST_TEST(same(whole.dt(), alone.dt()), std::hexfloat << whole.dt() << " against " << alone.dt());
  expectSame(whole, alone, "automatic time step");
  // the estimates came from the contacts and changed as they formed
  std::sort(seen.begin(), seen.end());
  const auto distinct = std::unique(seen.begin(), seen.end()) - seen.begin();
  BOOST_TEST(distinct > 3);
  BOOST_TEST(alone.criticalTimestep().fromContacts);
}

BOOST_AUTO_TEST_CASE(spheres_in_a_turning_mesh_drum_have_the_same_bits) {
  const Scene drum = turningDrum();
  compare(drum, 3000, "drum");
  // the run met the mesh: contacts with its facets, work done by its motion
  Scene alone = reference(drum);
  alone.run(3000);
  std::size_t onMesh = 0;
  for (const Contact& c : alone.contacts.records()) onMesh += c.real && c.type == ContactType::SphereFacet;
  BOOST_TEST(onMesh > 0u);
  BOOST_TEST(alone.energy.boundaryWork != 0.0);
}

BOOST_AUTO_TEST_CASE(clumps_poured_into_a_box_have_the_same_bits) {
  const Scene pour = clumpPour();
  compare(pour, 2500, "clumps");
  // the clumps met: contacts between members of different clumps
  Scene alone = reference(pour);
  alone.run(2500);
  std::size_t between = 0;
  const Particles& p = alone.particles;
  for (const Contact& c : alone.contacts.records())
    between += c.real && c.type == ContactType::SphereSphere && p.clump[c.id1] != p.clump[c.id2];
  BOOST_TEST(between > 0u);
}

BOOST_AUTO_TEST_CASE(clumps_in_a_periodic_cell_have_the_same_bits) {
  const Scene dimers = periodicDimers();
  compare(dimers, 2000, "periodic clumps");
  Scene alone = reference(dimers);
  std::size_t across = 0;  // real contacts through the cell's faces, seen every 50 steps
  for (int k = 0; k < 40; ++k) {
    alone.run(50);
    for (const Contact& c : alone.contacts.records()) across += c.real && !c.cellDist.isZero();
  }
  BOOST_TEST(across > 0u);
}

BOOST_AUTO_TEST_CASE(a_checkpoint_of_some_ranks_continues_on_all_with_the_same_bits) {
  // steps 0-700 on all ranks but one (one rank alone), a checkpoint of the gathered scene, then
  // steps 700-1400 from that checkpoint on all ranks: as one scene's 1400 steps
  int world = 1, me = 0;
  MPI_Comm_size(MPI_COMM_WORLD, &world);
  MPI_Comm_rank(MPI_COMM_WORLD, &me);
  const int first = std::max(1, world - 1);
  DepositionSpec spec;
  spec.n = 300;
  spec.speed = 0.3;
  spec.seed = 8;
  const Scene scene = depositionScene(spec);
  Scene alone = reference(scene);
  alone.run(1400);
  MPI_Comm part;
  MPI_Comm_split(MPI_COMM_WORLD, me < first ? 0 : MPI_UNDEFINED, me, &part);
  std::string bytes;
  if (me < first) {
    mpi::DistributedScene d(scene, part);
    d.run(700);
    const Scene whole = d.gatherScene();
    if (me == 0) bytes = io::checkpointBytes(whole);
    MPI_Comm_free(&part);
  }
  auto size = static_cast<std::uint64_t>(bytes.size());
  MPI_Bcast(&size, 1, MPI_UINT64_T, 0, MPI_COMM_WORLD);
  bytes.resize(size);
  MPI_Bcast(bytes.data(), static_cast<int>(size), MPI_BYTE, 0, MPI_COMM_WORLD);
  const Scene restored = io::sceneFromCheckpointBytes(bytes, "the checkpoint of " + std::to_string(first) + " ranks");
  mpi::DistributedScene d(restored, MPI_COMM_WORLD);
  d.run(700);
  expectSame(d.gatherScene(), alone,
             "restart of " + std::to_string(first) + " ranks' checkpoint on " + std::to_string(world));
}

BOOST_AUTO_TEST_CASE(a_pour_above_the_threads_threshold_has_the_same_bits) {
  // more than kParallelThreshold bodies and contacts on each of up to two ranks: the loops of the
  // ranks' own scenes run on OMP_NUM_THREADS threads (the CTest tests mpi.ranks_R_threads_2)
  DepositionSpec spec;
  spec.n = 6000;
  spec.speed = 0.3;
  spec.seed = 2;
  compare(depositionScene(spec), 300, "large pour");
}

BOOST_AUTO_TEST_CASE(a_sliding_contact_keeps_its_spring_when_it_moves_to_another_rank) {
  // one sphere pressed onto a floor wall by gravity, sliding along x with friction: the bricks cut
  // at its start, so that it crosses into the next rank's brick while it slides, taking its contact
  // (the shear spring u_T) with it
  const Material m{2600.0, 1e7, 0.2, 0.5};
  Scene s;
  s.materials = {m};
  const double r = 0.01;
  s.particles.addWall(Vec3::Zero(), Vec3::UnitZ(), 0);
  ParticleSpec b = sphereSpec(Vec3(0.0, 0.0, r * (1.0 - 1e-4)), r, m.density);
  b.vel = Vec3(0.2, 0.0, 0.0);
  s.particles.add(b);
  s.gravity = Vec3(0, 0, -9.81);
  s.setDt(0.2 * r * std::sqrt(m.density / m.young));
  s.collider.verletDist = -0.1;
  Scene alone = reference(s);
  mpi::DistributedScene d(s, MPI_COMM_WORLD);
  d.setRebalanceAbove(1e9);  // (one sphere is never balanced: the bricks would follow it)
  bool sliding = false;
  for (int k = 0; k < 8; ++k) {
    d.run(100);
    alone.run(100);
    // the contact on the rank that owns the sphere, its spring against the reference's
    const Scene whole = d.gatherScene();
    const std::int64_t c = whole.contacts.find(0, 1), a = alone.contacts.find(0, 1);
    BOOST_TEST_REQUIRE(c >= 0);
    BOOST_TEST_REQUIRE(a >= 0);
    const Contact got = whole.contacts.get(static_cast<std::size_t>(c)),
                  want = alone.contacts.get(static_cast<std::size_t>(a));
    BOOST_TEST(got.real == 1);
    BOOST_TEST(same(got.u, want.u));
    BOOST_TEST(same(got.frame.coeffs(), want.frame.coeffs()));
    sliding = sliding || got.u.tail<2>().norm() > 0.0;
  }
  BOOST_TEST(sliding);
  if (d.ranks() > 1) BOOST_TEST(d.migrations() > 0u, "the sphere never changed ranks");
  expectSame(d.gatherScene(), alone, "sliding sphere");
}

// The total momentum sum_i m_i v_i of every body, each component exact (ExactSum of the products'
// two parts, fma), rounded once.
Vec3 momentum(const Particles& p) {
  std::array<ExactSum, 3> sum;
  for (std::size_t i = 0; i < p.size(); ++i)
    for (int k = 0; k < 3; ++k) {
      const double hi = p.mass[i] * p.vel[i][k];
      sum[static_cast<std::size_t>(k)] += hi;
      sum[static_cast<std::size_t>(k)] += std::fma(p.mass[i], p.vel[i][k], -hi);  // (m v = hi + lo exactly)
    }
  return {sum[0].value(), sum[1].value(), sum[2].value()};
}

BOOST_AUTO_TEST_CASE(momentum_is_conserved_to_round_off_in_a_periodic_box) {
  // A dense periodic packing at random velocities, no gravity, no damping, no dashpots (elastic
  // springs, Coulomb friction): every contact gives its two bodies opposite forces, so the total
  // momentum changes only by the rounding of the kicks. Per body and step, v' = v + (F / m) dt with
  // F the sum of its n contact forces f_j: |m v' - m v - dt sum_j f_j| <= dt gamma_(n+1) sum_j |f_j|
  // (the sum, gamma_k = k u / (1 - k u)) + 4 u dt |F| (1/m, the products) + m u (2 |v'| + |v| +
  // 2 |F dt / m|) (the additions, in the deforming cell's form of the kick too), u = 2^-53. The test
  // adds that bound up over the steps and bodies of the reference (whose bits the ranks reproduce)
  // and checks the exact change of the momentum against it. A force applied to one body of a
  // contact and not the other (a ghost's contact counted twice, one lost at a migration) changes
  // the momentum by |f| dt, some 10^9 times the rounding per step here.
  PeriodicLatticeSpec spec;
  spec.m = 7;
  spec.radius = 0.075;
  spec.speed = 0.5;
  spec.seed = 11;
  const Scene scene = periodicLatticeScene(spec);
  Scene alone = reference(scene);
  const std::uint64_t steps = 800;
  const double u = std::ldexp(1.0, -53);
  const Particles& p = alone.particles;
  const Vec3 before = momentum(p);
  Vec3 bound = Vec3::Zero();
  std::vector<Vec3> v(p.size()), sumAbs(p.size());
  std::vector<double> n(p.size());
  double mv = 0.0;  // sum_i m_i |v_i| at the start: the scale of the momenta
  for (std::size_t i = 0; i < p.size(); ++i) mv += p.mass[i] * p.vel[i].norm();
  for (std::uint64_t step = 0; step < steps; ++step) {
    for (std::size_t i = 0; i < p.size(); ++i) v[i] = p.vel[i];
    alone.step();
    std::fill(sumAbs.begin(), sumAbs.end(), Vec3::Zero());
    std::fill(n.begin(), n.end(), 0.0);
    for (const Contact& c : alone.contacts.records()) {
      if (!c.real) continue;
      for (const std::uint32_t b : {c.id1, c.id2}) {
        sumAbs[b] += c.force.cwiseAbs();
        n[b] += 1.0;
      }
    }
    const double dt = alone.dt();
    for (std::size_t i = 0; i < p.size(); ++i) {
      const double gamma = (n[i] + 1.0) * u / (1.0 - (n[i] + 1.0) * u);
      const Vec3 F = p.force[i].cwiseAbs(), aDt = F * (dt / p.mass[i]);
      bound += dt * (gamma * sumAbs[i] + 4.0 * u * F) +
               p.mass[i] * u * (2.0 * p.vel[i].cwiseAbs() + v[i].cwiseAbs() + 2.0 * aDt);
    }
  }
  const Vec3 after = momentum(p);
  mpi::DistributedScene d(scene, MPI_COMM_WORLD);
  d.run(steps);
  const Scene whole = d.gatherScene();
  expectSame(whole, alone, "momentum");
  const Vec3 got = momentum(whole.particles);
  BOOST_TEST(same(got, after));
  for (int k = 0; k < 3; ++k) {
    ExactSum change;  // (the difference of the two momenta, exact and then rounded)
    change += after[k];
    change += -before[k];
    // (before and after are rounded once each: half an ulp of each more)
    const double drift = std::abs(change.value()), allowed = bound[k] + u * (std::abs(before[k]) + std::abs(after[k]));
    BOOST_TEST_MESSAGE("momentum " << k << ": change " << drift << ", bound " << allowed << ", scale " << mv);
    BOOST_TEST(drift <= allowed, "momentum " << k << " changed by " << drift << " > rounding bound " << allowed);
  }
  BOOST_TEST(bound.maxCoeff() < 1e-10 * mv);  // (the bound is a rounding's, not a loose one)
  BOOST_TEST(alone.contacts.size() > 0u);
}

BOOST_AUTO_TEST_CASE(driven_walls_and_spheres_have_the_same_bits) {
  const Scene scene = drivenPress();
  Scene alone = reference(scene);
  mpi::DistributedScene d(scene, MPI_COMM_WORLD);
  const std::uint64_t steps = 1200;
  d.run(steps);
  alone.run(steps);
  const Scene whole = d.gatherScene();
  expectSame(whole, alone, "press");
  BOOST_TEST(alone.energy.boundaryWork != 0.0);
  // gathered on one rank (the last) only: the same scene there, the walls' loads included; nothing
  // on the others
  const int root = d.ranks() - 1;
  const std::optional<Scene> one = d.gatherSceneOn(root);
  BOOST_TEST(one.has_value() == (d.rank() == root));
  if (one) {
    expectSame(*one, alone, "press, gathered on one rank");
    const Particles& p = whole.particles;
    const Particles& q = one->particles;
    std::size_t loaded = 0, differ = 0;
    for (std::size_t i = 0; i < p.size(); ++i) {
      if (!p.isBoundary(i)) continue;
      loaded += p.force[i] != Vec3(p.mass[i] * whole.gravity) ? 1 : 0;
      differ += same(q.force[i], p.force[i]) && same(q.torque[i], p.torque[i]) ? 0 : 1;
    }
    BOOST_TEST(loaded > 0u);
    BOOST_TEST(differ == 0u);
    BOOST_TEST(one->contacts.size() == whole.contacts.size());
  }
  BOOST_TEST_MESSAGE("press: boundary work " << alone.energy.boundaryWork << " J; " << d.epochs() << " epochs, "
                                             << d.migrations() << " migrations");
  if (d.ranks() > 1) BOOST_TEST(d.migrations() > 0u);
}

BOOST_AUTO_TEST_SUITE_END()
