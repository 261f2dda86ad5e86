#include "contacts.hpp"

#include "particles.hpp"

#include <algorithm>
#include <cstring>
#include <limits>
#include <sstream>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

namespace dem {

namespace {

// The doubles of a default Contact, in column order.
struct DefaultColumns {
  double v[col::count] = {};
  DefaultColumns() {
    const Contact c;
    v[col::qw] = c.frame.w();
    v[col::qx] = c.frame.x();
    v[col::qy] = c.frame.y();
    v[col::qz] = c.frame.z();
  }
};
const DefaultColumns kDefault;

std::size_t padded(std::size_t n) { return (n + kColumnPad - 1) / kColumnPad * kColumnPad; }

bool sameBits(double a, double b) { return std::memcmp(&a, &b, sizeof a) == 0; }
bool sameBits(const Vec3& a, const Vec3& b) {
  return sameBits(a.x(), b.x()) && sameBits(a.y(), b.y()) && sameBits(a.z(), b.z());
}

}  // namespace

bool holdsDefaults(const Contact& c) {
  const Contact d;
  return !c.real && sameBits(c.elastic, d.elastic) && sameBits(c.dissipated, d.dissipated) &&
         sameBits(c.frame.w(), d.frame.w()) && sameBits(c.frame.x(), d.frame.x()) &&
         sameBits(c.frame.y(), d.frame.y()) && sameBits(c.frame.z(), d.frame.z()) && sameBits(c.normal, d.normal) &&
         sameBits(c.point, d.point) && sameBits(c.u, d.u) && sameBits(c.phi, d.phi) && sameBits(c.damp, d.damp) &&
         sameBits(c.force, d.force) && sameBits(c.torque1, d.torque1) && sameBits(c.torque2, d.torque2);
}

double ContactStore::defaultColumn(std::size_t c) { return kDefault.v[c]; }

void ContactStore::setCellDist(std::size_t k, const Eigen::Vector3i& d) {
  if (cellCode_.empty()) {
    if (d.isZero()) return;
    cellCode_.reserve(id1_.capacity());  // (the room reserved for the others: no growth by doubling)
    cellCode_.assign(size_, 0);
  }
  const auto refuse = [&](const std::string& why) {
    std::ostringstream m;
    m << "contact between bodies " << id1_[k] << " and " << id2_[k] << ": its periodic image lies (" << d.transpose()
      << ") cells away, " << why << " (a cell sheared that far must flip)";
    throw std::range_error(m.str());
  };
  if (d.cwiseAbs().maxCoeff() > kMaxCellOffset) refuse("beyond " + std::to_string(kMaxCellOffset));
  int code = cellOffsets_.code(d);
  if (code == CellOffsetTable::kNoCode) {
    cellOffsets_.compact(cellCode_);
    code = cellOffsets_.code(d);
    if (code == CellOffsetTable::kNoCode)
      refuse("while other contacts hold " + std::to_string(cellOffsets_.extraCodes()) +
             " other offsets of more than one cell");
  }
  cellCode_[k] = static_cast<std::uint8_t>(code);
}

void ContactStore::throwNoResults() {
  throw std::logic_error(
      "contact store: the contacts' results (force, torques, energies) were not kept at this step "
      "(ContactStore::useResultColumns; Scene::keepContactResults)");
}

Contact ContactStore::get(std::size_t k) const {
  if (!resultColumns_) throwNoResults();
  return getWithoutResults(k);
}

Contact ContactStore::getWithoutResults(std::size_t k) const {
  Contact c;
  c.id1 = id1_[k];
  c.id2 = id2_[k];
  c.type = type_[k];
  c.real = real_[k];
  c.cellDist = cellDist(k);
  if (k >= limit_) {  // lean: the defaults, no parameters
    c.params.fill(kUnmixed);
    return c;
  }
  if (resultColumns_) {
    c.point = vec(col::px, k);
    c.elastic = at(col::elastic, k);
    c.dissipated = at(col::dissipated, k);
    c.force = vec(col::fx, k);
    c.torque1 = vec(col::t1x, k);
    c.torque2 = vec(col::t2x, k);
  }
  for (std::size_t i = 0; i < kMaxLawParams; ++i) c.params[i] = at(col::param + i, k);
  c.damp = vec(col::dampN, k);
  c.frame = frame(k);
  c.normal = normal(k);
  c.u = vec(col::ux, k);
  c.phi = vec(col::phix, k);
  return c;
}

void ContactStore::set(std::size_t k, const Contact& c) {
  id1_[k] = c.id1;
  id2_[k] = c.id2;
  type_[k] = c.type;
  if (real_[k] != c.real) noteRealChanged();
  real_[k] = c.real;
  setCellDist(k, c.cellDist);
  if (k >= limit_) {
    if (holdsDefaults(c)) return;  // (lean: its parameters are the mixing rule's when visited)
    materialize(k + 1);
  }
  setColumns(k, c);
}

void ContactStore::setColumns(std::size_t k, const Contact& c) {
  DEM_ASSERT(!c.real || !unmixed(c.params), "ContactStore::set: a real contact holds its law parameters");
  put(col::elastic, k, c.elastic);
  put(col::dissipated, k, c.dissipated);
  for (std::size_t i = 0; i < kMaxLawParams; ++i) put(col::param + i, k, c.params[i]);
  put(col::qw, k, c.frame.w());
  put(col::qx, k, c.frame.x());
  put(col::qy, k, c.frame.y());
  put(col::qz, k, c.frame.z());
  const auto putVec = [&](std::size_t c0, const Vec3& v) {
    for (std::size_t w = 0; w < 3; ++w) put(c0 + w, k, v[static_cast<Eigen::Index>(w)]);
  };
  putVec(col::px, c.point);
  putVec(col::ux, c.u);
  putVec(col::phix, c.phi);
  putVec(col::fx, c.force);
  putVec(col::t1x, c.torque1);
  putVec(col::t2x, c.torque2);
  putVec(col::dampN, c.damp);
}

void ContactStore::reserve(std::size_t n) {
  id1_.reserve(n);
  id2_.reserve(n);
  type_.reserve(n);
  real_.reserve(n);
  if (!cellCode_.empty()) cellCode_.reserve(n);
  index_.reserve(n, keyAt());
}

// The tiles grow or shrink at their end (ColumnBuffer: in place where the system allows); the new
// ones are filled with the defaults.
void ContactStore::reallocate(std::size_t capacity) {
  data_.resize(width() * capacity);
  for (std::size_t t = capacity_ / kColumnPad; t < capacity / kColumnPad; ++t)
    for (std::size_t c = 0; c < col::count; ++c)
      if (hasColumn(c)) std::fill_n(data_.data() + offset(c, t * kColumnPad), kColumnPad, kDefault.v[c]);
  capacity_ = capacity;
}

bool ContactStore::useDashpotColumns(bool keep) {
  if (keep == dashpotColumns_) return true;
  const std::size_t tiles = capacity_ / kColumnPad, lanes = kColumnPad;
  const std::size_t tail = resultColumns_ ? kResultColumns : 0;  // (the results' group behind)
  if (!keep) {
    for (std::size_t k = 0; k < limit_; ++k)
      for (std::size_t c = col::dashpotsBegin; c < col::resultsBegin; ++c)
        if (!positiveZero(data_[offset(c, k)])) return false;
    // each tile moved forward (to a place at or before its own), its columns in order, before the
    // buffer shrinks: every block is moved before anything is written over it
    const std::size_t from = (col::dashpotsBegin + kDashpotColumns + tail) * lanes,
                      to = (col::dashpotsBegin + tail) * lanes;
    double* d = data_.data();
    for (std::size_t t = 0; t < tiles; ++t) {
      std::memmove(d + t * to, d + t * from, col::dashpotsBegin * lanes * sizeof(double));
      std::memmove(d + t * to + col::dashpotsBegin * lanes, d + t * from + col::resultsBegin * lanes,
                   tail * lanes * sizeof(double));
    }
    dashpotColumns_ = false;
    data_.resize(width() * capacity_);
    return true;
  }
  // the buffer grows, then each tile moves back (to a place at or after its own), from the last
  data_.resize((col::resultsBegin + tail) * capacity_);
  const std::size_t from = (col::dashpotsBegin + tail) * lanes, to = (col::resultsBegin + tail) * lanes;
  double* d = data_.data();
  for (std::size_t t = tiles; t-- > 0;) {
    std::memmove(d + t * to + col::resultsBegin * lanes, d + t * from + col::dashpotsBegin * lanes,
                 tail * lanes * sizeof(double));
    std::memmove(d + t * to, d + t * from, col::dashpotsBegin * lanes * sizeof(double));
    std::fill_n(d + t * to + col::dashpotsBegin * lanes, kDashpotColumns * lanes, 0.0);
  }
  dashpotColumns_ = true;
  return true;
}

void ContactStore::useResultColumns(bool keep) {
  if (keep == resultColumns_) return;
  const std::size_t tiles = capacity_ / kColumnPad, lanes = kColumnPad;
  const std::size_t front = width() - (resultColumns_ ? kResultColumns : 0);  // (the columns before the group)
  const std::size_t narrow = front * lanes, wide = (front + kResultColumns) * lanes;
  double* d = data_.data();
  if (!keep) {
    // each tile's front moved forward (to a place at or before its own) before the buffer shrinks
    for (std::size_t t = 1; t < tiles; ++t) std::memmove(d + t * narrow, d + t * wide, narrow * sizeof(double));
    resultColumns_ = false;
    data_.resize(width() * capacity_);
    return;
  }
  // the buffer grows, then each tile moves back (to a place at or after its own), from the last
  data_.resize((front + kResultColumns) * capacity_);
  d = data_.data();
  for (std::size_t t = tiles; t-- > 0;) {
    std::memmove(d + t * wide, d + t * narrow, narrow * sizeof(double));
    for (std::size_t c = col::resultsBegin; c < col::count; ++c)
      std::fill_n(d + t * wide + (front + c - col::resultsBegin) * lanes, lanes, kDefault.v[c]);
  }
  resultColumns_ = true;
}

void ContactStore::resizeColumns(std::size_t n) {
  // dropped entries with columns back to the defaults (the entries from limit_ on hold them)
  for (std::size_t k = n; k < limit_; ++k)
    for (std::size_t c = 0; c < col::count; ++c)
      if (hasColumn(c)) at(c, k) = kDefault.v[c];
  limit_ = std::min(limit_, n);
  id1_.resize(n);
  id2_.resize(n);
  type_.resize(n);
  real_.resize(n);
  if (!cellCode_.empty()) cellCode_.resize(n, 0);
  if (runGap_.size() > n) runGap_.resize(n);  // (the others' gaps are unknown)
  if (inAdj_.size() > n) inAdj_.resize(n);    // (the others are not listed)
  size_ = n;
}

void ContactStore::materialize(std::size_t m) {
  m = std::min(m, size_);
  if (m <= limit_) return;
  const std::size_t need = padded(m);
  // Growth by a sixty-fourth, not std::vector's doubling: the columns are most of a scene's memory,
  // and the tiles grow at their end (ColumnBuffer's mremap moves pages, it copies none; a sixteenth
  // had left 1.4 MB unused at 10^5 spheres).
  if (need > capacity_) reallocate(padded(std::max(need, capacity_ + capacity_ / 64)));
  for (std::size_t k = limit_; k < m; ++k)
    for (std::size_t i = 0; i < kMaxLawParams; ++i)
      if (hasColumn(col::param + i)) data_[offset(col::param + i, k)] = kUnmixed;
  limit_ = m;
}

void ContactStore::fitColumns(std::size_t m) {
  m = std::min(m, size_);
  if (m >= limit_) materialize(m);
  for (std::size_t k = m; k < limit_; ++k) {
    DEM_ASSERT(!real_[k], "fitColumns: a contact made lean is not real");
    for (std::size_t c = 0; c < col::count; ++c)
      if (hasColumn(c)) data_[offset(c, k)] = kDefault.v[c];
  }
  limit_ = m;
  // (a buffer more than twice the size needed is given back)
  if (capacity_ > 2 * padded(m) + kColumnPad) reallocate(padded(m + m / 16));
}

namespace {
// Eight flags as one word (their bytes in memory order).
inline std::uint64_t eightFlags(const std::uint8_t* f) {
  std::uint64_t w;
  std::memcpy(&w, f, sizeof w);
  return w;
}
// Whether some byte of w is zero (the bit trick: a byte's borrow reaches its top bit only from 0).
inline bool someZeroByte(std::uint64_t w) { return ((w - 0x0101010101010101ull) & ~w & 0x8080808080808080ull) != 0; }
// The first k in [front, back) with v[k] == 0, or back; eight flags at a time where all are set.
inline std::size_t firstUnvisited(const std::uint8_t* v, std::size_t front, std::size_t back) {
  while (front + 8 <= back && !someZeroByte(eightFlags(v + front))) front += 8;
  while (front < back && v[front]) ++front;
  return front;
}
// The end of the last k in [front, back) with v[k] != 0 (front when none); eight at a time where
// none is set.
inline std::size_t endOfVisited(const std::uint8_t* v, std::size_t front, std::size_t back) {
  while (back >= front + 8 && eightFlags(v + back - 8) == 0) back -= 8;
  while (front < back && !v[back - 1]) --back;
  return back;
}
}  // namespace

std::size_t ContactStore::gatherVisitedColumns(const std::vector<std::uint8_t>& visit) {
  const std::size_t r = realEnd(), a = r + visit.size();
  DEM_ASSERT(a == activeEnd(), "gatherVisited: one flag for each active contact that is not real");
  if (!changed_.empty()) {
    changed_.clear();
    gathered_ = false;
  }
  // partitionBy's swaps (the first contact not visited with the last one visited; as many as are out
  // of place, so the cost follows the changes), the flags staying with the positions they describe
  std::size_t front = r, back = a;
  const std::uint8_t* v = visit.data();  // (v[k - r] for contact k)
  while (true) {
    front = r + firstUnvisited(v, front - r, back - r);
    back = r + endOfVisited(v, front - r, back - r);
    if (front >= back) break;
    --back;
    swapPlaced(front, back);
    ++front;
  }
  const std::size_t m = front;
  if (resultColumns_)
    for (std::size_t k = m; k < std::min(a, limit_); ++k)
      if (data_[offset(col::dissipated, k)] != 0.0) data_[offset(col::dissipated, k)] = 0.0;
  materialize(m);
  return m;
}

void ContactStore::add(const Contact& c) {
  resizeColumns(size_ + 1);
  set(size_ - 1, c);
  index_.insert(pairKey(c.id1, c.id2), static_cast<std::uint32_t>(size_ - 1), keyAt());  // (its ids in place)
  adjacencyValid_ = false;
  activeEnd_ = SIZE_MAX;
  gathered_ = descentsKnown_ = false;
}

void ContactStore::remove(std::size_t index) {
  index_.erase(key(index), keyAt());
  const std::size_t last = size_ - 1;
  if (index != last) {
    const std::int64_t moved = index_.slot(key(last), keyAt());
    set(index, getWithoutResults(last));
    if (index < runGap_.size()) runGap_[index] = recordedRunGap(last);
    if (index < inAdj_.size()) inAdj_[index] = listed(last);
    index_.setSlot(moved, static_cast<std::uint32_t>(index));
  }
  resizeColumns(last);
  adjacencyValid_ = false;
  activeEnd_ = SIZE_MAX;
  gathered_ = descentsKnown_ = false;
}

void ContactStore::clear() {
  resizeColumns(0);
  index_.clear();
  realEnd_ = SIZE_MAX;
  activeEnd_ = SIZE_MAX;
  adjacencyValid_ = false;
  gathered_ = descentsKnown_ = false;
}

void ContactStore::swap(std::size_t a, std::size_t b) {
  const std::size_t lo = std::min(a, b), hi = std::max(a, b);
  if (hi < limit_) {
    for (std::size_t c = 0; c < col::count; ++c)
      if (hasColumn(c)) std::swap(data_[offset(c, a)], data_[offset(c, b)]);
  } else if (lo < limit_) {
    // a contact with columns moves to the lean tier (it holds no history: not real; its parameters
    // are dropped) and a lean one takes its columns with the defaults, no parameters
    DEM_ASSERT(!real_[lo], "ContactStore::swap: a contact that leaves the columns is not real");
    for (std::size_t c = 0; c < col::count; ++c)
      if (hasColumn(c)) data_[offset(c, lo)] = kDefault.v[c];
    for (std::size_t i = 0; i < kMaxLawParams; ++i)
      if (hasColumn(col::param + i)) data_[offset(col::param + i, lo)] = kUnmixed;
  }
  std::swap(id1_[a], id1_[b]);
  std::swap(id2_[a], id2_[b]);
  std::swap(type_[a], type_[b]);
  std::swap(real_[a], real_[b]);
  if (!cellCode_.empty()) std::swap(cellCode_[a], cellCode_[b]);
  const float gapA = recordedRunGap(a), gapB = recordedRunGap(b);
  if (a < runGap_.size()) runGap_[a] = gapB;
  if (b < runGap_.size()) runGap_[b] = gapA;
  const std::uint8_t listedA = listed(a), listedB = listed(b);
  if (a < inAdj_.size()) inAdj_[a] = listedB;
  if (b < inAdj_.size()) inAdj_[b] = listedA;
}

void ContactStore::swapAdjacency(std::size_t a, std::size_t b) {
  // (each list is in the order of the partners' user ids, which a swap does not change)
  const std::uint32_t bodies[4] = {id1_[a], id2_[a], id1_[b], id2_[b]};
  for (std::size_t q = 0; q < 4; ++q) {
    const std::uint32_t i = bodies[q];
    if (std::find(bodies, bodies + q, i) != bodies + q) continue;  // (each body's list once)
    std::uint32_t* first = adjEntry_.data() + adjOffset_[i];
    std::uint32_t* last = first + adjCount_[i];
    for (std::uint32_t* e = first; e != last; ++e) {
      const std::uint32_t k = *e >> 1, side = *e & 1u;
      if (k == a) *e = static_cast<std::uint32_t>(b << 1) | side;
      else if (k == b) *e = static_cast<std::uint32_t>(a << 1) | side;
    }
    if (!adjByUser_) std::sort(first, last);  // (by index: a short list, nearly sorted)
  }
}

void ContactStore::adjacencyInsert(const Particles& p, std::uint32_t body, std::uint32_t entry) {
  std::uint32_t* first = adjEntry_.data() + adjOffset_[body];
  std::uint32_t* last = first + adjCount_[body];
  DEM_ASSERT(adjOffset_[body] + adjCount_[body] < adjOffset_[body + 1], "adjacencyInsert: room in the body's list");
  const std::uint32_t u = adjKey(p, entry);
  std::uint32_t* at = last;
  while (at != first && adjKey(p, at[-1]) > u) {
    *at = at[-1];
    --at;
  }
  *at = entry;
  ++adjCount_[body];
}

void ContactStore::adjacencyErase(std::uint32_t body, std::uint32_t entry) {
  std::uint32_t* first = adjEntry_.data() + adjOffset_[body];
  std::uint32_t* last = first + adjCount_[body];
  std::uint32_t* at = std::find(first, last, entry);
  DEM_ASSERT(at != last, "adjacencyErase: the entry is in the body's list");
  std::copy(at + 1, last, at);
  --adjCount_[body];
}

void ContactStore::updateAdjacency(const Particles& p, std::size_t visited, bool byUser) {
  const std::size_t nParticles = p.size(), range = activeEnd();
  DEM_ASSERT(visited <= range, "updateAdjacency: the visited contacts are active");
  if (adjacencyValid_ && adjParticles_ == nParticles && adjRange_ == range && adjByUser_ == byUser &&
      inAdj_.size() >= range) {
    // the contacts that joined or left [0, visited) since the last call (few, as the loop's choice
    // changes): those before `visited` not listed, and those from there on listed
    std::vector<std::uint32_t>& joined = adjJoined_;
    std::vector<std::uint32_t>& left = adjLeft_;
    joined.clear();
    left.clear();
    const std::uint8_t* flag = inAdj_.data();
    const auto collect = [&](std::size_t from, std::size_t to, int value, std::vector<std::uint32_t>& out) {
      for (const std::uint8_t* q = flag + from; q < flag + to && out.size() <= visited / 8 + 64;) {
        q = static_cast<const std::uint8_t*>(std::memchr(q, value, static_cast<std::size_t>(flag + to - q)));
        if (!q) break;
        out.push_back(static_cast<std::uint32_t>(q - flag));
        ++q;
      }
    };
    collect(0, visited, 0, joined);
    collect(visited, range, 1, left);
    if (joined.size() + left.size() <= visited / 8 + 64) {
      for (const std::uint32_t k : left) {
        adjacencyErase(id1_[k], k << 1);
        adjacencyErase(id2_[k], (k << 1) | 1u);
        inAdj_[k] = 0;
      }
      for (const std::uint32_t k : joined) {
        adjacencyInsert(p, id1_[k], k << 1);
        adjacencyInsert(p, id2_[k], (k << 1) | 1u);
        inAdj_[k] = 1;
      }
      assertAdjacency(p);
      return;
    }
  }
  // Rebuilt: each body's room for its active contacts, its visited ones in front
  adjByUser_ = byUser;
  adjOffset_.assign(nParticles + 1, 0);
  adjCount_.assign(nParticles, 0);
  for (std::size_t k = 0; k < range; ++k) {
    DEM_ASSERT(id1_[k] < nParticles && id2_[k] < nParticles, "updateAdjacency: contact ids in range of the particles");
    ++adjOffset_[id1_[k] + 1];
    ++adjOffset_[id2_[k] + 1];
  }
  for (std::size_t i = 0; i < nParticles; ++i) adjOffset_[i + 1] += adjOffset_[i];
  adjEntry_.resize(2 * range);
  inAdj_.assign(range, 0);  // (only active contacts are listed)
  for (std::size_t k = 0; k < range; ++k) {
    const auto idx = static_cast<std::uint32_t>(k);
    inAdj_[k] = static_cast<std::uint8_t>(k < visited);
    if (k >= visited) continue;
    adjEntry_[adjOffset_[id1_[k]] + adjCount_[id1_[k]]++] = idx << 1;
    adjEntry_[adjOffset_[id2_[k]] + adjCount_[id2_[k]]++] = (idx << 1) | 1u;
  }
  // each list in the order of the partners' user ids (no two contacts join the same bodies); by
  // index, as filled
  const auto n = static_cast<std::ptrdiff_t>(nParticles);
  const bool parallel = byUser && nParticles > kParallelThreshold;
#pragma omp parallel for schedule(static) if (parallel)
  for (std::ptrdiff_t i = 0; i < n; ++i) {
    if (!byUser) continue;
    std::uint32_t* first = adjEntry_.data() + adjOffset_[static_cast<std::size_t>(i)];
    std::uint32_t* last = first + adjCount_[static_cast<std::size_t>(i)];
    std::sort(first, last, [&](std::uint32_t x, std::uint32_t y) { return partnerUser(p, x) < partnerUser(p, y); });
  }
  adjacencyValid_ = true;
  adjParticles_ = nParticles;
  adjRange_ = range;
  assertAdjacency(p);
}

void ContactStore::assertAdjacency(const Particles& p) const {
  if constexpr (kAssertions) {
    for (std::size_t k = 0; k < size_; ++k)
      DEM_ASSERT(!listed(k) || k < adjRange_, "adjacency: only active contacts are listed");
    std::size_t entries = 0;
    for (std::size_t i = 0; i < adjParticles_; ++i) {
      entries += adjCount_[i];
      DEM_ASSERT(adjOffset_[i] + adjCount_[i] <= adjOffset_[i + 1], "adjacency: each list within its room");
      for (std::uint32_t e = adjOffset_[i]; e < adjOffset_[i] + adjCount_[i]; ++e) {
        const std::uint32_t k = adjEntry_[e] >> 1;
        DEM_ASSERT(k < size_ && listed(k) && ((adjEntry_[e] & 1u) ? id2_[k] : id1_[k]) == i,
                   "adjacency: each entry names a listed contact of its own body");
        DEM_ASSERT(e == adjOffset_[i] || adjKey(p, adjEntry_[e - 1]) < adjKey(p, adjEntry_[e]),
                   "adjacency: each list in the order of the partners' user ids (or of the indices)");
      }
    }
    std::size_t flagged = 0;
    for (std::size_t k = 0; k < size_; ++k) flagged += listed(k);
    DEM_ASSERT(entries == 2 * flagged, "adjacency: two entries for each listed contact");
  } else {
    static_cast<void>(p);
  }
}

void ContactStore::assertInvariants(const Particles& p) const {
  if constexpr (kAssertions) {
    const std::size_t n = p.size();
    for (std::size_t k = 0; k < size_; ++k) {
      const std::uint32_t a = id1_[k], b = id2_[k];
      DEM_ASSERT(a < n && b < n, "contact ids in range of the particles");
      DEM_ASSERT(static_cast<int>(type_[k]) <= static_cast<int>(ContactType::SphereFacet), "contact type known");
      if (type_[k] == ContactType::SphereSphere)
        DEM_ASSERT(p.userBefore(a, b) && !p.isBoundary(a) && !p.isBoundary(b),
                   "sphere-sphere contact: id1 before id2 in user ids, neither a boundary");
      else if (type_[k] == ContactType::SphereWall)
        DEM_ASSERT(!p.isBoundary(a) && p.isWall(b), "sphere-wall contact: id1 a sphere, id2 a wall");
      else DEM_ASSERT(!p.isBoundary(a) && p.isFacet(b), "sphere-facet contact: id1 a sphere, id2 a facet");
      DEM_ASSERT(index_.find(pairKey(a, b), keyAt()) == static_cast<std::int64_t>(k),
                 "the pair map finds each contact at its index");
    }
    DEM_ASSERT(realEnd() <= activeEnd() && activeEnd() <= size_, "marks: realEnd <= activeEnd <= size");
    DEM_ASSERT(id1_.size() == size_ && id2_.size() == size_ && type_.size() == size_ && real_.size() == size_ &&
                   (cellCode_.empty() || cellCode_.size() == size_),
               "every per-contact array holds size() entries");
    DEM_ASSERT(runGap_.size() <= size_ && inAdj_.size() <= size_,
               "the gaps at the run and the adjacency's flags for some of the contacts");
    DEM_ASSERT(data_.size() == width() * capacity_ && capacity_ >= limit_ && capacity_ % kColumnPad == 0,
               "columns padded");
    DEM_ASSERT(limit_ <= size_, "the lean tier holds the contacts from columnEnd()");
    for (std::size_t k = 0; k < limit_; ++k)
      DEM_ASSERT(!real_[k] || data_[offset(col::param, k)] != kUnmixed, "a real contact holds its law parameters");
    for (std::size_t k = limit_; k < std::min(capacity_, padded(limit_) + kColumnPad); ++k)
      for (std::size_t c = 0; c < col::count; ++c)
        DEM_ASSERT(!hasColumn(c) || data_[offset(c, k)] == kDefault.v[c],
                   "the column entries from columnEnd() on hold a default Contact (the batches' idle lanes)");
    for (std::size_t k = limit_; k < size_; ++k) DEM_ASSERT(!real_[k], "a lean contact is not real");
    if (adjacencyValid_) assertAdjacency(p);
  } else {
    static_cast<void>(p);
  }
}

bool ContactStore::gatherReal(bool tidy) {
  if (!realChanged_) return false;
  realChanged_ = false;
  const std::size_t active = activeEnd();
  const bool named = gathered_ && realEnd_ <= active;
  const std::size_t real =
      named ? gatherNamed(active) : partitionBy(0, active, [&](std::size_t k) { return real_[k] != 0; });
  changed_.clear();
  gathered_ = true;
  realEnd_ = real;
  materialize(real);  // (the real contacts have their columns already, unless set through realData())
  if (!moved_) {
    if (!named) descentsKnown_ = false;  // (realEnd_ may have moved)
    return false;
  }
  sortIfDisordered(real, named && descentsKnown_, tidy ? kSortDisorder : kSortDisorderAnyStep);
  return true;
}

// partitionBy(0, activeEnd, real) on a gathered store from the named changes: partitionBy swaps the
// i-th contact that is not real from the front with the i-th real one from the back, for as many
// as there are contacts that are not real before the new end R1 of the real ones. Before the
// changes [0, R0) were all real and [R0, activeEnd) not, so the contacts out of place are: the
// named ones that separated (before R0) or formed (from R0), and the contacts between R0 and R1
// that did not change. The disorder count follows each swap.
std::size_t ContactStore::gatherNamed(std::size_t active) {
  const std::size_t r0 = realEnd_;
  std::sort(changed_.begin(), changed_.end());
  changed_.erase(std::unique(changed_.begin(), changed_.end()), changed_.end());
  nowApart_.clear();
  nowReal_.clear();
  for (const std::uint32_t k : changed_) {
    if (k < r0 && !real_[k]) nowApart_.push_back(k);
    else if (k >= r0 && k < active && real_[k]) nowReal_.push_back(k);
  }
  const std::size_t r1 = r0 - nowApart_.size() + nowReal_.size();
  // front_: the contacts before r1 that are not real, ascending; back_: the real ones from r1 on,
  // descending
  front_.clear();
  back_.clear();
  if (r1 <= r0) {
    for (const std::uint32_t k : nowApart_)
      if (k < r1) front_.push_back(k);
    for (auto it = nowReal_.rbegin(); it != nowReal_.rend(); ++it) back_.push_back(*it);
    auto apart = nowApart_.rbegin();  // the real ones in [r1, r0): those that did not separate
    for (std::size_t k = r0; k-- > r1;) {
      while (apart != nowApart_.rend() && *apart > k) ++apart;
      if (apart != nowApart_.rend() && *apart == k) continue;
      back_.push_back(static_cast<std::uint32_t>(k));
    }
  } else {
    front_ = nowApart_;
    auto formed = nowReal_.begin();  // the ones in [r0, r1) that are not real: those that did not form
    for (std::size_t k = r0; k < r1; ++k) {
      while (formed != nowReal_.end() && *formed < k) ++formed;
      if (formed != nowReal_.end() && *formed == k) continue;
      front_.push_back(static_cast<std::uint32_t>(k));
    }
    for (auto it = nowReal_.rbegin(); it != nowReal_.rend() && *it >= r1; ++it) back_.push_back(*it);
  }
  DEM_ASSERT(front_.size() == back_.size(), "gatherNamed: as many contacts out of place on either side");
  if (descentsKnown_) {
    // the range of the count: [1, r0) -> [1, r1)
    for (std::size_t k = std::max<std::size_t>(1, r0); k < r1; ++k) descents_ += descent(k);
    for (std::size_t k = std::max<std::size_t>(1, r1); k < r0; ++k) descents_ -= descent(k);
  }
  const auto local = [&](std::size_t x) {  // the count's terms that involve position x (x < r1)
    std::size_t d = 0;
    if (x >= 1) d += descent(x);
    if (x + 1 < r1) d += descent(x + 1);
    return d;
  };
  for (std::size_t i = 0; i < front_.size(); ++i) {
    const std::size_t x = front_[i], y = back_[i];
    if (descentsKnown_) descents_ -= local(x);
    swapPlaced(x, y);
    if (descentsKnown_) descents_ += local(x);
  }
  moved_ = !front_.empty();
  return r1;
}

void ContactStore::sortIfDisordered(std::size_t real, bool known, std::size_t disorder) {
  if (!known) descents_ = countDescents(0, real);
  if (disorder * descents_ > real) {
    sortByBodies(0, real);
    descents_ = 0;
  }
  descentsKnown_ = true;
}

// The order of [begin, end) by pairs, in linear time on a list that is nearly sorted (the real
// contacts between two sorts: a sorted list into which gatherReal's swaps put a few contacts from
// elsewhere): the longest run of contacts whose pairs increase stays in its order (patience
// sorting: most contacts extend the run at once, the others a binary search), the others are
// sorted and merged into it. order[m] is the contact that goes to begin + m; kept[m - begin] tells
// whether contact m is of that run.
ContactStore::SortPlan ContactStore::orderByBodies(std::size_t begin, std::size_t end) const {
  const std::size_t n = end - begin;
  constexpr std::uint32_t none = std::numeric_limits<std::uint32_t>::max();
  std::vector<std::uint32_t> tails;      // tails[j]: the last of the best increasing run of length j + 1
  std::vector<std::uint32_t> before(n);  // the contact before m in the run that ends at m
  const auto keyOf = [&](std::uint32_t m) { return key(begin + m); };
  for (std::uint32_t m = 0; m < n; ++m) {
    const std::uint64_t k = keyOf(m);
    if (tails.empty() || keyOf(tails.back()) < k) {
      before[m] = tails.empty() ? none : tails.back();
      tails.push_back(m);
      continue;
    }
    const auto at =
        std::lower_bound(tails.begin(), tails.end(), k, [&](std::uint32_t t, std::uint64_t x) { return keyOf(t) < x; });
    before[m] = at == tails.begin() ? none : *(at - 1);
    *at = m;
  }
  SortPlan plan;
  plan.kept.assign(n, 0);
  for (std::uint32_t m = tails.empty() ? none : tails.back(); m != none; m = before[m]) plan.kept[m] = 1;
  std::vector<std::uint32_t> others;
  for (std::uint32_t m = 0; m < n; ++m)
    if (!plan.kept[m]) others.push_back(m);
  std::sort(others.begin(), others.end(), [&](std::uint32_t a, std::uint32_t b) { return keyOf(a) < keyOf(b); });
  // (pairs are unique: no ties)
  plan.order.resize(n);
  std::size_t o = 0;
  std::uint32_t m = 0;
  for (std::size_t q = 0; q < n; ++q) {
    while (m < n && !plan.kept[m]) ++m;
    if (o < others.size() && (m == n || keyOf(others[o]) < keyOf(m))) {
      plan.order[q] = static_cast<std::uint32_t>(begin) + others[o++];
    } else {
      plan.order[q] = static_cast<std::uint32_t>(begin) + m++;
    }
  }
  return plan;
}

// In place: the contacts [begin, end) in the order orderByBodies gives; only the stretch [lo, hi)
// that changes is touched (the pair map following). A list
// that is nearly sorted (at most 1/16 of the stretch out of the run) is rewritten in one pass in
// increasing place: each place first keeps its contact's columns in a ring (the run's contacts
// move at most as far back as there are others, and find theirs there), then takes its new
// contact's (from the ring, from a place not yet overwritten, or from a copy of the others made
// before the pass), so the columns are read and written in the tiles' order; besides the store, 13
// bytes per contact of the stretch and the columns of at most 1/8 of it. Any other list is put in
// order by swaps around the permutation's cycles (no copy of a column: 5 bytes per contact).
void ContactStore::sortByBodies(std::size_t begin, std::size_t end) {
  DEM_ASSERT(end <= limit_, "sortByBodies: contacts with columns");
  const SortPlan plan = orderByBodies(begin, end);
  std::size_t lo = begin, hi = end;
  while (lo < hi && plan.order[lo - begin] == lo) ++lo;
  while (hi > lo && plan.order[hi - 1 - begin] == hi - 1) --hi;
  if (lo == hi) return;
  adjacencyValid_ = false;
  const std::uint32_t* from = plan.order.data() + (lo - begin);  // from[m - lo]: the contact that goes to m
  const std::size_t n = hi - lo;
  const auto kept = [&](std::size_t k) { return plan.kept[k - begin] != 0; };
  // The pair map's entries of the contacts that move: renamed in one scan of the table, or, where
  // the stretch is short against the table (a pour's first contacts), found one by one (a probe
  // costs about as much as twenty entries of the scan) while their ids are in place and set after.
  std::vector<std::uint32_t> slots;
  if (20 * n < index_.slots()) {
    slots.resize(n);
    for (std::size_t m = 0; m < n; ++m)
      if (from[m] != lo + m) slots[m] = static_cast<std::uint32_t>(index_.slot(key(from[m]), keyAt()));
  } else {
    std::vector<std::uint32_t> to(n + 1);  // to[k - lo]: where contact k goes (and one more: PairIndex::rename)
    for (std::size_t m = 0; m < n; ++m) to[from[m] - lo] = static_cast<std::uint32_t>(lo + m);
    index_.rename(lo, hi, to.data());
  }
  const auto setSlots = [&] {
    for (std::size_t m = 0; m < slots.size(); ++m)
      if (from[m] != lo + m) index_.setSlot(slots[m], static_cast<std::uint32_t>(lo + m));
  };
  std::size_t others = 0;
  for (std::size_t k = lo; k < hi; ++k) others += !kept(k);
  if (16 * others > n) {
    // A cycle m -> from[m] -> ...: swapping place j with the place of its contact now, from[j], puts
    // that contact at j and the cycle's first contact at from[j], until the cycle closes.
    std::vector<bool> placed(n, false);
    for (std::size_t m = 0; m < n; ++m) {
      if (placed[m]) continue;
      for (std::size_t j = m;;) {
        placed[j] = true;
        const std::size_t source = from[j] - lo;
        if (source == m) break;
        swap(lo + j, lo + source);
        j = source;
      }
    }
    setSlots();
    return;
  }
  // a[m] := a[from[m]] for m < size (runGap_ and inAdj_ may end before hi: a contact beyond holds
  // `beyond` there, as swap() reads it)
  const auto permute = [&](auto& a, std::size_t size, auto beyond) {
    const std::size_t stop = std::min(size, hi);
    if (stop <= lo) return;
    const std::vector<std::remove_reference_t<decltype(a[0])>> copy(a.begin() + lo, a.begin() + stop);
    for (std::size_t m = lo; m < stop; ++m) a[m] = from[m - lo] < stop ? copy[from[m - lo] - lo] : beyond;
  };
  permute(id1_, size_, 0u);
  permute(id2_, size_, 0u);
  permute(type_, size_, ContactType::SphereSphere);
  permute(real_, size_, std::uint8_t{0});
  if (!cellCode_.empty()) permute(cellCode_, size_, std::uint8_t{0});
  permute(runGap_, runGap_.size(), kUnknownGap);
  permute(inAdj_, inAdj_.size(), std::uint8_t{0});

  // the columns: place p of contact k at data_[tile(k) + p kColumnPad + k % kColumnPad]
  const std::size_t w = width();
  double* const d = data_.data();
  const auto at = [&](std::size_t k) { return d + tile(k) + k % kColumnPad; };
  const auto save = [&](std::size_t k, double* into) {
    const double* c = at(k);
    for (std::size_t p = 0; p < w; ++p) into[p] = c[p * kColumnPad];
  };
  const auto load = [&](const double* source, std::size_t k) {
    double* c = at(k);
    for (std::size_t p = 0; p < w; ++p) c[p * kColumnPad] = source[p];
  };
  std::size_t back = 0;                   // the farthest a contact of the run moves back
  std::vector<double> aside(others * w);  // the others' columns, in their new order
  double* next = aside.data();
  for (std::size_t m = 0; m < n; ++m) {
    if (kept(from[m])) {
      if (lo + m > from[m]) back = std::max(back, lo + m - from[m]);
    } else {
      save(from[m], next);
      next += w;
    }
  }
  const std::size_t ring = back + 1;
  std::vector<double> held(ring * w);  // held[(k % ring) w ...]: contact k's columns before its place was overwritten
  const double* other = aside.data();
  for (std::size_t m = lo; m < hi; ++m) {
    const std::size_t k = from[m - lo];
    save(m, held.data() + (m % ring) * w);
    if (!kept(k)) {
      load(other, m);
      other += w;
    } else if (k < m) {
      load(held.data() + (k % ring) * w, m);
    } else if (k > m) {  // (k's place is overwritten later: read in place)
      const double* source = at(k);
      double* into = at(m);
      for (std::size_t p = 0; p < w; ++p) into[p * kColumnPad] = source[p * kColumnPad];
    }
  }
  setSlots();
}

void ContactStore::renumberBodies(const std::vector<std::uint32_t>& newSlot) {
  for (std::size_t k = 0; k < size_; ++k) {
    id1_[k] = newSlot[id1_[k]];
    id2_[k] = newSlot[id2_[k]];
  }
  index_ = PairIndex();  // (the old table freed before the new one is built: one at a time)
  index_.reserve(size_, keyAt());
  for (std::size_t k = 0; k < size_; ++k) index_.insert(key(k), static_cast<std::uint32_t>(k), keyAt());
  adjacencyValid_ = false;
  gathered_ = descentsKnown_ = false;
  changed_.clear();
  sortByBodies(0, realEnd());
}

}  // namespace dem
