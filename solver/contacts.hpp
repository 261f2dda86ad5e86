#pragma once
// Contact storage: the potential contacts as columns (a structure of arrays), a pair -> index map
// for the collider, and a per-particle adjacency (CSR) so that each particle gathers its contacts'
// forces in a fixed order (same bits for any thread count).
//
// The store holds *potential* contacts (pairs whose enlarged bounding boxes overlap, from the
// collider); `real` marks those whose bodies overlap now. A potential contact that is not real has
// no force and no history. One contact is read and written as a `Contact` value (get, set, add;
// records() iterates over them); the contact loop reads and writes the columns of kLanes consecutive
// contacts with one vector load or store each (ContactStore::batch). The columns of doubles lie in
// one 64-byte aligned buffer in tiles of kColumnPad contacts (an array of structures of arrays): a
// tile holds column c of its contacts at c * kColumnPad, so a batch reads one contiguous stretch
// of memory; entries past size() hold a default Contact.
//
// Two tiers. Only the contacts before columnEnd() (at least every contact the contact loop visits
// at this step: the real ones and those whose bodies may touch now) have their doubles in the
// columns; a contact from there on (a dormant one, one apart, or one the collider has just added)
// holds the defaults of a Contact and nothing else: its law parameters are not stored (kUnmixed)
// but mixed from its bodies (the mixing rule, laws.hpp) when the contact loop first visits it
// (gatherVisited). Most of a settled packing's potential contacts are not real: the columns are most
// of a scene's memory. partition() fits the columns to the real contacts; the contact loop
// (gatherVisited) gathers the contacts it visits behind them and gives them their columns.

#include "assert.hpp"
#include "cell_offsets.hpp"
#include "column_buffer.hpp"
#include "contact_law.hpp"
#include "math.hpp"
#include "particles.hpp"

#include <algorithm>
#include <array>
#include <bit>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <new>
#include <vector>

namespace dem {

enum class ContactType : std::uint8_t { SphereSphere = 0, SphereWall = 1, SphereFacet = 2 };

// One contact, as a value (the store keeps its fields in columns).
// Which bodies a contact joins (the fields of Contact a dormancy test reads; ContactStore::pair).
struct ContactPair {
  std::uint32_t id1 = 0, id2 = 0;
  ContactType type = ContactType::SphereSphere;
  Eigen::Vector3i cellDist = Eigen::Vector3i::Zero();
};

struct Contact {
  std::uint32_t id1 = 0, id2 = 0;  // sphere-sphere: id1 < id2; sphere-wall, sphere-facet: id1 = the sphere
  ContactType type = ContactType::SphereSphere;
  std::uint8_t real = 0;  // 1 while the bodies overlap (u_N < 0)
  // Periodic cell (solver/periodic_collider.hpp): particle 2 takes part through its image shifted by
  // H cellDist (Yade's Interaction.cellDist); zero in aperiodic scenes.
  Eigen::Vector3i cellDist = Eigen::Vector3i::Zero();
  double elastic = 0.0;     // energy stored in the springs at t_n
  double dissipated = 0.0;  // work dissipated by Coulomb sliding during this step
  // The law's parameters (contact_law.hpp), from the mixing rule for its bodies (laws.hpp) when the
  // contact loop first visits it; kUnmixed in a contact read from the store's lean tier (not stored).
  LawValues params{};

  // History in local contact coordinates (seed "Local contact coordinates"); valid while real.
  Quat frame = Quat::Identity();  // local -> global rotation; its local x axis is the normal
  Vec3 normal = Vec3::Zero();     // n (global), from particle 1 towards particle 2: the frame's x axis
                                  // while real (frameNormal; not stored: the store gives it and
                                  // ignores what set() is given), zero otherwise
  Vec3 point = Vec3::Zero();      // contact point c (middle of the overlap zone)
  Vec3 u = Vec3::Zero();          // (u_N, shear state y, z), local: the law's shear state is u_T
                                  // (Cundall) or the tangential spring force (Hertz-Mindlin)
  Vec3 phi = Vec3::Zero();        // relative rotation (twist, bending y, bending z), local; zero
                                  // unless the law reads it (Law::kRelativeRotation)
  Vec3 damp = Vec3::Zero();       // the dashpots' force at t_n (local), for the viscous work booking

