#include "unbalanced_force.hpp"

#include <limits>

namespace dem {

// mean |F_c| over real contacts (Yade: |normalForce + shearForce|)
double meanContactForce(const Particles& p, const ContactStore& contacts) {
  double sum = 0.0;
  std::size_t n = 0;
  contacts.forEachRealInUserOrder(p, [&](std::size_t k) {  // (sums in the order of user ids)
    sum += contacts.vec(col::fx, k).norm();
    ++n;
  });
  return n ? sum / static_cast<double>(n) : std::numeric_limits<double>::quiet_NaN();
}

// (1/N) sum_i |F_i| over dynamic bodies, divided by the mean contact force
double unbalancedForce(const Particles& p, const ContactStore& contacts) {
  double sum = 0.0;
  std::size_t n = 0;
  for (std::size_t u = 0; u < p.size(); ++u) {  // (in the order of user ids)
    const std::size_t i = p.slotOf[u];
    if (p.isBoundary(i) || p.isClumpMember(i) || p.blocked[i] == dof::all) continue;
    sum += p.force[i].norm();
    ++n;
  }
  if (n == 0) return std::numeric_limits<double>::quiet_NaN();
  return sum / static_cast<double>(n) / meanContactForce(p, contacts);
}

}  // namespace dem
