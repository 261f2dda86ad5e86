#pragma once
// The contacts' cellDist (Yade's Interaction.cellDist: whole cells along each axis of the periodic
// cell between particle 2 and the image a contact sees) as one byte per contact: a code into a table
// of offsets. Most contacts of a periodic scene lie inside the cell (offset zero) and nearly all the
// others cross one face, edge or corner: the 27 offsets within one cell along every axis have fixed
// codes (zero is code 0, so that a new contact holds zero). Any other offset (a small cell, a sheared
// cell before it flips) takes one of the other kCodes - 27 codes while contacts hold it; when the
// codes run out, those no contact holds are freed (compact). 1.4 million potential contacts at
// 10^5 spheres: 1.4 MB instead of 8.4 MB for three 16-bit integers.

#include <array>
#include <cstdint>
#include <vector>

#include <Eigen/Core>

namespace dem {

class CellOffsetTable {
 public:
  static constexpr int kCodes = 256;
  static constexpr int kUnitCodes = 27;  // the offsets in {-1, 0, 1}^3
  static constexpr int kNoCode = -1;

  CellOffsetTable() {
    for (int c = 0; c < kUnitCodes; ++c) offsets_[static_cast<std::size_t>(c)] = unitOffset(c);
  }

  const Eigen::Vector3i& offset(std::uint8_t code) const { return offsets_[code]; }

  // The code of offset d (a new one if no code holds it), or kNoCode when every code is taken.
  int code(const Eigen::Vector3i& d) {
    if (d.cwiseAbs().maxCoeff() <= 1) return unitCode(d);
    for (int c = kUnitCodes; c < used_; ++c)
      if (offsets_[static_cast<std::size_t>(c)] == d) return c;
    if (used_ == kCodes) return kNoCode;
    offsets_[static_cast<std::size_t>(used_)] = d;
    return used_++;
  }

  // Frees the codes beyond the unit offsets that no entry of `codes` holds, renumbering the others
  // in `codes` (their offsets unchanged).
  void compact(std::vector<std::uint8_t>& codes) {
    std::array<bool, kCodes> held{};
    for (const std::uint8_t c : codes) held[c] = true;
    std::array<std::uint8_t, kCodes> renamed{};
    int next = kUnitCodes;
    for (int c = kUnitCodes; c < used_; ++c) {
      if (!held[static_cast<std::size_t>(c)]) continue;
      offsets_[static_cast<std::size_t>(next)] = offsets_[static_cast<std::size_t>(c)];
      renamed[static_cast<std::size_t>(c)] = static_cast<std::uint8_t>(next++);
    }
    for (std::uint8_t& c : codes)
      if (c >= kUnitCodes) c = renamed[c];
    used_ = next;
  }

  // Codes beyond the unit offsets given out (compact may free some).
  int extraCodes() const { return used_ - kUnitCodes; }

 private:
  // Code of an offset in {-1, 0, 1}^3: its base-3 digits, turned so that zero (digits 1, 1, 1 = 13) is 0.
  static int unitCode(const Eigen::Vector3i& d) { return (9 * (d[0] + 1) + 3 * (d[1] + 1) + (d[2] + 1) + 14) % 27; }
  static Eigen::Vector3i unitOffset(int code) {
    const int n = (code + 13) % 27;
    return {n / 9 - 1, n / 3 % 3 - 1, n % 3 - 1};
  }
  std::array<Eigen::Vector3i, kCodes> offsets_{};
  int used_ = kUnitCodes;
};

}  // namespace dem
