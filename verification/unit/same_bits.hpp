#pragma once
// Bitwise equality of two arrays, of two values and of two contact records (determinism, restart
// and batching tests).

#include "solver/contacts.hpp"

#include <cstring>
#include <vector>

namespace dem::test {

template <class T>
bool sameBits(const std::vector<T>& a, const std::vector<T>& b) {
  return a.size() == b.size() && std::memcmp(a.data(), b.data(), a.size() * sizeof(T)) == 0;
}

// One value without padding (a double, an Eigen vector or quaternion coefficients).
template <class T>
bool sameValue(const T& a, const T& b) {
  return std::memcmp(&a, &b, sizeof(T)) == 0;
}

// Two contact records, field by field (their padding bytes are not copied with them).
inline bool sameContact(const Contact& a, const Contact& b) {
  return a.id1 == b.id1 && a.id2 == b.id2 && a.type == b.type && a.real == b.real &&
         sameValue(a.cellDist, b.cellDist) && sameValue(a.elastic, b.elastic) &&
         sameValue(a.dissipated, b.dissipated) && sameValue(a.params, b.params) && sameValue(a.damp, b.damp) && sameValue(a.frame.coeffs(), b.frame.coeffs()) &&
         sameValue(a.normal, b.normal) && sameValue(a.point, b.point) && sameValue(a.u, b.u) &&
         sameValue(a.phi, b.phi) && sameValue(a.force, b.force) && sameValue(a.torque1, b.torque1) &&
         sameValue(a.torque2, b.torque2);
}

}  // namespace dem::test
