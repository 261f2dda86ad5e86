#include "laws.hpp"

namespace dem {

std::string lawName(ContactLaw law) {
  return withLaw(law, [](auto l) { return std::string(decltype(l)::name); });
}

bool lawFromName(const std::string& name, ContactLaw& law) {
  for (const ContactLaw l : {ContactLaw::Cundall, ContactLaw::HertzMindlin})
    if (lawName(l) == name) {
      law = l;
      return true;
    }
  return false;
}

namespace {
double bodyMass(const Particles& p, std::uint32_t i) {
  if (p.isBoundary(i)) return std::numeric_limits<double>::infinity();
  const std::size_t b = p.clump[i] != kNoClump ? static_cast<std::size_t>(p.clump[i]) : i;
  if ((p.blocked[b] & dof::translation) == dof::translation) return std::numeric_limits<double>::infinity();
  return p.mass[b];
}
}  // namespace

PairMaterials pairMaterials(const Particles& p, const std::vector<Material>& materials, std::uint32_t id1, std::uint32_t id2,
                            bool wall) {
  return {materials[p.material[id1]], p.radius[id1], bodyMass(p, id1), materials[p.material[id2]], p.radius[id2], bodyMass(p, id2),
          wall};
}

LawValues mixParams(ContactLaw law, const PairMaterials& m) {
  return withLaw(law, [&](auto l) { return decltype(l)::mix(m); });
}

}  // namespace dem
