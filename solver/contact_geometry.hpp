#pragma once
// Contact geometry in local contact coordinates (seed "Local contact coordinates", Woo's L6Geom).
//
// Every contact is handled by one generic routine on two (equivalent) spheres; the shape-specific
// part only supplies the directly computed normal, normal displacement and sphere centres:
//   sphere-sphere  n = (x2 - x1)/|x2 - x1|, u_N = |x2 - x1| - (r1 + r2)   (x2 may carry a periodic
//                  shift: pass the shifted centre; nothing below uses x2 - x1 elsewhere)
//   sphere-wall    particle 1 = the sphere, particle 2 = the wall as the "equivalent sphere" of
//                  radius 0 centred at the sphere centre's projection on the plane:
//                  n = -wall normal (from the sphere into the wall), u_N = (x1 - p).n_wall - r1.
//
// Sign conventions (ContactGeom):
//   n      unit normal from particle 1 towards particle 2;
//   u_N    normal displacement, negative in compression (overlap = -u_N); the contact is real
//          while u_N < 0;
//   c      contact point, the middle of the overlap zone: c = x1 + (r1 + u_N/2) n;
//   b_i    branch vectors c - x_i, used both for the relative velocity and as torque arms (the
//          same arms make the contact's power equal F . v_r, and a rigid rotation of the pair gives
//          exactly v_r = 0);
//   frame  rotation local -> global; its columns are the local axes (x = n, y, z); "T" of the
//          seed is its transpose (rows = axes), so local = frame^T global;
//   v_r    velocity of particle 2's contact point relative to particle 1's:
//          v_r = (v2 + w2 x b2) - (v1 + w1 x b1)   (seed), normal part removed with the mid-step
//          normal;
//   u      (u_N, u_T): u_T = sum of T_mid v_r dt (local y, z), the displacement of 2 relative to 1;
//   phi    sum of T_mid (w2 - w1) dt (local: twist about x, bending about y and z).
// Velocities are the mid-step values v(t - dt/2); positions are on-step x(t).
//
// Formation (departure from the seed's "u and phi initially zero", documented): u_N is computed
// directly and so already holds the overlap accrued since the onset, which fell inside the last
// step; u_T and phi are started consistently with it, u_T = T (v_r,t) tau, phi = T (w2 - w1) tau,
// with tau = -u_N / v_approach clamped to [0, dt] (0 when not approaching, e.g. bodies created
// overlapping). Starting from zero instead leaves an O(dt) phase lag of the shear spring behind
// the normal one (first/second order errors in oblique impacts, verification theory 6.4 expects
// third order).

#include "contact_kernel.hpp"
#include "contacts.hpp"
#include "math.hpp"

