// Case: bit identity (issue 19 item 7; contributing.md, "Floating point and determinism"): a run gives
//       the same bits for 1, 2 and 3 OpenMP threads, and a run resumed from a checkpoint gives the
//       same bits as the run without the stop. These are the unit suites thread_determinism and
//       checkpoint_restart as rows of the report.
// Scenario:  threads: a stirred frictional pour (depositionScene, 2500 spheres r = 0.01 m + 5 walls,
//            friction angle 0.4, damping 0.2, velocities up to 0.5 m/s), 100 steps of dem::Scene with
//            each thread count, Cundall law and Hertz-Mindlin with dashpots (e = 0.5). There are more
//            than kParallelThreshold particles and potential contacts, so the particle and contact
//            loops run in parallel (checked). Checkpoint: a 200-sphere frictional pour with both laws,
//            1000 steps straight against 500 steps, io::checkpointBytes, io::sceneFromCheckpointBytes
//            into a new Scene, and 500 more. Both again with the box as a mesh wall of 10 triangles
//            (DepositionSpec.meshBox; Cundall law).
// Reference: the run with one thread, and the run without the stop.
// Tolerance: 0. The error is the number of bytes that differ between the two final states, each
//            written as a checkpoint image (every particle array, the contacts with their history,
//            the collider, the ledger); a length mismatch counts as its difference. Sums run in
//            fixed blocks and every lane operation is correctly rounded, so any difference is a
//            defect.
#include "cases/registry.hpp"
#include "io/checkpoint.hpp"
#include "solver/builders.hpp"

#include <omp.h>

#include <algorithm>
#include <stdexcept>
#include <string>

namespace dem::verify {

namespace {

// Bytes that differ between two images (a length mismatch counts as its difference).
double differingBytes(const std::string& a, const std::string& b) {
  std::size_t n = std::max(a.size(), b.size()) - std::min(a.size(), b.size());
  for (std::size_t i = 0; i < std::min(a.size(), b.size()); ++i) n += a[i] != b[i];
  return static_cast<double>(n);
}

Scene stirredPour(ContactLaw law, std::size_t n, bool meshBox = false) {
  DepositionSpec spec;
  spec.n = n;
  spec.meshBox = meshBox;
  spec.material.frictionAngle = 0.4;
  if (law == ContactLaw::HertzMindlin) spec.material.restitution = 0.5;
  spec.damping = 0.2;
  spec.speed = 0.5;
  Scene s = depositionScene(spec);
  s.law = law;
  return s;
}

// The final state after `steps` with `threads` OpenMP threads (the caller's count restored).
std::string runWithThreads(ContactLaw law, int threads, std::uint64_t steps, bool meshBox = false) {
  const int saved = omp_get_max_threads();
  omp_set_num_threads(threads);
  Scene s = stirredPour(law, 2500, meshBox);
  s.run(steps);
  omp_set_num_threads(saved);
  if (s.particles.size() <= kParallelThreshold || s.contacts.size() <= kParallelThreshold)
    throw std::logic_error("bit_identity: the loops did not run in parallel");
  if (s.contacts.countReal() == 0 || !(s.energy.frictionDissipated > 0.0))
    throw std::logic_error("bit_identity: no contacts or no sliding in the threads' run");
  if (meshBox && s.contacts.countReal(ContactType::SphereFacet) == 0)
    throw std::logic_error("bit_identity: no facet contact in the mesh box's run");
  return io::checkpointBytes(s);
}

// Run 2n straight against n, a checkpoint image, a new Scene from it, n more.
double checkpointRoundTrip(ContactLaw law, std::uint64_t n, bool meshBox = false) {
  Scene straight = stirredPour(law, 200, meshBox);
  straight.run(2 * n);
  Scene first = stirredPour(law, 200, meshBox);
  first.run(n);
  Scene resumed = io::sceneFromCheckpointBytes(io::checkpointBytes(first), "bit_identity");
  resumed.run(n);
  if (straight.contacts.countReal() == 0) throw std::logic_error("bit_identity: no contacts at the end");
  return differingBytes(io::checkpointBytes(resumed), io::checkpointBytes(straight));
}

}  // namespace

Case bitIdentityCase() {
  Case c;
  c.name = "bit_identity";
  c.title = "same bits for 1, 2, 3 threads and across a checkpoint round-trip (Cundall, Hertz-Mindlin with dashpots)";
  c.dts = {0.0};
  c.onRanks = false;  // (whether one scene's loops ran on threads)
  const auto zero = [](double) { return 0.0; };
  for (const std::string law : {"cundall_", "hertz_mindlin_"})
    for (const std::string row : {"threads_2_vs_1", "threads_3_vs_1", "checkpoint_round_trip"})
      c.quantities.push_back(roundOffTolerance({law + row + "_bytes", zero, std::nullopt, "bytes"}));
  for (const std::string row : {"threads_2_vs_1", "threads_3_vs_1", "checkpoint_round_trip"})
    c.quantities.push_back(roundOffTolerance({"mesh_box_" + row + "_bytes", zero, std::nullopt, "bytes"}));
  c.run = [](double) {
    RunOutput out;
    for (const ContactLaw law : {ContactLaw::Cundall, ContactLaw::HertzMindlin}) {
      const std::string t = law == ContactLaw::Cundall ? "cundall_" : "hertz_mindlin_";
      const std::string one = runWithThreads(law, 1, 100);
      out.errors[t + "threads_2_vs_1_bytes"] = differingBytes(runWithThreads(law, 2, 100), one);
      out.errors[t + "threads_3_vs_1_bytes"] = differingBytes(runWithThreads(law, 3, 100), one);
      out.errors[t + "checkpoint_round_trip_bytes"] = checkpointRoundTrip(law, 500);
    }
    // mesh walls (Cundall): the facet contacts' decisions and moved histories
    const std::string one = runWithThreads(ContactLaw::Cundall, 1, 100, true);
    out.errors["mesh_box_threads_2_vs_1_bytes"] =
        differingBytes(runWithThreads(ContactLaw::Cundall, 2, 100, true), one);
    out.errors["mesh_box_threads_3_vs_1_bytes"] =
        differingBytes(runWithThreads(ContactLaw::Cundall, 3, 100, true), one);
    out.errors["mesh_box_checkpoint_round_trip_bytes"] = checkpointRoundTrip(ContactLaw::Cundall, 500, true);
    return out;
  };
  return c;
}

}  // namespace dem::verify
