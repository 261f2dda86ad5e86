#pragma once
// Materials and the contact-physics rule (seed "Stiffnesses", Yade Ip2_FrictMat_FrictMat_FrictPhys).
//
//   normal stiffness  kn = E1 l1 E2 l2 / (E1 l1 + E2 l2),  l_i = 2 r_i   (two springs in series)
//                     sphere-wall: the sphere's own term kn = E l = 2 E r (the wall is rigid)
//   shear stiffness   ks = the same series rule on ks_i = (ks/kn)_i E_i l_i, so that equal ratios
//                     give exactly ks = (ks/kn) kn; sphere-wall: ks = (ks/kn)_sphere kn
//   friction          phi = min(phi1, phi2) (a frictionless body gives a frictionless contact)
// For equal spheres of radius R and modulus E: kn = E R (verification theory, section 2.5).

#include <cstddef>
#include <cstdint>

namespace dem {

struct Material {
  double density = 2600.0;     // kg/m^3 (used by builders to compute masses)
  double young = 1e8;          // E, Pa
  double ksRatio = 0.2;        // ks/kn
  double frictionAngle = 0.5;  // rad, in [0, pi/2)
};

// The physics of one contact, created once when the contact is created.
struct ContactPhysics {
  double kn = 0.0;      // N/m
  double ks = 0.0;      // N/m
  double tanPhi = 0.0;  // Coulomb coefficient tan(friction angle)
};

// Throws std::invalid_argument naming the material index, field and value.
void validateMaterial(std::size_t index, const Material& m);

// Sphere-sphere physics from the two materials and radii (seed: series springs).
ContactPhysics sphereSpherePhysics(const Material& m1, double r1, const Material& m2, double r2);

// Sphere-wall physics: the sphere's own stiffness term; friction = min of both.
ContactPhysics sphereWallPhysics(const Material& sphere, double r, const Material& wall);

}  // namespace dem
