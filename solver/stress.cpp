#include "stress.hpp"

namespace dem {

Mat3 contactStressSum(const Particles& p, const ContactStore& contacts, const Mat3& H) {
  Mat3 S = Mat3::Zero();
  for (const Contact& c : contacts.items) {
    if (!c.real || c.type != ContactType::SphereSphere) continue;
    const Vec3 l = p.pos[c.id2] + H * c.cellDist.cast<double>() - p.pos[c.id1];  // branch vector 1 -> 2
    S += c.force * l.transpose();  // F (x) l
  }
  return S;
}

}  // namespace dem
