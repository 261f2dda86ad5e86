#pragma once
// Bitwise equality of two arrays (determinism and restart tests).

#include <cstring>
#include <vector>

namespace dem::test {

template <class T>
bool sameBits(const std::vector<T>& a, const std::vector<T>& b) {
  return a.size() == b.size() && std::memcmp(a.data(), b.data(), a.size() * sizeof(T)) == 0;
}

}  // namespace dem::test
