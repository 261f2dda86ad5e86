#pragma once
// A uniform grid of cells over box centres, for the colliders' first (full) run: the candidate
// partners of a box are the boxes whose centres lie in its cell or an adjacent one, which holds every
// box that overlaps it when each cell is at least as wide as the widest box along each axis (two
// overlapping boxes' centres are at most half the sum of their widths apart). Building is a counting
// sort of the bodies by cell, O(N + cells); the number of cells is kept at most 4 N + 64 by widening
// them. Internal to the colliders (collider.cpp, periodic_collider.cpp), which sort each box's
// candidates into the order of their sweep so that the contact list is exactly the sweep's.

#include "math.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <vector>

namespace dem::detail {

class CellGrid {
 public:
  // Cells of width `width` (per axis, > 0) from `origin`, `m` cells per axis; periodic: coordinates are
  // taken modulo m cells (fractional coordinates in a periodic cell: origin 0, width 1 / m).
  CellGrid(const Vec3& origin, const std::array<double, 3>& width, std::array<std::int64_t, 3> m, bool periodic)
      : origin_(origin), width_(width), m_(m), periodic_(periodic) {}

  // Largest cell counts per axis with cells at least `minWidth` wide over an extent `extent`
  // (aperiodic: the range of the centres; periodic: 1), at most 4 n + 64 cells in all.
  static std::array<std::int64_t, 3> counts(const Vec3& extent, const std::array<double, 3>& minWidth, std::size_t n,
                                            bool periodic) {
    std::array<std::int64_t, 3> m{};
    for (int w = 0; w < 3; ++w) {
      const double c = minWidth[w] > 0.0 ? extent[w] / minWidth[w] : 1.0;
      const double cells = periodic ? std::floor(c) : std::floor(c) + 1.0;
      m[w] = static_cast<std::int64_t>(std::clamp(std::isfinite(cells) ? cells : 1.0, 1.0, 1048576.0));
    }
    const auto limit = static_cast<double>(4 * n + 64);
    while (static_cast<double>(m[0]) * static_cast<double>(m[1]) * static_cast<double>(m[2]) > limit) {
      const int w = static_cast<int>(std::max_element(m.begin(), m.end()) - m.begin());
      m[w] = periodic ? m[w] / 2 : (m[w] + 1) / 2;  // periodic: still whole cells of >= minWidth per period
    }
    return m;
  }
  const std::array<std::int64_t, 3>& counts() const { return m_; }

  std::array<std::int64_t, 3> cellOf(const Vec3& c) const {
    std::array<std::int64_t, 3> k{};
    for (int w = 0; w < 3; ++w) {
      double x = (c[w] - origin_[w]) / width_[w];
      if (periodic_) x -= static_cast<double>(m_[w]) * std::floor(x / static_cast<double>(m_[w]));
      k[w] = std::clamp<std::int64_t>(static_cast<std::int64_t>(std::floor(x)), 0, m_[w] - 1);
    }
    return k;
  }

  // Bodies `ids` with centres `centre(id)`, sorted by cell.
  template <class Centre>
  void build(const std::vector<std::uint32_t>& ids, Centre&& centre) {
    const std::size_t cells = static_cast<std::size_t>(m_[0] * m_[1] * m_[2]);
    start_.assign(cells + 1, 0);
    std::vector<std::uint32_t> cellIndex(ids.size());
    for (std::size_t k = 0; k < ids.size(); ++k) {
      cellIndex[k] = static_cast<std::uint32_t>(flat(cellOf(centre(ids[k]))));
      ++start_[cellIndex[k] + 1];
    }
    for (std::size_t c = 0; c < cells; ++c) start_[c + 1] += start_[c];
    items_.assign(ids.size(), 0u);
    std::vector<std::uint32_t> fill(start_.begin(), start_.end() - 1);
    for (std::size_t k = 0; k < ids.size(); ++k) items_[fill[cellIndex[k]]++] = ids[k];
  }