  // Results of the current step (zero when not real).
  Vec3 force = Vec3::Zero();    // force on particle 1 (global); particle 2 receives -force
  Vec3 torque1 = Vec3::Zero();  // torque on particle 1, arm c - x1
  Vec3 torque2 = Vec3::Zero();  // torque on particle 2, arm c - x2
};

// One layout for any compile flags (math.hpp): no member is over-aligned.
static_assert(alignof(Contact) == alignof(double));

// Whether c holds the defaults of a Contact in every field but its pair and law parameters (bit
// for bit; `dissipated` +0.0): a contact the store may keep without columns.
bool holdsDefaults(const Contact& c);

// The law parameters of a contact that holds none (the lean tier: ContactStore): zero, a default
// Contact's, so that a lean contact reads back as a default Contact. A law's first parameter is a
// stiffness, positive for any material with young > 0.
inline constexpr double kUnmixed = 0.0;
inline bool unmixed(const LawValues& v) { return v[0] == kUnmixed; }

// A contact's cellDist is within +-kMaxCellOffset whole cells along each axis (a sheared cell that
// does not flip reaches that only after 32767 strains); stored as a code (cell_offsets.hpp).
inline constexpr int kMaxCellOffset = std::numeric_limits<std::int16_t>::max();

// The largest float not above x and the smallest not below it (NaN: NaN): the gaps at the
// collider's run are kept as floats below them (a contact is never skipped on a rounded-up gap), and
// the contact loop compares them with a float above twice the farthest move.
inline float floatBelow(double x) {
  const auto f = static_cast<float>(x);
  return static_cast<double>(f) > x ? std::nextafter(f, -std::numeric_limits<float>::infinity()) : f;
}
inline float floatAbove(double x) {
  const auto f = static_cast<float>(x);
  return static_cast<double>(f) < x ? std::nextafter(f, std::numeric_limits<float>::infinity()) : f;
}
// A squared distance as a float not below it (+inf beyond the floats' range, or NaN): the double
// raised by far more than the conversion's rounding (a relative 1e-6, and 1e-30 for the floats
// below the normal range), with no branch and no call (a loop over every body at every step).
inline float move2Above(double d2) {
  return d2 < 3.0e38 ? static_cast<float>(d2 * (1.0 + 1e-6) + 1e-30) : std::numeric_limits<float>::infinity();
}

// move2Above rounded up to a power of two: the bound of a body's squared move that the collider's
// check keeps (ContactStore::bodyMove2). It changes only where the move crosses a power of two, so
// that the array is written at few places per step and its lines stay in both cores' caches (each
// line the other core wrote costs the reader a transfer: two threads spent a third of chooseVisited
// on them). A NaN or inf gives inf.
inline float move2Rung(double d2) {
  constexpr std::uint32_t mantissa = (1u << 23) - 1u;
  return std::bit_cast<float>((std::bit_cast<std::uint32_t>(move2Above(d2)) + mantissa) & ~mantissa);
}
// Stores the m rungs (move2Rung) of consecutive bodies into `kept` where any of them differs: one
// comparison for the group, no store where none changed (a store of the same value still takes the
// line), and no branch per body.
inline void keepMoves2(float* kept, const float* rungs, std::size_t m) {
  if (std::memcmp(kept, rungs, m * sizeof(float)) != 0) std::memcpy(kept, rungs, m * sizeof(float));
}

inline std::uint64_t pairKey(std::uint32_t a, std::uint32_t b) {
  const std::uint64_t lo = a < b ? a : b, hi = a < b ? b : a;
  return (lo << 32) | hi;
}

// The columns of doubles, one per scalar field of Contact (the frame as w, x, y, z), in three
// groups: the history every law reads, [0, dashpotsBegin); the dashpots' coefficients and forces,
// [dashpotsBegin, resultsBegin), which a store keeps only while some contact may have dashpots
// (ContactStore::useDashpotColumns); the results of the step (contact point, force, torques,
// energies), [resultsBegin, count), which a store keeps only for the steps whose readers ask for
// them (ContactStore::useResultColumns). No law reads the point (the kernel computes it from the
// places at each step): at 10^5 spheres it held 4.9 MB of every step's memory as history.
namespace col {
enum : std::size_t {
  qw,
  qx,
  qy,
  qz,  // frame (its x axis is the normal: not kept)
  ux,
  uy,
  uz,  // u
  phix,
  phiy,
  phiz,   // phi
  param,  // params: kMaxLawParams columns from here (the dashpots' kDashpotParams last)
  dampN = param + kMaxLawParams,
  dampY,
  dampZ,  // damp
  px,
  py,
  pz,  // point (written where the bodies touch)
  fx,
  fy,
  fz,  // force
  t1x,
  t1y,
  t1z,  // torque1
  t2x,
  t2y,
  t2z,  // torque2
  elastic,
  dissipated,
  count,
  dashpotsBegin = param + kMaxLawParams - kDashpotParams,
  resultsBegin = px
};
}  // namespace col
// The columns of the dashpots' group, and of the results' group.
inline constexpr std::size_t kDashpotColumns = col::resultsBegin - col::dashpotsBegin;
inline constexpr std::size_t kResultColumns = col::count - col::resultsBegin;

// The real contacts are sorted by (id1, id2) again when more than 1/kSortDisorder of them follow
// one with a larger pair (ContactStore::partition, gatherReal). Between collider runs contacts that
// form or separate swap places and slowly disorder the list; a contact out of place reads bodies
// far from its neighbours', on two threads mostly bodies the other core integrated. A sort of a
// nearly sorted list is linear (sortByBodies: the pass in the tiles' order, the pair map renamed in
// one scan; 0.5-1 ms for the 2 x 10^4 real contacts of the 10^4 bed, 11-18 ms at 10^5). 1/32
// (docs/performance.md, "The real contacts kept sorted"): at 1/8 two threads ran the contact stage
// of the 10^4 cell bed in 605 us per step against 504-520 at 1/32-1/64. Between runs, at 1/32 only
// at the steps that are multiples of kSortPeriod (gatherReal's `tidy`; a step number, so that a
// resumed run sorts at the same steps), at any step from 1/kSortDisorderAnyStep: where contacts
// form and separate at every step (the edges of the 10^4 box bed: 97 sorts in 2000 steps, a
// tenth of the step) the sorts come at most every kSortPeriod steps (the box bed's step 812 -> 792
// us, one thread, 6 runs each).
inline constexpr std::size_t kSortDisorder = 32, kSortDisorderAnyStep = 8, kSortPeriod = 64;

// Columns are padded to a multiple of this many entries (the widest batch: 8 lanes of AVX-512).
inline constexpr std::size_t kColumnPad = 8;

// The pair -> contact index map: open addressing with linear probing (at most 4/5 full), 5 bytes
// a slot: the contact's index and 8 bits of its key's hash. The keys are not stored: a slot's key
// is keyOf(index) (the store's ids at that index: pairKey(id1, id2)), read only where the 8 bits
// match. Deletion shifts the following entries back (no tombstones). Every call that probes takes
// the keyOf of the entries as they are stored now; where contacts move, the store finds their slots
// before it moves them (slot, then setSlot after).
// The table has any number of slots, not a power of two: room for n keys is about 5 n / 4 slots
// (a power of two had been up to twice that: 168 MB for the 1.4 x 10^7 potential contacts of
// 10^6 spheres, against 88 MB), and it grows by a quarter (the key's home slot: the high bits
// of its hash times the table's size; the 8 bits are its low ones). 4/5 full rather than 7/10:
// 0.9 bytes less per potential contact (1.25 MB at 10^5 spheres), for about 13 probes instead of
// 6 to find that a key is absent (1/2 (1 + 1/(1 - a)^2) at fill a), 3 instead of 2.2 to find one
// present (1/2 (1 + 1/(1 - a))), all within one or two cache lines of the tags and values; the
// map is probed only where the collider adds or removes a pair.
class PairIndex {
 public:
  static constexpr std::int64_t kAbsent = -1;
  // The slot holding key, or kAbsent.
  template <class KeyOf>
  std::int64_t slot(std::uint64_t key, KeyOf&& keyOf) const {
    if (vals_.empty()) return kAbsent;
    const std::uint64_t h = hash(key);
    const auto t = tag(h);
    for (std::size_t i = home(h);; i = next(i)) {
      if (vals_[i] == kEmpty) return kAbsent;
      if (tags_[i] == t && keyOf(vals_[i]) == key) return static_cast<std::int64_t>(i);
    }
  }
  // The index stored for key, or -1.
  template <class KeyOf>
  std::int64_t find(std::uint64_t key, KeyOf&& keyOf) const {
    const std::int64_t i = slot(key, keyOf);
    return i == kAbsent ? std::int64_t{-1} : std::int64_t{vals_[static_cast<std::size_t>(i)]};
  }
  // Inserts key -> v (keyOf(v) == key) unless the key is present (then nothing changes).
  template <class KeyOf>
  void insert(std::uint64_t key, std::uint32_t v, KeyOf&& keyOf) {
    reserve(count_ + 1, keyOf);
    const std::uint64_t h = hash(key);
    std::size_t i = home(h);
    for (; vals_[i] != kEmpty; i = next(i))
      if (tags_[i] == tag(h) && keyOf(vals_[i]) == key) return;
    vals_[i] = v;
    tags_[i] = tag(h);
    ++count_;
  }
  // The slot's entry now names index v (whose key is the slot's key).
  void setSlot(std::int64_t i, std::uint32_t v) { vals_[static_cast<std::size_t>(i)] = v; }
  // Every entry that names an index k in [lo, hi) names to[k - lo] instead (one scan of the table,
  // without branches: to[hi - lo] is read for the others, and ignored).
  void rename(std::size_t lo, std::size_t hi, const std::uint32_t* to) {
    const std::uint32_t n = static_cast<std::uint32_t>(hi - lo), first = static_cast<std::uint32_t>(lo);
    for (std::uint32_t& v : vals_) {
      const std::uint32_t i = v - first;  // (kEmpty, and every index outside [lo, hi), wraps to n or beyond)
      const std::uint32_t renamed = to[std::min(i, n)];
      v = i < n ? renamed : v;
    }
  }
  template <class KeyOf>
  void erase(std::uint64_t key, KeyOf&& keyOf) {
    std::int64_t found = slot(key, keyOf);
    if (found == kAbsent) return;
    auto i = static_cast<std::size_t>(found);
    // Backward shift: an entry after the hole moves into it unless the hole lies before its home slot.
    for (std::size_t j = next(i); vals_[j] != kEmpty; j = next(j)) {
      const std::size_t h = home(hash(keyOf(vals_[j])));
      if (ahead(h, j) >= ahead(i, j)) {
        vals_[i] = vals_[j];
        tags_[i] = tags_[j];
        i = j;
      }
    }
    vals_[i] = kEmpty;
    --count_;
  }
  void clear() {
    vals_.clear();
    tags_.clear();
    count_ = 0;
  }
  // Room for n keys without rehashing: a table that must grow takes room for a quarter more keys
  // (so that keys added a few at a time rehash O(log n) times).
  template <class KeyOf>
  void reserve(std::size_t n, KeyOf&& keyOf) {
    if (5 * n > 4 * vals_.size()) rehash(slotsFor(std::max(n, count_ + count_ / 4)), keyOf);
  }
  std::size_t slots() const { return vals_.size(); }

