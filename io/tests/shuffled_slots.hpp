#pragma once
// A test helper shared by the io suites (checkpoint_restart.cpp, vtk_roundtrip.cpp): a permutation
// for Scene::renumber that shuffles the movable spheres among their slots, so that a scene's bodies
// no longer sit in the slots of their user ids.

#include "solver/particles.hpp"

#include <algorithm>
#include <cstdint>
#include <numeric>
#include <random>
#include <vector>

namespace dem::io::test {

// newSlot[i]: the slot the body in slot i moves to; the movable bodies (Particles::movable) take
// each other's slots in a shuffled order (fixed by `seed`), the others stay.
inline std::vector<std::uint32_t> shuffledSlots(const Particles& p, unsigned seed) {
  std::vector<std::uint32_t> newSlot(p.size()), movable;
  std::iota(newSlot.begin(), newSlot.end(), std::uint32_t{0});
  for (std::uint32_t i = 0; i < p.size(); ++i)
    if (p.movable(i)) movable.push_back(i);
  std::vector<std::uint32_t> to = movable;
  std::mt19937 rng(seed);
  std::shuffle(to.begin(), to.end(), rng);
  for (std::size_t k = 0; k < movable.size(); ++k) newSlot[movable[k]] = to[k];
  return newSlot;
}

}  // namespace dem::io::test