  // Bodies `ids`, each in every cell of the range cellOf(lo(id)) .. cellOf(hi(id)) (its box's cells;
  // aperiodic grids only): for boxes wider than the cells, which forCells then finds from any cell
  // they overlap.
  template <class Lo, class Hi>
  void buildBoxes(const std::vector<std::uint32_t>& ids, Lo&& lo, Hi&& hi) {
    const std::size_t cells = static_cast<std::size_t>(m_[0] * m_[1] * m_[2]);
    start_.assign(cells + 1, 0);
    const auto eachCell = [&](std::uint32_t id, auto&& f) {
      forRange(cellOf(lo(id)), cellOf(hi(id)), [&](std::size_t cell) { f(cell); });
    };
    for (const std::uint32_t id : ids) eachCell(id, [&](std::size_t cell) { ++start_[cell + 1]; });
    for (std::size_t c = 0; c < cells; ++c) start_[c + 1] += start_[c];
    items_.assign(start_[cells], 0u);
    std::vector<std::uint32_t> fill(start_.begin(), start_.end() - 1);
    for (const std::uint32_t id : ids) eachCell(id, [&](std::size_t cell) { items_[fill[cell]++] = id; });
  }

  // Calls f(id) for every entry of the cells from k0 to k1 (inclusive, per axis; aperiodic grids):
  // a body registered in several of them (buildBoxes) once for each.
  template <class F>
  void forCells(const std::array<std::int64_t, 3>& k0, const std::array<std::int64_t, 3>& k1, F&& f) const {
    forRange(k0, k1, [&](std::size_t cell) {
      for (std::uint32_t q = start_[cell]; q < start_[cell + 1]; ++q) f(items_[q]);
    });
  }

  // Calls f(id) for every body in cell k and its neighbours (each cell once).
  template <class F>
  void forNeighbours(const std::array<std::int64_t, 3>& k, F&& f) const {
    forNeighbourSlots(k, [&](std::size_t q) { f(items_[q]); });
  }

  // The bodies in the grid's order (build): slot q holds body item(q), the slots of a cell in a row.
  std::size_t slots() const { return items_.size(); }
  std::uint32_t item(std::size_t q) const { return items_[q]; }

  // Calls f(q) for every slot of cell k and its neighbours (each cell once): forNeighbours for data
  // copied into the grid's order, read in sequence.
  template <class F>
  void forNeighbourSlots(const std::array<std::int64_t, 3>& k, F&& f) const {
    std::array<std::array<std::int64_t, 3>, 3> axis{};
    std::array<int, 3> count{};
    for (int w = 0; w < 3; ++w) {
      for (std::int64_t d = -1; d <= 1; ++d) {
        std::int64_t c = k[w] + d;
        if (periodic_) c = (c % m_[w] + m_[w]) % m_[w];
        else if (c < 0 || c >= m_[w]) continue;
        bool seen = false;
        for (int q = 0; q < count[w]; ++q) seen = seen || axis[w][q] == c;
        if (!seen) axis[w][count[w]++] = c;
      }
    }
    for (int a = 0; a < count[0]; ++a)
      for (int b = 0; b < count[1]; ++b)
        for (int c = 0; c < count[2]; ++c) {
          const std::size_t cell = flat({axis[0][a], axis[1][b], axis[2][c]});
          for (std::size_t q = start_[cell]; q < start_[cell + 1]; ++q) f(q);
        }
  }

 private:
  Vec3 origin_;
  std::array<double, 3> width_;
  std::array<std::int64_t, 3> m_;
  bool periodic_;
  std::vector<std::uint32_t> start_, items_;

  // f(flat cell) for the cells k0 .. k1 per axis, each clamped to the grid.
  template <class F>
  void forRange(std::array<std::int64_t, 3> k0, std::array<std::int64_t, 3> k1, F&& f) const {
    for (int w = 0; w < 3; ++w) {
      k0[w] = std::clamp<std::int64_t>(k0[w], 0, m_[w] - 1);
      k1[w] = std::clamp<std::int64_t>(k1[w], 0, m_[w] - 1);
    }
    for (std::int64_t c = k0[2]; c <= k1[2]; ++c)
      for (std::int64_t b = k0[1]; b <= k1[1]; ++b)
        for (std::int64_t a = k0[0]; a <= k1[0]; ++a) f(flat({a, b, c}));
  }
  std::size_t flat(const std::array<std::int64_t, 3>& k) const {
    return static_cast<std::size_t>((k[2] * m_[1] + k[1]) * m_[0] + k[0]);
  }
};

}  // namespace dem::detail