 private:
  static constexpr std::uint32_t kEmpty = ~std::uint32_t{0};  // (no contact has this index)
  std::vector<std::uint32_t> vals_;
  std::vector<std::uint8_t> tags_;
  std::size_t count_ = 0;

  static std::uint64_t hash(std::uint64_t key) {
    key ^= key >> 30;  // splitmix64's finaliser
    key *= 0xbf58476d1ce4e5b9ULL;
    key ^= key >> 27;
    key *= 0x94d049bb133111ebULL;
    key ^= key >> 31;
    return key;
  }
  static std::uint8_t tag(std::uint64_t h) { return static_cast<std::uint8_t>(h); }
  // h's home slot: floor(h s / 2^64) for s slots (uniform for a uniform h, no division)
  std::size_t home(std::uint64_t h) const {
    __extension__ typedef unsigned __int128 Wide;  // (GCC's and Clang's 128-bit product)
    return static_cast<std::size_t>((static_cast<Wide>(h) * vals_.size()) >> 64);
  }
  std::size_t next(std::size_t i) const { return i + 1 == vals_.size() ? 0 : i + 1; }
  // How many slots j lies after i, circularly.
  std::size_t ahead(std::size_t i, std::size_t j) const { return j >= i ? j - i : j + vals_.size() - i; }
  static std::size_t slotsFor(std::size_t n) { return std::max<std::size_t>(16, (5 * n + 3) / 4); }
  template <class KeyOf>
  void rehash(std::size_t slots, KeyOf&& keyOf) {
    std::vector<std::uint32_t> vals(slots, kEmpty);
    std::vector<std::uint8_t> tags(slots, 0);
    vals.swap(vals_);
    tags.swap(tags_);
    for (const std::uint32_t v : vals) {
      if (v == kEmpty) continue;
      const std::uint64_t h = hash(keyOf(v));
      std::size_t i = home(h);
      while (vals_[i] != kEmpty) i = next(i);
      vals_[i] = v;
      tags_[i] = tag(h);
    }
  }
};

class ContactStore {
 public:
  std::size_t size() const { return size_; }
  // The contacts before this index have their columns; those from here on hold the defaults and no
  // law parameters (the lean tier).
  std::size_t columnEnd() const { return limit_; }
  // Contact k as a value (a lean one's parameters kUnmixed), and its replacement (the pair must stay
  // the same: ids are not re-indexed). get throws std::logic_error while the store keeps no results
  // (useResultColumns); getWithoutResults gives a default Contact's results then (for readers of the
  // pair, the history and the parameters, at any step).
  Contact get(std::size_t k) const;
  Contact getWithoutResults(std::size_t k) const;
  void set(std::size_t k, const Contact& c);
  // Index of the contact between a and b (either order), or -1.
  std::int64_t find(std::uint32_t a, std::uint32_t b) const { return index_.find(pairKey(a, b), keyAt()); }
  // Appends c: in the lean tier when it holds defaults (holdsDefaults; its parameters are dropped:
  // the mixing rule's are taken when the contact loop visits it), else with its columns.
  void add(const Contact& c);
  // Room for n contacts (the columns grow by a sixty-fourth when they are full, as the active ones need).
  void reserve(std::size_t n);
  // Removes the contact at `index` (the last one takes its place).
  void remove(std::size_t index);
  void clear();

