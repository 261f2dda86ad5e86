#include "stress.hpp"

#include "contact_geometry.hpp"

namespace dem {

Mat3 contactStressSum(const Particles& p, const ContactStore& contacts, const Mat3& H) {
  Mat3 S = Mat3::Zero();
  for (std::size_t k = 0; k < contacts.size(); ++k) {
    if (!contacts.real(k) || contacts.type(k) != ContactType::SphereSphere) continue;
    const std::uint32_t i1 = contacts.id1(k), i2 = contacts.id2(k);
    const Vec3 l = secondPosition(p, i2, contacts.cellDist(k), &H) - p.pos[i1];  // branch vector 1 -> 2
    S += contacts.vec(col::fx, k) * l.transpose();  // F (x) l
  }
  return S;
}

}  // namespace dem
