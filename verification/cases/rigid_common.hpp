#pragma once
// Shared pieces of the rigid-body cases (verification theory, section 3): the four rotation
// algorithms, the arbitrary initial orientation the theory document uses ("arbitrary q0"), and the
// step loop that records body-frame angular velocities at the mid-steps.
#include "solver/builders.hpp"

#include <array>
#include <cmath>
#include <string>

namespace dem::verify::rigid {

inline constexpr std::array<RotationAlgorithm, 4> kAlgorithms{
    RotationAlgorithm::FinchamAT, RotationAlgorithm::FinchamYade, RotationAlgorithm::Omelyan, RotationAlgorithm::Spiral};

inline Quat arbitraryQ0() { return Quat(Eigen::AngleAxisd(0.9, Vec3(0.3, -1.0, 0.5).normalized())); }

inline std::string qname(RotationAlgorithm a, const std::string& what) {
  return std::string(rotationAlgorithmName(a)) + "_" + what;
}

// Body-frame angular velocity of the stored mid-step value, w_b(t - dt/2) = A(q(t)) w(t - dt/2): the
// last step rotated the body about this very vector, so A(q(t)) and A(q(t - dt/2)) give the same
// components to O(dt^2) (theory 3.2, step 7).
inline Vec3 bodyOmegaMidStep(const Particles& p, std::size_t i) { return p.ori[i].conjugate() * p.angVel[i]; }

inline int stepsFor(double T, double dt) { return static_cast<int>(std::lround(T / dt)); }

}  // namespace dem::verify::rigid