  // Single fields.
  std::uint32_t id1(std::size_t k) const { return id1_[k]; }
  std::uint32_t id2(std::size_t k) const { return id2_[k]; }
  ContactType type(std::size_t k) const { return type_[k]; }
  bool real(std::size_t k) const { return real_[k] != 0; }
  Eigen::Vector3i cellDist(std::size_t k) const {
    return cellCode_.empty() ? Eigen::Vector3i::Zero() : cellOffsets_.offset(cellCode_[k]);
  }
  ContactPair pair(std::size_t k) const { return {id1_[k], id2_[k], type_[k], cellDist(k)}; }
  // Throws std::range_error for an offset beyond kMaxCellOffset cells, or when more than
  // CellOffsetTable::kCodes - 27 offsets beyond one cell would be held at once.
  void setCellDist(std::size_t k, const Eigen::Vector3i& d);
  Vec3 vec(std::size_t c, std::size_t k) const { return {at(c, k), at(c + 1, k), at(c + 2, k)}; }
  // Contact k's frame (local -> global) as its four columns hold it.
  Quat frame(std::size_t k) const { return Quat(at(col::qw, k), at(col::qx, k), at(col::qy, k), at(col::qz, k)); }
  // Contact k's normal: its frame's x axis while real (frameNormal), else zero (Contact::normal).
  Vec3 normal(std::size_t k) const { return real_[k] ? frameNormal(frame(k)) : Vec3::Zero(); }

