// The layout of the public types, and values passed through them to and from the library (issue 22).
// Compiled twice: dem-abi-layout with the library's own flags (-march=native), dem-abi-client as a
// program that uses the library would be, without them (baseline x86-64, no AVX). The test
// abi.layout (abi/compare_layouts.cmake) runs both: each checks its round trips and prints the
// sizes, alignments and offsets, which must be the same lines in both.
//
// Round trips: a ParticleSpec returned by the library (sphereSpec, with a guard after it: the library
// must not write past the caller's object), one filled here and added (Particles::add validates every
// field), a Contact stored and read back (ContactStore::add/get, the columns written by the
// library), and a scene stepped by the library whose members are then read here.

#include "io/checkpoint.hpp"
#include "io/csv_output.hpp"
#include "io/generators.hpp"
#include "io/runner.hpp"
#include "io/scene_loader.hpp"
#include "io/vtk_output.hpp"
#include "io/vtu_reader.hpp"
#include "solver/builders.hpp"
#include "solver/scene.hpp"

#include <cmath>
#include <cstddef>
#include <cstdio>
#include <cstring>
#include <new>
#include <string>

namespace {

using namespace dem;

int failures = 0;

void check(bool ok, const char* what) {
  if (!ok) {
    std::fprintf(stderr, "FAILED: %s\n", what);
    ++failures;
  }
}

bool same(const Vec3& a, const Vec3& b) { return a == b; }
bool near(const Quat& a, const Quat& b) { return (a.coeffs() - b.coeffs()).norm() < 1e-15; }

#define DEM_TYPE(T) std::printf("%s size %zu align %zu\n", #T, sizeof(T), alignof(T))
#define DEM_FIELD(T, m) std::printf("%s.%s offset %zu\n", #T, #m, offsetof(T, m))
// The same for a class that is not standard-layout (offsetof is not defined there): from an object.
#define DEM_MEMBER(object, m)                    \
  std::printf("%s.%s offset %td\n", #object, #m, \
              reinterpret_cast<const char*>(&object.m) - reinterpret_cast<const char*>(&object))

void printLayouts() {
  DEM_TYPE(Vec3);
  DEM_TYPE(Mat3);
  DEM_TYPE(Quat);
  DEM_TYPE(Eigen::Vector3i);
  DEM_TYPE(Eigen::Matrix3i);
  DEM_TYPE(Wall);
  DEM_FIELD(Wall, normal);
  DEM_FIELD(Wall, axis);
  DEM_TYPE(ParticleSpec);
  DEM_FIELD(ParticleSpec, pos);
  DEM_FIELD(ParticleSpec, vel);
  DEM_FIELD(ParticleSpec, angVel);
  DEM_FIELD(ParticleSpec, ori);
  DEM_FIELD(ParticleSpec, radius);
  DEM_FIELD(ParticleSpec, mass);
  DEM_FIELD(ParticleSpec, inertia);
  DEM_FIELD(ParticleSpec, material);
  DEM_FIELD(ParticleSpec, blocked);
  DEM_TYPE(Particles);
  DEM_TYPE(Material);
  DEM_TYPE(Contact);
  DEM_FIELD(Contact, id1);
  DEM_FIELD(Contact, type);
  DEM_FIELD(Contact, real);
  DEM_FIELD(Contact, cellDist);
  DEM_FIELD(Contact, elastic);
  DEM_FIELD(Contact, dissipated);
  DEM_FIELD(Contact, params);
  DEM_FIELD(Contact, frame);
  DEM_FIELD(Contact, normal);
  DEM_FIELD(Contact, point);
  DEM_FIELD(Contact, u);
  DEM_FIELD(Contact, phi);
  DEM_FIELD(Contact, damp);
  DEM_FIELD(Contact, force);
  DEM_FIELD(Contact, torque1);
  DEM_FIELD(Contact, torque2);
  DEM_TYPE(ContactStore);
  DEM_TYPE(ContactLoad);
  DEM_TYPE(ContactStageResult);
  DEM_TYPE(ContactScratch);
  DEM_TYPE(PairMaterials);
  DEM_TYPE(ContactStiffness);
  DEM_TYPE(PeriodicShift);
  DEM_TYPE(Collider);
  DEM_TYPE(Collider::State);
  DEM_TYPE(PeriodicCollider);
  DEM_TYPE(PeriodicCollider::State);
  DEM_TYPE(Cell);
  DEM_TYPE(Cell::State);
  DEM_TYPE(HomoDeform);
  DEM_TYPE(ClumpOptions);
  DEM_TYPE(MassProperties);
  DEM_TYPE(Clump);
  DEM_TYPE(Clumps);
  DEM_TYPE(EnergyLedger);
  DEM_TYPE(IntegratorSettings);
  DEM_TYPE(IntegratorScratch);
  DEM_TYPE(RotationInput);
  DEM_FIELD(RotationInput, ori);
  DEM_FIELD(RotationInput, angVel);
  DEM_FIELD(RotationInput, dt);
  DEM_TYPE(RotationOutput);
  DEM_TYPE(RunawayMonitor);
  DEM_TYPE(RunawayError);
  DEM_TYPE(TimestepEstimate);
  DEM_TYPE(BodyStiffness);
  DEM_TYPE(StageTimes);
  DEM_TYPE(Scene);
  const Scene scene;
  DEM_MEMBER(scene, particles);
  DEM_MEMBER(scene, materials);
  DEM_MEMBER(scene, collider);
  DEM_MEMBER(scene, periodicCollider);
  DEM_MEMBER(scene, contacts);
  DEM_MEMBER(scene, clumps);
  DEM_MEMBER(scene, gravity);
  DEM_MEMBER(scene, energy);
  DEM_MEMBER(scene, time);
  DEM_MEMBER(scene, cell);
  DEM_MEMBER(scene, stress);
  DEM_MEMBER(scene, externalForces);
  DEM_MEMBER(scene, runaway);
  DEM_TYPE(Scene::CarriedState);
  DEM_TYPE(DepositionSpec);
  DEM_TYPE(PeriodicLatticeSpec);
  DEM_TYPE(io::LatticeSpec);
  DEM_TYPE(io::PackingSpec);
  DEM_TYPE(io::Sphere);
  DEM_TYPE(io::RunSpec);
  DEM_TYPE(io::RunOptions);
  DEM_TYPE(io::RunOutcome);
  DEM_TYPE(io::LoadOptions);
  DEM_TYPE(io::LoadedScene);
  DEM_TYPE(io::CsvOutput);
  DEM_TYPE(io::VtkOutput);
  DEM_TYPE(io::VtuGrid);
}

// sphereSpec constructs its result in the caller's storage (copy elision): the bytes after it must
// stay as they were.
void sphereSpecRoundTrip() {
  alignas(64) unsigned char storage[sizeof(ParticleSpec) + 64];
  std::memset(storage, 0xA5, sizeof storage);
  const ParticleSpec& s = *new (storage) ParticleSpec(sphereSpec(Vec3(1.0, 2.0, 3.0), 0.1, 2600.0));
  bool intact = true;
  for (std::size_t k = sizeof(ParticleSpec); k < sizeof storage; ++k) intact = intact && storage[k] == 0xA5;
  check(intact, "sphereSpec wrote past the end of the caller's ParticleSpec");
  check(same(s.pos, Vec3(1.0, 2.0, 3.0)) && same(s.vel, Vec3::Zero()) && same(s.angVel, Vec3::Zero()),
        "sphereSpec: pos, vel, angVel");
  check(s.ori.coeffs() == Quat::Identity().coeffs(), "sphereSpec: ori");
  check(s.radius == 0.1 && s.mass == sphereMass(0.1, 2600.0), "sphereSpec: radius, mass");
  check(same(s.inertia, sphereInertia(0.1, s.mass)) && s.inertia[2] > 0.0, "sphereSpec: inertia");
  check(s.material == 0 && s.blocked == 0, "sphereSpec: material, blocked");
}

// Specs filled here and passed to Particles::add, which validates and stores every field.
void particlesRoundTrip() {
  Particles p;
  ParticleSpec a = sphereSpec(Vec3(0.5, -0.25, 2.0), 0.02, 2500.0);
  a.vel = Vec3(1.0, 0.0, -1.0);
  a.angVel = Vec3(0.0, 3.0, 0.0);
  a.material = 1;
  a.blocked = dof::z;
  ParticleSpec b;  // filled by hand: an aspherical body
  b.pos = Vec3(-1.0, 0.0, 4.0);
  b.ori = Quat(Eigen::AngleAxisd(0.7, Vec3(1.0, 2.0, 2.0).normalized()));
  b.radius = 0.05;
  b.mass = 2.0;
  b.inertia = Vec3(1e-3, 2e-3, 3e-3);
  b.material = 2;
  try {
    check(p.add(a) == 0 && p.add(b) == 1, "Particles::add ids");
  } catch (const std::exception& e) {
    std::fprintf(stderr, "Particles::add threw: %s\n", e.what());
    ++failures;
    return;
  }
  check(same(p.pos[0], a.pos) && same(p.vel[0], a.vel) && same(p.angVel[0], a.angVel),
        "add(sphereSpec): pos, vel, angVel");
  check(p.radius[0] == a.radius && p.mass[0] == a.mass && same(p.inertia[0], a.inertia),
        "add(sphereSpec): radius, mass, inertia");
  check(p.material[0] == 1 && p.blocked[0] == dof::z && !p.isWall(0), "add(sphereSpec): material, blocked, shape");
  check(same(p.pos[1], b.pos) && near(p.ori[1], b.ori), "add(hand-filled): pos, ori");
  check(p.radius[1] == 0.05 && p.mass[1] == 2.0 && same(p.inertia[1], b.inertia) && p.isAspherical(1),
        "add(hand-filled): radius, mass, inertia");
  check(p.material[1] == 2 && p.blocked[1] == 0, "add(hand-filled): material, blocked");
  const std::size_t w = p.addWall(Vec3(0.0, 0.0, -1.0), Vec3(0.0, 0.0, 2.0), 0);
  check(w == 2 && p.isWall(w) && same(p.walls[p.shapeIndex[w]].normal, Vec3::UnitZ()) &&
            p.walls[p.shapeIndex[w]].axis == 2,
        "addWall");
}

// A Contact filled here, stored by the library (its columns) and read back.
void contactRoundTrip() {
  Contact c;
  c.id1 = 3;
  c.id2 = 7;
  c.type = ContactType::SphereWall;
  c.real = 1;
  c.cellDist = Eigen::Vector3i(1, -2, 3);
  c.elastic = 0.5;
  c.dissipated = 0.25;
  c.params = {1.0, 2.0, 3.0, 4.0, 5.0};
  c.frame = Quat(Eigen::AngleAxisd(0.3, Vec3::UnitY()));
  c.normal = Vec3(1.0, 0.0, 0.0);  // (not stored: the store gives the frame's x axis)
  c.point = Vec3(1.0, 2.0, 3.0);
  c.u = Vec3(-1e-3, 2e-4, 3e-4);
  c.phi = Vec3(0.1, 0.2, 0.3);
  c.damp = Vec3(4.0, 5.0, 6.0);
  c.force = Vec3(7.0, 8.0, 9.0);
  c.torque1 = Vec3(10.0, 11.0, 12.0);
  c.torque2 = Vec3(13.0, 14.0, 15.0);
  ContactStore store;
  store.add(c);
  check(store.size() == 1 && store.find(3, 7) == 0, "ContactStore::add");
  check(store.at(col::qw, 0) == c.frame.w() && store.at(col::qy, 0) == c.frame.y(), "ContactStore columns: frame");
  check(store.at(col::t2z, 0) == 15.0 && store.at(col::param + 4, 0) == 5.0, "ContactStore columns: torque2, params");
  const Contact g = store.get(0);
  check(g.id1 == 3 && g.id2 == 7 && g.type == ContactType::SphereWall && g.real == 1 && g.cellDist == c.cellDist,
        "get: ids, type, real, cellDist");
  check(g.elastic == 0.5 && g.dissipated == 0.25 && g.params == c.params, "get: energies, params");
  check(g.frame.coeffs() == c.frame.coeffs() && same(g.normal, frameNormal(c.frame)) && same(g.point, c.point),
        "get: frame, normal (the frame's x axis), point");
  check(same(g.u, c.u) && same(g.phi, c.phi) && same(g.damp, c.damp), "get: u, phi, damp");
  check(same(g.force, c.force) && same(g.torque1, c.torque1) && same(g.torque2, c.torque2), "get: force, torques");
}

// Two spheres in contact on a floor, stepped by the library; its results read here.
void sceneRoundTrip() {
  Scene s;
  Material m;
  m.young = 1e7;
  s.materials.push_back(m);
  s.particles.addWall(Vec3::Zero(), Vec3::UnitZ(), 0);
  s.particles.add(sphereSpec(Vec3(0.0, 0.0, 0.0099), 0.01, m.density));
  s.particles.add(sphereSpec(Vec3(0.0199, 0.0, 0.0099), 0.01, m.density));
  s.gravity = Vec3(0.0, 0.0, -9.81);
  s.setDt(1e-6);
  s.step();
  check(s.stepCount == 1 && s.time == 1e-6 && s.dt() == 1e-6, "Scene: stepCount, time, dt");
  check(s.contacts.size() == 3 && s.contacts.countReal() == 3, "Scene: three real contacts");
  for (const Contact& c : s.contacts.records()) {
    check(std::abs(c.frame.norm() - 1.0) < 1e-12 && std::abs(c.normal.norm() - 1.0) < 1e-12,
          "Scene contact: unit frame and normal");
    check(c.u[0] < 0.0 && c.force.allFinite() && c.force.norm() > 0.0, "Scene contact: overlap and force");
    check(same(c.normal, c.frame * Vec3::UnitX()) || (c.normal - c.frame * Vec3::UnitX()).norm() < 1e-12,
          "Scene contact: frame x = normal");
  }
  check(s.particles.vel[2][2] > 0.0 && s.particles.vel[2][0] > 0.0, "Scene: the second sphere pushed up and away");
  check(s.energy.step == 0 && s.energy.elastic > 0.0 && s.stress == Mat3::Zero(), "Scene: energy ledger, stress");
}

}  // namespace

int main() {
  printLayouts();
  std::fflush(stdout);  // the layouts reach the test even if a round trip crashes
  sphereSpecRoundTrip();
  particlesRoundTrip();
  contactRoundTrip();
  sceneRoundTrip();
  if (failures != 0) {
    std::fprintf(stderr, "%d round-trip check(s) failed\n", failures);
    return 1;
  }
  std::fprintf(stderr, "round trips: ok\n");
  return 0;
}