namespace dem {

// The generic routine's input: two spheres (or equivalent spheres), on-step centres, mid-step
// velocities, and the directly computed normal and normal displacement.
struct SpherePair {
  Vec3 x1, x2;          // centres (x2 including any periodic shift)
  Vec3 v1, v2, w1, w2;  // mid-step linear and angular velocities
  double r1 = 0.0, r2 = 0.0;
  Vec3 n;               // unit normal from 1 to 2
  double uN = 0.0;      // normal displacement (negative = overlap)
};

// Output of the geometry stage for one contact at t_n.
struct ContactGeom {
  Vec3 n, c, b1, b2;
  double a1 = 0.0, a2 = 0.0;  // arm lengths: b1 = a1 n, b2 = -a2 n
  Quat frame;   // local -> global
  double uN = 0.0;
  Vec3 u;       // (u_N, u_T,y, u_T,z), local
  Vec3 phi;     // local
};

// Sphere-sphere input (x2 already shifted for periodic contacts).
inline SpherePair sphereSpherePair(const Vec3& x1, double r1, const Vec3& x2, double r2) {
  SpherePair s;
  s.x1 = x1;
  s.x2 = x2;
  s.r1 = r1;
  s.r2 = r2;
  const Vec3 d = x2 - x1;
  const double dist = d.norm();
  s.n = dist > 0.0 ? Vec3((1.0 / dist) * d) : Vec3::UnitX();
  s.uN = dist - (r1 + r2);  // seed: u_x = |x2 - x1| - (r1 + r2)
  return s;
}

// Sphere (1) - wall (2) input: wall through point p with unit normal nw.
inline SpherePair sphereWallPair(const Vec3& x1, double r1, const Vec3& p, const Vec3& nw) {
  SpherePair s;
  const double dist = (x1 - p).dot(nw);  // signed distance of the centre from the plane
  s.x1 = x1;
  s.r1 = r1;
  s.x2 = x1 - dist * nw;  // equivalent sphere: radius 0 at the projection
  s.r2 = 0.0;
  s.n = -nw;
  s.uN = dist - r1;
  return s;
}

// Local frame at contact formation: x = n; y in the xz plane when |n_y| < |n_z|, else in the xy
// plane (seed "Contact formation"); z = x cross y.
Quat formationFrame(const Vec3& n);

// Updates the contact history (frame, normal, point, u, phi) of a real contact from step t-dt to t
// (seed "Contact update"); on formation (`isNew`) initialises it (see above).
ContactGeom contactGeometry(const SpherePair& s, Contact& history, bool isNew, double dt);

// The two halves of contactGeometry: formation (out of line, once per contact) and the update of an
// existing contact (updateContact below).
ContactGeom formContact(const SpherePair& s, Contact& history, double dt);

// Contact point and branch vectors (sign conventions above). Both arms lie on the normal:
// c - x1 = a1 n and c - x2 = -a2 n with a_i = r_i + u_N/2 (x2 = x1 + (r1 + r2 + u_N) n, also for the
// wall's equivalent sphere with r2 = 0), computed from the scalars rather than by subtracting
// positions (no cancellation far from the origin).
inline ContactGeom branchVectors(const SpherePair& s) {
  ContactGeom g;
  g.n = s.n;
  g.uN = s.uN;
  g.a1 = s.r1 + 0.5 * s.uN;
  g.a2 = s.r2 + 0.5 * s.uN;
  g.c = s.x1 + g.a1 * s.n;  // middle of the overlap zone
  g.b1 = g.a1 * s.n;
  g.b2 = -g.a2 * s.n;
  return g;
}

// Relative velocity at the contact point, (v2 + w2 x b2) - (v1 + w1 x b1), with the arms on the
// normal: (v2 - v1) - (a1 w1 + a2 w2) x n.
inline Vec3 relativeVelocity(const SpherePair& s, const ContactGeom& g) {
  return (s.v2 - s.v1) - (g.a1 * s.w1 + g.a2 * s.w2).cross(s.n);
}

// Stores the normal and contact point in the history and copies frame, u and phi into g.
inline ContactGeom storeHistory(const SpherePair& s, Contact& h, ContactGeom& g) {
  h.normal = s.n;
  h.point = g.c;
  g.frame = h.frame;
  g.u = h.u;
  g.phi = h.phi;
  return g;
}

// Updates the history of an existing contact (seed "Contact update"): updateHistory of
// contact_kernel.hpp on one contact.
inline ContactGeom updateContact(const SpherePair& s, Contact& h, double dt) {
  ContactGeom g = branchVectors(s);
  const RelativeMotion<double> m{v3(s.n), s.uN, g.a1, g.a2, v3(s.v2 - s.v1), v3(s.w1), v3(s.w2)};
  ContactHistory<double> hist{q4(h.frame), v3(h.normal), h.u[1], h.u[2], v3(h.phi)};
  updateHistory(m, hist, dt);
  h.frame = Quat(hist.frame.w, hist.frame.x, hist.frame.y, hist.frame.z);
  h.u = Vec3(s.uN, hist.uY, hist.uZ);  // seed: normal component computed directly
  h.phi = vec3(hist.phi);
  return storeHistory(s, h, g);
}

}  // namespace dem