  // Contact k separated: its frame and point (left as they were at its last real step) back to a
  // default Contact's. They are not read again before it forms anew; reset, a contact that is
  // not real holds only defaults besides its pair, parameters and `dissipated` (compact in a
  // checkpoint). The one-contact path does the same (evaluateContact).
  void resetFrame(std::size_t k) {
    DEM_ASSERT(k < limit_, "resetFrame: a contact with columns");
    const Contact d;
    at(col::qw, k) = d.frame.w();
    at(col::qx, k) = d.frame.x();
    at(col::qy, k) = d.frame.y();
    at(col::qz, k) = d.frame.z();
    if (resultColumns_)
      for (std::size_t w = 0; w < 3; ++w) at(col::px + w, k) = d.point[static_cast<Eigen::Index>(w)];
  }
  // Column c (col::*) of contact k; written only where the contact has its columns (k < columnEnd()).
  // Writing a column of a group the store keeps none of (dashpots, results) adds the group.
  double& at(std::size_t c, std::size_t k) {
    DEM_ASSERT(k < limit_, "ContactStore::at: a contact with columns");
    if (!hasColumn(c)) {
      if (c < col::resultsBegin) useDashpotColumns(true);
      else useResultColumns(true);
    }
    return data_[offset(c, k)];
  }
  // (a column of the results' group while the store keeps none: std::logic_error, as get)
  double at(std::size_t c, std::size_t k) const {
    if (c >= col::resultsBegin && !resultColumns_) throwNoResults();
    if (k < limit_ && hasColumn(c)) return data_[offset(c, k)];
    return k >= limit_ && c >= col::param && c < col::param + kMaxLawParams ? kUnmixed : defaultColumn(c);
  }
  // Whether the tiles hold column c: all but the groups the store keeps none of (a contact holds
  // zeros in the dashpots' group then: its dashpots' coefficients and forces).
  bool hasColumn(std::size_t c) const {
    return c < col::dashpotsBegin || (c < col::resultsBegin ? dashpotColumns_ : resultColumns_);
  }
  // Keep the dashpots' group of columns, or not: without it each contact holds less than
  // three-quarters of the doubles (a scene whose materials all have restitution 1 has no dashpots).
  // Dropping it is refused (and false returned) unless every contact holds +0 there; adding it gives
  // every contact +0. The tiles are moved in place (no second copy of the columns).
  bool useDashpotColumns(bool keep);
  bool dashpotColumns() const { return dashpotColumns_; }
  // Where the results' group begins in a tile: col::resultsBegin less the dashpots' group when the
  // store keeps none (the contact loop's stores).
  std::size_t resultsShift() const { return dashpotColumns_ ? 0 : kDashpotColumns; }
  std::size_t width() const {
    return col::count - (dashpotColumns_ ? 0 : kDashpotColumns) - (resultColumns_ ? 0 : kResultColumns);
  }
  // Keep the results' group of columns (the step's force, torques and energies of each contact), or
  // not. The contact stage writes them for the readers after the step (outputs, checkpoints, wall
  // loads); no later step reads them, and without them each contact holds 11 doubles fewer (19 of
  // 30 without dashpots: the memory and the stores of the contact loop). Adding the group gives
  // every contact a default Contact's results, which is what the next contact stage leaves in those
  // it does not evaluate: after that stage every contact holds what it would have held with the
  // group kept throughout. Reading a result while the group is absent (get, records, at) throws
  // std::logic_error. The tiles are moved in place (no second copy of the columns).
  void useResultColumns(bool keep);
  bool resultColumns() const { return resultColumns_; }
  // The contacts the contact loop visits at this step, gathered in front: those before realEnd()
  // (the real ones) and, moved right behind them (partitionBy's swaps), those of [realEnd(),
  // activeEnd()) with visit[k - realEnd()] != 0 (the loop's choice: real, or bodies that may touch
  // now). Returns their end; each of them has its columns, and those without law parameters
  // (from the lean tier) get mix(pair(k)) (their bodies' mixing rule). The others there are not
  // visited at this step: they hold only defaults (a `dissipated` left from the step a contact
  // separated is zeroed, as a visit zeroes it), so that it makes no difference whether they keep
  // their columns or are lean. The moves depend only on the order and the flags (the same for any
  // thread count and after a restart). Call it after gatherReal (the named changes would not follow
  // the moves otherwise: the next gathering then scans).
  template <class Mix>
  std::size_t gatherVisited(const std::vector<std::uint8_t>& visit, Mix&& mix) {
    // (gathered: the contacts before realEnd() are real, and a real contact holds its parameters)
    const std::size_t from = gathered_ ? realEnd() : 0;
    const std::size_t m = gatherVisitedColumns(visit);
    for (std::size_t k = from; k < m; ++k)
      if (data_[offset(col::param, k)] == kUnmixed) {
        const LawValues v = mix(pair(k));
        for (std::size_t i = 0; i < kMaxLawParams; ++i) put(col::param + i, k, v[i]);
      }
    return m;
  }
  // A lower bound of each contact's gap at the collider's last run (float, rounded down), recorded
  // for the active contacts that are not real after a partition (-inf: unknown, for every other
  // contact, and for all after a restore), and the farthest any body has moved since
  // (Collider::moveSinceRun; +inf: unknown): while gap - 2 move > 0 the contact cannot touch, and
  // the contact loop need not read its bodies. Neither changes any result (the loop's own test
  // would reject the same contacts).
  // The gaps are held for the contacts before activeEnd() only (a dormant one's is unknown): a
  // contact that moves behind them loses its gap (unknown: tested), which changes no result.
  template <class RunGap>
  void recordRunGaps(RunGap&& runGap) {
    runGap_.assign(activeEnd(), kUnknownGap);
    for (std::size_t k = realEnd(); k < activeEnd(); ++k) runGap_[k] = floatBelow(runGap(pair(k)));
  }
  void setMoveSinceRun(double move) {
    moveSinceRun_ = move;
    if (!std::isfinite(move)) bodyMove2Valid_ = false;
  }
  // Each body's squared distance from its place at the collider's last run (a float rounded up to
  // a power of two, move2Rung; +inf: unknown), as the collider's check found it at this step (the
  // collider fills the buffer, then declares it valid; nullptr while it is not: after a run, a
  // restore, or while the bodies' moves are unknown). A sphere-sphere contact whose gap at the run
  // exceeds twice the larger move of its two bodies is apart (chooseVisited: the test of
  // moveSinceRun, body by body).
  float* bodyMove2Buffer(std::size_t n) {
    bodyMove2Valid_ = false;
    bodyMove2_.resize(n);
    return bodyMove2_.data();
  }
  void setBodyMove2Valid(bool valid) { bodyMove2Valid_ = valid && std::isfinite(moveSinceRun_); }
  const float* bodyMove2() const { return bodyMove2Valid_ ? bodyMove2_.data() : nullptr; }
  double moveSinceRun() const { return moveSinceRun_; }
  // Contact k's gap at the run as recorded (kUnknownGap where none is), and the gaps of the contacts
  // before activeEnd() in one array (coverRunGaps first: after contacts were added or removed since
  // the last partition, the active ones reach further).
  float recordedRunGap(std::size_t k) const { return k < runGap_.size() ? runGap_[k] : kUnknownGap; }
  void coverRunGaps() {
    if (runGap_.size() < activeEnd()) runGap_.resize(activeEnd(), kUnknownGap);
  }
  const float* runGapData() const {
    DEM_ASSERT(runGap_.size() >= activeEnd(), "runGapData: the active contacts' gaps (coverRunGaps)");
    return runGap_.data();
  }
  // The batch of contacts from k0 (a multiple of kLanes) for the contact loop: column c of contact
  // k0 + j at batch(k0) + c * stride() + j (j < kLanes); k0 < columnEnd().
  double* batch(std::size_t k0) { return data_.data() + offset(0, k0); }
  static constexpr std::size_t stride() { return kColumnPad; }
  // The ids, types and `real` flags.
  const std::uint32_t* id1Data() const { return id1_.data(); }
  const std::uint32_t* id2Data() const { return id2_.data(); }
  const ContactType* typeData() const { return type_.data(); }
  // Each contact's cellDist code (cell_offsets.hpp: 0 for no offset), or nullptr while every one is zero.
  const std::uint8_t* cellCodeData() const { return cellCode_.empty() ? nullptr : cellCode_.data(); }
  std::uint8_t* realData() { return real_.data(); }
  const std::uint8_t* realData() const { return real_.data(); }

  // Iteration over all contacts as values: for (const Contact& c : store.records()).
  class Records {
   public:
    struct Iterator {
      const ContactStore* s;
      std::size_t k;
      Contact operator*() const { return s->get(k); }
      Iterator& operator++() {
        ++k;
        return *this;
      }
      bool operator!=(const Iterator& o) const { return k != o.k; }
    };
    explicit Records(const ContactStore& s) : s_(&s) {}
    Iterator begin() const { return {s_, 0}; }
    Iterator end() const { return {s_, s_->size()}; }

