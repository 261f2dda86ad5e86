#pragma once
// The periodic collider against its brute-force oracle (bruteForcePeriodicPairs,
// solver/periodic_collider.hpp), one step at a time: shared by the case periodic_collider_brute_force
// and the unit suite periodic_boundaries.

#include "solver/periodic_collider.hpp"
#include "solver/scene.hpp"

#include <algorithm>
#include <array>
#include <vector>

namespace dem::verify {

// The store's pairs (ids and cellDist), sorted as the oracle's.
inline std::vector<PeriodicPair> storePairs(const ContactStore& contacts) {
  std::vector<PeriodicPair> pairs;
  for (const Contact& c : contacts.records())
    pairs.emplace_back(c.id1, c.id2, std::array<int, 3>{c.cellDist[0], c.cellDist[1], c.cellDist[2]});
  std::sort(pairs.begin(), pairs.end());
  return pairs;
}

// One step of s: `missing` counts the pairs whose true boxes overlapped before the step (the oracle
// with a sweep length of 0) and that the store does not hold after it; when the collider ran,
// `runMismatch` tells whether its pairs differ from the oracle's with its sweep length.
struct OracleStep {
  int missing = 0;
  bool ran = false, runMismatch = false;
};
inline OracleStep stepAgainstOracle(Scene& s) {
  const Particles before = s.particles;
  const Cell cellBefore = *s.cell;
  const std::uint64_t runs = s.periodicCollider.runs();
  s.step();
  OracleStep r;
  const std::vector<PeriodicPair> got = storePairs(s.contacts);
  for (const PeriodicPair& q : bruteForcePeriodicPairs(before, cellBefore, 0.0))
    r.missing += !std::binary_search(got.begin(), got.end(), q);
  r.ran = s.periodicCollider.runs() != runs;
  if (r.ran) {
    std::vector<PeriodicPair> expected = bruteForcePeriodicPairs(before, cellBefore, s.periodicCollider.sweepLength());
    std::sort(expected.begin(), expected.end());
    r.runMismatch = got != expected;
  }
  return r;
}

}  // namespace dem::verify
