#include "coordination.hpp"

#include <limits>
#include <vector>

namespace dem {

namespace {
// The body a contact counts for: the clump of a member, else the particle itself.
std::size_t countedBody(const Particles& p, std::size_t i) {
  return p.isClumpMember(i) ? static_cast<std::size_t>(p.clump[i]) : i;
}
}  // namespace

// Z = sum c_i / N, Z_m = (sum c_i - N1) / (N - N0 - N1) (Thornton 2000, eq. 8)
Coordination coordination(const Particles& p, const ContactStore& contacts) {
  std::vector<std::uint32_t> c(p.size(), 0);
  for (std::size_t k = 0; k < contacts.size(); ++k) {
    if (!contacts.real(k)) continue;
    for (const std::size_t i : {std::size_t{contacts.id1(k)}, std::size_t{contacts.id2(k)}})
      if (!p.isBoundary(i)) ++c[countedBody(p, i)];
  }
  double sum = 0.0, n = 0.0, n0 = 0.0, n1 = 0.0;
  for (std::size_t i = 0; i < p.size(); ++i) {
    if (p.isBoundary(i) || p.isClumpMember(i)) continue;
    sum += c[i];
    n += 1.0;
    n0 += c[i] == 0 ? 1.0 : 0.0;
    n1 += c[i] == 1 ? 1.0 : 0.0;
  }
  const double nan = std::numeric_limits<double>::quiet_NaN();
  Coordination z;
  z.mean = n > 0.0 ? sum / n : nan;
  z.mechanical = n - n0 - n1 > 0.0 ? (sum - n1) / (n - n0 - n1) : nan;
  return z;
}

}  // namespace dem
