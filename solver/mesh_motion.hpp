#pragma once
// The prescribed rigid motion of mesh walls (MeshMotion, particles.hpp), placed exactly from the
// time: a vertex x0 (at the mesh's reference time t0) is at
//   x(t) = c + v (t - t0) + R(w (t - t0)) (x0 - c)
// with R(phi) = Quaternion(phi) (math.hpp, exact for any angle). Nothing accumulates from step to
// step, so a drum turning at a constant rate keeps its rate and its phase for any number of steps
// (no drift beyond the round-off of one evaluation at the current time).
// Each facet particle sits at its triangle's centroid with orientation R; its mid-step velocity is
// the chord (x(t) - x(t - dt)) / dt of its centroid, as a leapfrog body's (v(t - dt/2)), and its
// angular velocity w; the velocity of the facet at a contact point x2 is then
// v_facet + w x (x2 - x_facet) (contact_geometry.hpp, secondPointVelocity), the rigid motion's
// mid-step velocity there to second order in dt.

#include "particles.hpp"

namespace dem {

// Whether the mesh moves at all (a fixed mesh is never placed).
bool moves(const MeshMotion& m);

// The rotation centre at time t, c + v (t - t0).
Vec3 rotationCentre(const MeshMotion& m, double t);

// The motion at time t as the map x0 -> x(t): the rotation centre c(t) and R(w (t - t0)), computed
// once for all of a mesh's points (the rotation's sine and cosine once per mesh and time, not per
// vertex).
struct MeshPlacement {
  Vec3 reference;  // c
  Vec3 centre;     // c(t)
  Quat R;          // R(w (t - t0))
  // x(t) = c(t) + R (x0 - c)
  Vec3 operator()(const Vec3& x0) const { return centre + R * (x0 - reference); }
};
MeshPlacement meshPlacement(const MeshMotion& m, double t);

// The position at time t of the point that was at x0 at the motion's reference time.
Vec3 meshPoint(const MeshMotion& m, const Vec3& x0, double t);

// Whether any body's motion is prescribed at a non-zero velocity: a moving mesh, or a blocked axis
// of a body (a wall, a driven sphere) with a non-zero velocity (the ledger's boundary work, energy.hpp).
bool hasPrescribedMotion(const Particles& p);

// Places every moving mesh's facets at time t (vertices, centroid, orientation) with mid-step
// velocities over the step of length dt that ends at t. Returns whether any mesh moves. Nothing is
// done when the last placement was at the same t and dt with the same motions and facet count
// (Particles::meshesPlaced): it would give the same bits.
bool placeMeshes(Particles& p, double t, double dt);

}  // namespace dem