   private:
    const ContactStore* s_;
  };
  Records records() const { return Records(*this); }
  // All contacts as values, in order.
  std::vector<Contact> values() const {
    std::vector<Contact> v;
    v.reserve(size_);
    for (std::size_t k = 0; k < size_; ++k) v.push_back(get(k));
    return v;
  }

  // Moves the contacts that are real in front of those that are not (swapping pairs that are out of
  // place; the pair map follows), sorts the real ones by (id1, id2) when more than 1/kSortDisorder of them are
  // out of order, and remembers where they end. The contact loop runs its batches on the real
  // contacts, kLanes consecutive ones at a time: kept together, few lanes idle; sorted, consecutive
  // contacts read nearby bodies (particle 1 in increasing order). Called after each collider run;
  // the order depends only on the previous order and the pairs (so a resumed run sorts when the
  // straight one does).
  void partitionReal() {
    partition([](const ContactPair&) { return false; });
  }
  // The same, and then the contacts that are not real are split in two: first those that may touch
  // before the collider's next run, then the dormant ones (dormant(c) true; only contacts that are
  // not real are asked), which cannot: the contact loop skips them until the next partition. A
  // dormant contact holds no force and no history; its `dissipated` is zeroed here (a separation's
  // release was booked at the step it happened, and the loop would zero it at the next).
  template <class Dormant>
  void partition(Dormant&& dormant) {
    adjacencyValid_ = false;  // (the active contacts change: the adjacency's room with them)
    const std::size_t real = partitionBy(0, size_, [&](std::size_t k) { return real_[k] != 0; });
    realEnd_ = real;
    activeEnd_ = partitionBy(real, size_, [&](std::size_t k) { return !dormant(pair(k)); });
    fitColumns(real);  // (the others lean: defaults, `dissipated` zero; gatherVisited gives columns)
    realChanged_ = false;
    sortIfDisordered(real, false);
    changed_.clear();
    gathered_ = true;
    if constexpr (kAssertions) {
      for (std::size_t k = 0; k < size_; ++k)
        DEM_ASSERT((real_[k] != 0) == (k < realEnd_), "partition: the real contacts lie in front of all others");
      DEM_ASSERT(realEnd_ <= activeEnd_ && activeEnd_ <= size_, "partition: realEnd <= activeEnd <= size");
    }
  }
  // Between collider runs: moves the contacts that are real in front of the other active ones (the
  // dormant tail stays), as partition() does, and sorts them by (id1, id2) when more than 1/kSortDisorder of
  // them are out of order at a `tidy` step (the scene's steps that are multiples of kSortPeriod),
  // more than 1/kSortDisorderAnyStep at any other. Contacts formed or separated since the last step so go back to their
  // place (batches of real contacts stay full). The result depends on the order, the real flags and
  // activeEnd only (partitionBy's swaps), so a resumed run moves the same contacts as the straight
  // one. When the store was gathered at the last call and the contact stage named the contacts
  // whose flag changed since (noteRealChanged(k)), the same swaps are found from those alone
  // (gatherNamed) and the disorder count is kept up to date: the cost follows the changes, not the
  // number of contacts. Returns whether any contact moved. Nothing to do unless some contact formed
  // or separated since the last gathering.
  bool gatherReal(bool tidy = true);
  // The contact stage's note that contact k's real flag changed (gatherReal has work).
  void noteRealChanged(std::uint32_t k) {
    realChanged_ = true;
    if (!gathered_) return;
    if (changed_.size() >= size_) {  // (notes piling up without a gathering: scan instead)
      gathered_ = false;
      changed_.clear();
    } else {
      changed_.push_back(k);
    }
  }
  // A note that some real flag changed, which ones unknown (the next gathering scans the store).
  void noteRealChanged() {
    realChanged_ = true;
    gathered_ = false;
  }
  // Every dormant contact active again (until the next partition): the dormant marks no longer hold.
  void wakeDormant() {
    activeEnd_ = SIZE_MAX;
    adjacencyValid_ = false;
  }
  // After the store was read back (a checkpoint): the marks of the last partition recovered from the
  // order, without moving any contact: realEnd after the leading real contacts, activeEnd before the
  // longest tail of contacts that are not real, hold no `dissipated` and are dormant (as partition()
  // left them; any such tail may be skipped).
  template <class Dormant>
  void recoverMarks(Dormant&& dormant) {
    std::size_t r = 0;
    while (r < size_ && real_[r]) ++r;
    std::size_t a = size_;
    const ContactStore& self = *this;  // (lean contacts read as their defaults)
    while (a > r && !real_[a - 1] && (!resultColumns_ || self.at(col::dissipated, a - 1) == 0.0) &&
           dormant(pair(a - 1)))
      --a;
    realEnd_ = r;
    activeEnd_ = a;
    adjacencyValid_ = false;
  }
  // The end of the real contacts at the last partition (contacts formed or separated since are on
  // either side); the whole list before the first partition.
  std::size_t realEnd() const { return realEnd_ < size_ ? realEnd_ : size_; }
  // The end of the contacts that are not dormant: those from here on cannot touch before the
  // collider's next run. The whole list when the set changed since the last partition.
  std::size_t activeEnd() const { return activeEnd_ < size_ ? activeEnd_ : size_; }
  std::size_t countReal() const {
    std::size_t n = 0;
    for (std::size_t k = 0; k < size_; ++k) n += real_[k];
    return n;
  }
  // The real contacts of one type.
  std::size_t countReal(ContactType t) const {
    std::size_t n = 0;
    for (std::size_t k = 0; k < size_; ++k) n += real_[k] && type_[k] == t;
    return n;
  }

