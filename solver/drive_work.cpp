#include "drive_work.hpp"

#include "contacts.hpp"

#include <algorithm>
#include <array>
#include <cstring>
#include <stdexcept>

namespace dem {

namespace {

// sum of a_w b_w over the axes w (bits 0-2) in `axes`
double onAxes(const Vec3& a, const Vec3& b, std::uint8_t axes) {
  double sum = 0.0;
  for (int w = 0; w < 3; ++w)
    if (axes & (1u << w)) sum += a[w] * b[w];
  return sum;
}

// -(H . v + T . w) dt/2 on body i's blocked axes, H = F - m g
double halfWork(const Particles& p, std::uint32_t i, const Vec3& gravity, double dt) {
  const std::uint8_t b = p.blocked[i];
  const Vec3 held = p.force[i] - p.mass[i] * gravity;
  return -0.5 * dt * (onAxes(held, p.vel[i], b & dof::translation) + onAxes(p.torque[i], p.angVel[i], b >> 3));
}

}  // namespace

double DriveWork::begin(const Particles& p, const Vec3& gravity, double dt, const SharedSums* shared,
                        const ContactStore* contacts) {
  driven_.clear();
  const std::uint8_t* blocked = p.blocked.data();
  const std::size_t n = p.size();
  for (std::size_t i = 0; i < n; ++i) {
    // (8 bodies at a time while none is blocked: most of a bed)
    for (std::uint64_t word; i + 8 <= n && (std::memcpy(&word, blocked + i, 8), word == 0);) i += 8;
    if (i >= n) break;
    if (!blocked[i] || (p.vel[i].isZero(0.0) && p.angVel[i].isZero(0.0))) continue;  // (free, or fixed)
    if (p.isDriven(i) && p.velMidstep[i] && !p.isClumpMember(i)) driven_.push_back(static_cast<std::uint32_t>(i));
  }
  // summed in the order of user ids (the same bits for any storage order)
  std::sort(driven_.begin(), driven_.end(), [&](std::uint32_t a, std::uint32_t b) { return p.userBefore(a, b); });
  return work(p, gravity, dt, shared, contacts);
}

double DriveWork::end(const Particles& p, const Vec3& gravity, double dt, const SharedSums* shared,
                      const ContactStore* contacts) const {
  return work(p, gravity, dt, shared, contacts);
}

double DriveWork::work(const Particles& p, const Vec3& gravity, double dt, const SharedSums* shared,
                       const ContactStore* contacts) const {
  if (!shared) {
    double work = 0.0;
    for (const std::uint32_t i : driven_) work += halfWork(p, i, gravity, dt);
    return work;
  }
  // (every rank combines when any may hold a driven body: SharedSums::drives)
  if (!shared->drives) {
    if (!driven_.empty()) throw std::logic_error("drive work: a driven body in shared sums without drives");
    return 0.0;
  }
  std::array<ExactSum, 1> sum;
  bool walls = false;
  for (const std::uint32_t i : driven_) {
    if (p.isWall(i)) walls = true;
    else if (shared->owns(i)) sum[0] += halfWork(p, i, gravity, dt);
  }
  if (walls && contacts)
    for (const Contact& c : contacts->records()) {
      if (!c.real || c.type != ContactType::SphereWall || !shared->owns(c.id1)) continue;
      const std::uint32_t w = c.id2;
      if (!p.isDriven(w) || !p.velMidstep[w]) continue;
      const std::uint8_t b = p.blocked[w];
      sum[0] += -0.5 * dt * (onAxes(-c.force, p.vel[w], b & dof::translation) + onAxes(c.torque2, p.angVel[w], b >> 3));
    }
  shared->combine(sum);
  return sum[0].value();
}

}  // namespace dem
