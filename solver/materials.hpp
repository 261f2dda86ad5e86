#pragma once
// Materials: what a body is made of. How two materials make a contact's parameters (the mixing
// rule) belongs to each contact law (laws/cundall.hpp, laws/hertz_mindlin.hpp).

#include <cstddef>
#include <cstdint>

namespace dem {

struct Material {
  double density = 2600.0;     // kg/m^3 (used by builders to compute masses)
  double young = 1e8;          // E, Pa
  double ksRatio = 0.2;        // ks/kn (Cundall)
  double frictionAngle = 0.5;  // rad, in [0, pi/2)
  double poisson = 0.25;       // Poisson's ratio nu, in [0, 0.5] (Hertz-Mindlin)
  double restitution = 1.0;    // coefficient of restitution of the contact dashpots, in [0, 1] (1: none)
};

// Throws std::invalid_argument naming the material index, field and value.
void validateMaterial(std::size_t index, const Material& m);

}  // namespace dem