  // Per-particle list of the visited contacts [0, visited) as (contact index << 1 | side), side 0 =
  // the particle is id1, 1 = id2, in the order of the partners' user ids (Particles::userId): the
  // order in which a body sums its contacts, whatever the contacts' and the bodies' places in
  // storage. Body i's list: adjEntry()[adjOffset()[i] .. adjOffset()[i] + adjCount()[i]). Each body
  // has room for its active contacts (those before activeEnd(), a set that only a partition or the
  // collider changes), so that the contacts joining or leaving the visited ones from one step to
  // the next are inserted or erased in place; swaps keep it valid. Call after gatherVisited.
  // byUser false: each list in increasing contact index instead (SumOrder::ContactIndex).
  void updateAdjacency(const Particles& p, std::size_t visited, bool byUser = true);
  const std::vector<std::uint32_t>& adjOffset() const { return adjOffset_; }
  const std::vector<std::uint32_t>& adjCount() const { return adjCount_; }
  const std::vector<std::uint32_t>& adjEntry() const { return adjEntry_; }
  // Calls fn(k) for each real contact k in the order of its bodies' user ids (id1's, then id2's),
  // whatever the contacts' and the bodies' slots: the order of every sum over contacts outside the
  // contact stage (wall loads, the unbalanced force). From the adjacency when it lists every real
  // contact (after a contact stage), else from a sort.
  template <class Fn>
  void forEachRealInUserOrder(const Particles& p, Fn&& fn) const {
    if (adjacencyValid_ && adjParticles_ == p.size() && adjByUser_) {
      for (std::size_t u = 0; u < p.size(); ++u) {
        const std::uint32_t i = p.slotOf[u];
        for (std::uint32_t a = adjOffset_[i]; a < adjOffset_[i] + adjCount_[i]; ++a)
          if (!(adjEntry_[a] & 1u) && real_[adjEntry_[a] >> 1]) fn(static_cast<std::size_t>(adjEntry_[a] >> 1));
      }
      return;
    }
    for (const std::uint32_t k : realInUserOrder(p, [](std::size_t) { return true; })) fn(static_cast<std::size_t>(k));
  }
  // The real contacts k for which keep(k) holds, in forEachRealInUserOrder's order, from a scan of the
  // flags and a sort.
  template <class Keep>
  std::vector<std::uint32_t> realInUserOrder(const Particles& p, Keep&& keep) const {
    std::vector<std::pair<std::uint64_t, std::uint32_t>> order;
    for (std::size_t k = 0; k < size_; ++k)
      if (real_[k] && keep(k))
        order.emplace_back((std::uint64_t{p.userId[id1_[k]]} << 32) | p.userId[id2_[k]], static_cast<std::uint32_t>(k));
    std::sort(order.begin(), order.end());
    std::vector<std::uint32_t> ks(order.size());
    for (std::size_t q = 0; q < order.size(); ++q) ks[q] = order[q].second;
    return ks;
  }
  // The user id of the other body of adjacency entry e.
  std::uint32_t partnerUser(const Particles& p, std::uint32_t e) const {
    return p.userId[(e & 1u) ? id1_[e >> 1] : id2_[e >> 1]];
  }

  // The bodies moved to other slots (Particles::permute with newSlot): each contact names its bodies'
  // new slots (their order, by user id, stays), and the real contacts are sorted by them, so that
  // consecutive contacts read nearby bodies. No contact changes otherwise; the marks stay.
  void renumberBodies(const std::vector<std::uint32_t>& newSlot);

  // Debug builds (DEM_ASSERTIONS, solver/assert.hpp): DEM_ASSERTs every invariant of the stored
  // contacts against the particles `p`: ids in range, sphere-sphere id1 < id2 and neither a wall,
  // sphere-wall id1 a sphere and id2 a wall, each pair once and found at its index by the pair map,
  // the marks within the list, and a valid adjacency in range and sorted. Nothing in release builds.
  void assertInvariants(const Particles& p) const;

 private:
  // Column c of contact k: the columns of kColumnPad consecutive contacts lie together (a tile of
  // width() x kColumnPad doubles), so that a batch reads and writes one stretch of memory, not
  // width() streams one column length apart. c must be held (hasColumn).
  std::size_t offset(std::size_t c, std::size_t k) const { return tile(k) + place(c) * kColumnPad + k % kColumnPad; }
  std::size_t tile(std::size_t k) const { return (k / kColumnPad) * (width() * kColumnPad); }
  // Column c's place in a tile.
  std::size_t place(std::size_t c) const { return c >= col::resultsBegin ? c - resultsShift() : c; }
  bool dashpotColumns_ = true;
  bool resultColumns_ = true;
  [[noreturn]] static void throwNoResults();

