#pragma once
// The registered contact laws and the one switch that picks a law for a stage (never per contact).
// To add a law: its file in laws/, one ContactLaw value (contact_law.hpp), one case below and its
// name in lawName/lawFromName (laws.cpp).

#include "laws/cundall.hpp"
#include "laws/hertz_mindlin.hpp"
#include "particles.hpp"

#include <vector>

namespace dem {

// f(Law{}) for the law `law`.
template <class F>
decltype(auto) withLaw(ContactLaw law, F&& f) {
  switch (law) {
    case ContactLaw::HertzMindlin:
      return f(HertzMindlin{});
    case ContactLaw::Cundall:
      break;
  }
  return f(Cundall{});
}

// The mixing rule's view of the pair (id1, id2) (id2 a wall when `wall`): materials, radii, and the
// masses of the bodies that move with them (a clump member's clump; infinite for a wall or a body
// that cannot translate).
PairMaterials pairMaterials(const Particles& p, const std::vector<Material>& materials, std::uint32_t id1, std::uint32_t id2,
                            bool wall);
// The parameters of a contact of law `law` from its pair (the law's mixing rule).
LawValues mixParams(ContactLaw law, const PairMaterials& m);

}  // namespace dem