  // Column c of contact k := v where the store holds c; where it does not (the dashpots' or the
  // results' group) a value other than +0 adds the group first.
  void put(std::size_t c, std::size_t k, double v) {
    if (hasColumn(c)) data_[offset(c, k)] = v;
    else if (!positiveZero(v)) at(c, k) = v;
  }
  static bool positiveZero(double v) { return v == 0.0 && !std::signbit(v); }
  static double defaultColumn(std::size_t c);
  std::size_t size_ = 0;
  ColumnBuffer data_;         // the tiles of columns, room for capacity_ contacts
  std::size_t capacity_ = 0;  // a multiple of kColumnPad
  // The contacts [0, limit_) have columns; [limit_, size_) are lean (every field its default, the
  // law parameters not stored). Column entries from limit_ on hold the defaults (the batches' idle
  // lanes read them).
  std::size_t limit_ = 0;
  // Room for `capacity` contacts (a multiple of kColumnPad); the entries past the old room hold the
  // defaults.
  void reallocate(std::size_t capacity);
  // Columns for the contacts before m (lean ones get the defaults, their law parameters kUnmixed).
  void materialize(std::size_t m);
  // Columns exactly for the contacts before m: those after m made lean (they hold no history: not
  // real; their other fields are dropped), the buffer released when far larger than needed.
  void fitColumns(std::size_t m);
  // Writes contact k's columns (k < limit_) from c.
  void setColumns(std::size_t k, const Contact& c);
  static constexpr float kUnknownGap = -std::numeric_limits<float>::infinity();
  std::vector<float> runGap_;  // recordRunGaps, moved with each contact (at most size_ of them)
  double moveSinceRun_ = std::numeric_limits<double>::infinity();
  std::vector<float> bodyMove2_;
  bool bodyMove2Valid_ = false;
  std::vector<std::uint32_t> id1_, id2_;
  std::vector<ContactType> type_;
  std::vector<std::uint8_t> real_;
  // Each contact's cellDist as its code in cellOffsets_, none while every one is zero (an
  // aperiodic scene: no memory).
  std::vector<std::uint8_t> cellCode_;
  CellOffsetTable cellOffsets_;
  PairIndex index_;
  std::vector<std::uint32_t> adjOffset_, adjCount_, adjEntry_;
  // Contact k is listed in the adjacency (moved with each contact; held for the contacts before the
  // adjacency's range only, none while there is none: listed(k)).
  std::vector<std::uint8_t> inAdj_;
  std::uint8_t listed(std::size_t k) const { return k < inAdj_.size() ? inAdj_[k] : 0; }
  std::vector<std::uint32_t> adjJoined_, adjLeft_;  // updateAdjacency's scratch
  bool adjacencyValid_ = false;
  std::size_t adjParticles_ = 0, adjRange_ = 0;  // the bodies and the active contacts it was built for
  bool adjByUser_ = true;                        // its lists in the partners' user ids' order, else by index
  // The key of an adjacency entry's place in its list.
  std::uint32_t adjKey(const Particles& p, std::uint32_t e) const { return adjByUser_ ? partnerUser(p, e) : e >> 1; }
  void adjacencyInsert(const Particles& p, std::uint32_t body, std::uint32_t entry);
  void adjacencyErase(std::uint32_t body, std::uint32_t entry);
  void assertAdjacency(const Particles& p) const;
  std::size_t realEnd_ = SIZE_MAX, activeEnd_ = SIZE_MAX;
  bool moved_ = false;       // the last partitionBy moved contacts
  bool realChanged_ = true;  // real flags changed since the last gatherReal (true: unknown)
  // The store was gathered at the last partition or gatherReal (the contacts before realEnd_ real,
  // those from there to activeEnd not), and changed_ names every contact whose real flag changed
  // since (possibly twice).
  bool gathered_ = false;
  std::vector<std::uint32_t> changed_;
  std::vector<std::uint32_t> nowApart_, nowReal_, front_, back_;  // gatherNamed's scratch
  // The number of k in [1, realEnd_) whose contact follows one with a larger (id1, id2), while
  // descentsKnown_ (countDescents, kept up to date by gatherNamed).
  std::size_t descents_ = 0;
  bool descentsKnown_ = false;
  std::size_t gatherNamed(std::size_t activeEnd);
  bool descent(std::size_t k) const { return pairKey(id1_[k - 1], id2_[k - 1]) > pairKey(id1_[k], id2_[k]); }
  // Sorts [0, real) by (id1, id2) when more than 1/disorder of them are out of order (countDescents), with
  // the disorder count from descents_ when `known`; descents_ then holds that of [0, real).
  void sortIfDisordered(std::size_t real, bool known, std::size_t disorder = kSortDisorder);
  // swap(a, b) with the pair map and the adjacency following.
  void swapPlaced(std::size_t a, std::size_t b) {
    const std::int64_t sa = index_.slot(key(a), keyAt()), sb = index_.slot(key(b), keyAt());
    swap(a, b);
    index_.setSlot(sa, static_cast<std::uint32_t>(b));
    index_.setSlot(sb, static_cast<std::uint32_t>(a));
    if (adjacencyValid_) swapAdjacency(a, b);
  }
  // The pair map's key of contact k, and the function that reads it.
  std::uint64_t key(std::size_t k) const { return pairKey(id1_[k], id2_[k]); }
  struct KeyAt {
    const ContactStore* store;
    std::uint64_t operator()(std::uint32_t k) const { return store->key(k); }
  };
  KeyAt keyAt() const { return {this}; }
  std::size_t gatherVisitedColumns(const std::vector<std::uint8_t>& visit);  // gatherVisited's moves
  void resizeColumns(std::size_t n);  // size() becomes n; new and dropped entries hold a default Contact
  void swap(std::size_t a, std::size_t b);
  // After swap(a, b): the entries of the bodies of both contacts name their new indices (the
  // adjacency stays valid).
  void swapAdjacency(std::size_t a, std::size_t b);
  // Sorts the contacts [begin, end) by (id1, id2) (the pair map follows).
  void sortByBodies(std::size_t begin, std::size_t end);
  struct SortPlan {
    std::vector<std::uint32_t> order;  // order[m - begin]: the contact that goes to m
    std::vector<std::uint8_t> kept;    // kept[k - begin]: contact k keeps its order among those kept
  };
  SortPlan orderByBodies(std::size_t begin, std::size_t end) const;
  // How many of the contacts [begin, end) follow one with a larger (id1, id2).
  std::size_t countDescents(std::size_t begin, std::size_t end) const {
    std::size_t descents = 0;
    for (std::size_t k = begin + 1; k < end; ++k) descents += descent(k);
    return descents;
  }
  // Moves the contacts of [from, to) that satisfy `first` in front of the others there (swapping
  // pairs out of place, the pair map following) and returns where they end; moved_ tells whether
  // any moved.
  template <class First>
  std::size_t partitionBy(std::size_t from, std::size_t to, First&& first) {
    std::size_t front = from, back = to;
    moved_ = false;
    while (true) {
      while (front < back && first(front)) ++front;
      while (front < back && !first(back - 1)) --back;
      if (front >= back) return front;
      swapPlaced(front, back - 1);
      moved_ = true;
    }
  }
};

}  // namespace dem
