// Unit: ContactStore::partitionReal, which the scene calls after every collider run so that the
// contact loop streams the records of real contacts only. Reference: the store before the call.
// Afterwards the real contacts come first, sorted by (id1, id2), and end at realEnd(); the set of
// pairs and every record are unchanged, the pair map gives each pair's new index, and a second call
// moves nothing.
// Dormant contacts (ContactStore::partition with Collider::dormant), which the contact loop skips
// until the collider's next run: reference, the bodies' gap computed directly at every step of a
// stirred pour. None of them may overlap before that run, and they must hold no force.
// The lean tier (columnEnd): contacts without columns read back as defaults and their parameters.
#include "solver/builders.hpp"
#include "solver/column_buffer.hpp"
#include "solver/facet_geometry.hpp"
#include "unit/same_bits.hpp"
#include "unit/test_scenes.hpp"

#include <boost/test/unit_test.hpp>

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <map>
#include <random>
#include <stdexcept>
#include <string>
#include <vector>

using namespace dem;

using dem::test::sameContact;

namespace {
// 400 spheres poured with random initial velocities, after `steps` steps.
Scene stirredPour(std::uint64_t steps, bool meshBox = false) {
  DepositionSpec spec;
  spec.n = 400;
  spec.speed = 0.3;
  spec.meshBox = meshBox;
  Scene s = depositionScene(spec);
  s.run(steps);
  return s;
}
}  // namespace

BOOST_AUTO_TEST_SUITE(contact_store)

// The pair map (PairIndex, open addressing with backward-shift deletion, keys read through keyOf)
// against std::map over a random sequence of inserts, moves of a key to another index (as the
// store's swaps, sorts and removals do: slot, then setSlot) and erasures on a small key range (long
// probe chains, wrap-around at the table's end, growth from empty), with every key looked up after
// each batch.
BOOST_AUTO_TEST_CASE(pair_index_matches_a_map) {
  PairIndex index;
  std::map<std::uint64_t, std::uint32_t> ref;
  std::vector<std::uint64_t> keyOfIndex;  // (each index is used once)
  const auto keyOf = [&](std::uint32_t v) { return keyOfIndex[v]; };
  std::mt19937_64 rng(18);
  for (int batch = 0; batch < 40; ++batch) {
    for (int op = 0; op < 500; ++op) {
      const std::uint64_t key =
          pairKey(static_cast<std::uint32_t>(rng() % 40), static_cast<std::uint32_t>(40 + rng() % 40));
      const auto v = static_cast<std::uint32_t>(keyOfIndex.size());
      switch (rng() % 4) {
        case 0:
          keyOfIndex.push_back(key);
          index.insert(key, v, keyOf);
          ref.emplace(key, v);
          break;
        case 1: {
          const std::int64_t slot = index.slot(key, keyOf);
          BOOST_TEST_REQUIRE((slot != PairIndex::kAbsent) == (ref.count(key) == 1));
          if (slot == PairIndex::kAbsent) break;
          keyOfIndex.push_back(key);
          index.setSlot(slot, v);
          ref[key] = v;
          break;
        }
        default:
          index.erase(key, keyOf);
          ref.erase(key);
          break;
      }
    }
    int wrong = 0;
    for (std::uint32_t a = 0; a < 40; ++a)
      for (std::uint32_t b = 40; b < 80; ++b) {
        const auto it = ref.find(pairKey(a, b));
        wrong += index.find(pairKey(a, b), keyOf) != (it == ref.end() ? -1 : static_cast<std::int64_t>(it->second));
      }
    BOOST_TEST(wrong == 0);
    BOOST_TEST(5 * ref.size() <= 4 * index.slots());  // at most 4/5 full
    if (batch == 20) {
      index.clear();
      ref.clear();
    }
  }
}

// The pair map's size: room for n keys is about 5 n / 4 slots (any number, not the next power of
// two), and a table that must grow takes about a quarter more (O(log n) rehashes for keys added
// one at a time); every key is found after each growth.
BOOST_AUTO_TEST_CASE(pair_index_sized_to_its_keys) {
  std::vector<std::uint64_t> keys;
  const auto keyOf = [&](std::uint32_t v) { return keys[v]; };
  PairIndex index;
  index.reserve(1000, keyOf);
  BOOST_TEST(index.slots() == 1250u);  // 5 000 / 4
  std::size_t rehashes = 0, last = index.slots();
  for (std::uint32_t v = 0; v < 20000; ++v) {
    keys.push_back(pairKey(v / 100, 100000 + v));
    index.insert(keys.back(), v, keyOf);
    if (index.slots() != last) {
      BOOST_TEST(100 * index.slots() >= 124 * last);  // (a quarter, less rounding)
      BOOST_TEST(5 * (v + 1) <= 4 * index.slots());
      last = index.slots();
      ++rehashes;
    }
  }
  BOOST_TEST(rehashes <= 14u);  // 1250 -> 2e4 keys / 0.8 by factors of 5/4 at least
  BOOST_TEST(index.slots() <= (5 * 20000 * 5 / 4) / 4 + 1);
  std::size_t wrong = 0;
  for (std::uint32_t v = 0; v < 20000; ++v) wrong += index.find(keys[v], keyOf) != v;
  BOOST_TEST(wrong == 0u);
}

// The columns' memory (ColumnBuffer): grown and shrunk in place, every kept entry keeps its value
// (across several pages, so that mremap moves or extends the mapping), copies are independent,
// a moved-from buffer is empty, and size 0 releases it. Reference: the values written.
// Cell offsets (cellDist) are kept as codes (CellOffsetTable): every value within +-kMaxCellOffset
// comes back as set, through swaps, removals and a sort, whether the store held offsets before or
// not; one beyond is an error naming the bodies, and leaves the contact as it was.
BOOST_AUTO_TEST_CASE(cell_offsets_come_back_as_set) {
  ContactStore store;
  std::mt19937_64 rng(7);
  std::map<std::uint64_t, Eigen::Vector3i> ref;
  for (std::uint32_t a = 0; a < 60; ++a) {
    Contact c;
    c.id1 = a;
    c.id2 = a + 100;
    store.add(c);  // (zero offsets: nothing stored yet)
    ref[pairKey(c.id1, c.id2)] = Eigen::Vector3i::Zero();
  }
  const auto offset = [&] { return static_cast<int>(rng() % (2 * kMaxCellOffset + 1)) - kMaxCellOffset; };
  for (std::size_t k = 0; k < store.size(); k += 3) {
    const Eigen::Vector3i d(offset(), offset(), k % 2 ? kMaxCellOffset : -kMaxCellOffset);
    store.setCellDist(k, d);
    ref[pairKey(store.id1(k), store.id2(k))] = d;
  }
  store.remove(5);
  ref.erase(pairKey(5, 105));
  store.partitionReal();  // (swaps and sorts)
  std::size_t wrong = 0;
  for (std::size_t k = 0; k < store.size(); ++k)
    wrong += store.cellDist(k) != ref.at(pairKey(store.id1(k), store.id2(k)));
  BOOST_TEST(wrong == 0u);
  BOOST_TEST(store.size() == ref.size());

  const Eigen::Vector3i before = store.cellDist(0);
  BOOST_CHECK_EXCEPTION(
      store.setCellDist(0, Eigen::Vector3i(0, kMaxCellOffset + 1, 0)), std::range_error,
      [](const std::range_error& e) { return std::string(e.what()).find("bodies") != std::string::npos; });
  BOOST_TEST(store.cellDist(0) == before);
}

// The codes of offsets beyond one cell are freed when no contact holds them: a contact whose image
// moves through 10 000 offsets (a cell sheared far without flipping) keeps each as set, the other
// contacts keep theirs (the 27 unit offsets and 200 larger ones, held throughout); with every code
// held, one more offset is an error naming the bodies and leaves the contact as it was.
// Reference: the values set.
BOOST_AUTO_TEST_CASE(cell_offset_codes_freed_when_no_contact_holds_them) {
  ContactStore store;
  const std::uint32_t n = 1 + 27 + 200;
  for (std::uint32_t a = 0; a < n; ++a) {
    Contact c;
    c.id1 = a;
    c.id2 = a + 1000;
    store.add(c);
  }
  std::vector<Eigen::Vector3i> ref(n, Eigen::Vector3i::Zero());
  for (std::uint32_t a = 1; a < n; ++a) {
    const int u = static_cast<int>(a) - 1;
    ref[a] = u < 27 ? Eigen::Vector3i(u / 9 - 1, u / 3 % 3 - 1, u % 3 - 1) : Eigen::Vector3i(2, u, -u);
    store.setCellDist(a, ref[a]);
  }
  std::size_t wrong = 0;
  for (int s = 0; s < 10000; ++s) {
    ref[0] = Eigen::Vector3i(s % 7 - 3, 5 + s, -2);
    store.setCellDist(0, ref[0]);
    if (s % 97 == 0)
      for (std::uint32_t a = 0; a < n; ++a) wrong += store.cellDist(a) != ref[a];
  }
  BOOST_TEST(wrong == 0u);
  // Every code beyond the unit offsets held: 200, contact 0's and the rest (28).
  const int rest = CellOffsetTable::kCodes - CellOffsetTable::kUnitCodes - 200 - 1;
  for (std::uint32_t a = 0; a < static_cast<std::uint32_t>(rest); ++a) {
    Contact c;
    c.id1 = 5000 + a;
    c.id2 = 6000 + a;
    store.add(c);
    store.setCellDist(store.size() - 1, Eigen::Vector3i(-7, static_cast<int>(a), 9));
  }
  const Eigen::Vector3i before = store.cellDist(0);
  BOOST_CHECK_EXCEPTION(
      store.setCellDist(0, Eigen::Vector3i(40, 0, 0)), std::range_error,
      [](const std::range_error& e) { return std::string(e.what()).find("bodies 0 and 1000") != std::string::npos; });
  BOOST_TEST(store.cellDist(0) == before);
  store.setCellDist(0, Eigen::Vector3i(1, -1, 0));  // (a unit offset needs no free code)
  store.setCellDist(1, Eigen::Vector3i(40, 0, 0));  // (contact 0's old offset is freed)
  BOOST_TEST(store.cellDist(1) == Eigen::Vector3i(40, 0, 0));
  for (std::uint32_t a = 2; a < n; ++a) wrong += store.cellDist(a) != ref[a];
  BOOST_TEST(wrong == 0u);
}

BOOST_AUTO_TEST_CASE(column_buffer_keeps_values_across_resizes) {
  ColumnBuffer b;
  BOOST_TEST(b.size() == 0u);
  std::size_t wrong = 0;
  const auto fill = [&](std::size_t from, std::size_t to) {
    for (std::size_t i = from; i < to; ++i) b[i] = 0.5 * static_cast<double>(i) + 1.0;
  };
  const auto check = [&](const ColumnBuffer& c, std::size_t n) {
    for (std::size_t i = 0; i < n; ++i) wrong += c[i] != 0.5 * static_cast<double>(i) + 1.0;
  };
  std::size_t n = 0;
  for (const std::size_t next : {10u, 5000u, 700000u, 1200000u, 3000u, 900000u, 17u}) {
    b.resize(next);
    BOOST_TEST(b.size() == next);
    BOOST_TEST(reinterpret_cast<std::uintptr_t>(b.data()) % 64 == 0u);
    check(b, std::min(n, next));
    if (next > n) fill(n, next);
    n = next;
  }
  ColumnBuffer copy = b;
  copy[3] = -1.0;
  check(b, n);
  BOOST_TEST(copy[3] == -1.0);
  ColumnBuffer moved = std::move(copy);
  BOOST_TEST(copy.size() == 0u);
  BOOST_TEST(moved.size() == n);
  b.resize(0);
  BOOST_TEST(b.size() == 0u);
  BOOST_TEST(wrong == 0u);
}

BOOST_AUTO_TEST_CASE(partition_puts_real_contacts_first) {
  const Scene s = stirredPour(4000);
  // The scene's store, partitioned at its last collider run, in reverse: real contacts mostly behind.
  ContactStore store;
  for (std::size_t k = s.contacts.size(); k-- > 0;) store.add(s.contacts.get(k));
  const std::size_t real = store.countReal();
  BOOST_TEST_REQUIRE(real > 50u);
  BOOST_TEST_REQUIRE(real < store.size());
  // (a contact that is not real keeps its pair: the partition makes it lean, so a `dissipated` left
  // from the step it separated is zeroed, as the contact loop's next visit would, and its law
  // parameters are dropped, to be mixed again at its next visit)
  std::vector<Contact> before = store.values();
  for (Contact& c : before)
    if (!c.real) {
      c.dissipated = 0.0;
      c.params.fill(kUnmixed);
    }
  BOOST_TEST_REQUIRE(!before.front().real);

  store.partitionReal();
  BOOST_TEST(store.realEnd() == real);
  std::size_t misplaced = 0, lost = 0, wrongIndex = 0;
  for (std::size_t k = 0; k < store.size(); ++k) {
    const Contact& c = store.get(k);
    if ((k < real) != (c.real != 0)) ++misplaced;
    if (store.find(c.id1, c.id2) != static_cast<std::int64_t>(k)) ++wrongIndex;
    if (std::find_if(before.begin(), before.end(), [&](const Contact& b) { return sameContact(b, c); }) == before.end())
      ++lost;
  }
  std::size_t unsorted = 0;  // the real contacts in increasing (id1, id2), up to 1/kSortDisorder
  for (std::size_t k = 1; k < real; ++k)
    unsorted += pairKey(store.id1(k - 1), store.id2(k - 1)) >= pairKey(store.id1(k), store.id2(k));
  BOOST_TEST(kSortDisorder * unsorted <= real);
  BOOST_TEST(misplaced == 0u);
  BOOST_TEST(wrongIndex == 0u);
  BOOST_TEST(lost == 0u);  // every record is one of the originals (and the sizes agree)
  BOOST_TEST(store.size() == before.size());

  const std::vector<Contact> once = store.values();
  store.partitionReal();
  BOOST_TEST(std::equal(once.begin(), once.end(), store.values().begin(), sameContact));
}

// ContactStore::sortByBodies (through partitionReal) on real contacts nearly sorted (1/20 of them
// swapped in pairs far apart: the pass in the tiles' order with the others set aside) and on real
// contacts in no order (the swaps around the permutation's cycles), contacts that are not real
// behind them: afterwards the real contacts in increasing (id1, id2), every record (history, law
// parameters, periodic offsets) that of its pair before, the pair map naming each contact's index,
// and the contacts behind untouched. Reference: the records before the sort.
BOOST_AUTO_TEST_CASE(sorting_real_contacts_keeps_every_record) {
  const Scene s = stirredPour(4000);
  std::vector<Contact> real, rest;
  for (std::size_t k = 0; k < s.contacts.size(); ++k) {
    Contact c = s.contacts.get(k);
    if (!c.real) continue;
    c.cellDist = Eigen::Vector3i(static_cast<int>(k % 3) - 1, 0, static_cast<int>(k % 2));  // (codes moved too)
    real.push_back(c);
  }
  for (std::size_t k = 0; k < s.contacts.size() && rest.size() < 100; ++k)
    if (!s.contacts.get(k).real) rest.push_back(s.contacts.get(k));
  BOOST_TEST_REQUIRE(real.size() > 400u);
  const auto byPair = [](const Contact& a, const Contact& b) { return pairKey(a.id1, a.id2) < pairKey(b.id1, b.id2); };
  std::sort(real.begin(), real.end(), byPair);
  std::mt19937_64 rng(11);
  for (const bool nearly : {true, false}) {
    std::vector<Contact> order = real;
    if (nearly) {
      for (std::size_t q = 0; q < order.size() / 40; ++q)
        std::swap(order[rng() % order.size()], order[rng() % order.size()]);
    } else {
      std::shuffle(order.begin(), order.end(), rng);
    }
    ContactStore store;
    for (const Contact& c : order) store.add(c);
    for (const Contact& c : rest) store.add(c);
    std::vector<Contact> before = store.values();
    for (Contact& c : before)
      if (!c.real) {  // (made lean by the partition, as in partition_puts_real_contacts_first)
        c.dissipated = 0.0;
        c.params.fill(kUnmixed);
      }
    store.partitionReal();
    BOOST_TEST(store.realEnd() == real.size());
    std::size_t descents = 0, wrongRecord = 0, wrongIndex = 0;
    for (std::size_t k = 0; k < store.size(); ++k) {
      const Contact c = store.get(k);
      if (k >= 1 && k < real.size()) descents += pairKey(store.id1(k - 1), store.id2(k - 1)) > pairKey(c.id1, c.id2);
      const auto was = std::find_if(before.begin(), before.end(),
                                    [&](const Contact& b) { return b.id1 == c.id1 && b.id2 == c.id2; });
      wrongRecord += was == before.end() || !sameContact(*was, c);
      wrongIndex += store.find(c.id1, c.id2) != static_cast<std::int64_t>(k);
      if (k >= real.size()) wrongRecord += !sameContact(before[k], c);
    }
    BOOST_TEST(descents == 0u, (nearly ? "nearly sorted" : "no order"));
    BOOST_TEST(wrongRecord == 0u, (nearly ? "nearly sorted" : "no order"));
    BOOST_TEST(wrongIndex == 0u, (nearly ? "nearly sorted" : "no order"));
  }
}

// gatherReal from the contacts the stage names (ContactStore::noteRealChanged(k): the swaps found
// from the changes alone, the disorder count kept up to date) against the same store gathered by
// scanning (noteRealChanged(): which contacts changed unknown): the same order, the same end of the
// real contacts and the same decision to sort, round after round; formations and separations in
// any proportion, and rounds of many changes that make the real contacts need sorting.
BOOST_AUTO_TEST_CASE(gathering_named_changes_equals_the_scan) {
  const Scene s = stirredPour(4000);
  ContactStore named;
  for (std::size_t k = s.contacts.size(); k-- > 0;) named.add(s.contacts.get(k));
  named.partitionReal();
  ContactStore scanned = named;
  std::mt19937_64 rng(7);
  std::size_t sorts = 0, moved = 0;
  for (int round = 0; round < 200; ++round) {
    const std::size_t n = named.size(), real = named.realEnd();
    // a few flips near the boundary and anywhere; some rounds flip many (forcing a sort)
    const std::size_t flips = round % 25 == 24 ? n / 3 : 1 + rng() % 12;
    for (std::size_t f = 0; f < flips; ++f) {
      std::size_t k = rng() % n;
      if (f % 3 == 0 && real > 2) k = real - 1 - rng() % 3 + rng() % 5;
      if (k >= n) continue;
      named.realData()[k] ^= 1u;
      scanned.realData()[k] ^= 1u;
      named.noteRealChanged(static_cast<std::uint32_t>(k));
    }
    scanned.noteRealChanged();
    std::size_t descentsBefore = 0;
    for (std::size_t k = 1; k < named.realEnd(); ++k)
      descentsBefore += pairKey(named.id1(k - 1), named.id2(k - 1)) > pairKey(named.id1(k), named.id2(k));
    const bool a = named.gatherReal(), b = scanned.gatherReal();
    BOOST_TEST_REQUIRE(a == b);
    moved += a;
    BOOST_TEST_REQUIRE(named.realEnd() == scanned.realEnd());
    std::size_t differ = 0, misplaced = 0, descents = 0;
    for (std::size_t k = 0; k < n; ++k) {
      differ += named.id1(k) != scanned.id1(k) || named.id2(k) != scanned.id2(k) ||
                named.realData()[k] != scanned.realData()[k];
      misplaced += (k < named.realEnd()) != (named.realData()[k] != 0);
      if (k >= 1 && k < named.realEnd())
        descents += pairKey(named.id1(k - 1), named.id2(k - 1)) > pairKey(named.id1(k), named.id2(k));
    }
    sorts += descents == 0 && descentsBefore > 0;
    BOOST_TEST_REQUIRE(differ == 0u);
    BOOST_TEST_REQUIRE(misplaced == 0u);
    for (std::size_t k = 0; k < n; ++k)
      BOOST_TEST_REQUIRE(named.find(named.id1(k), named.id2(k)) == static_cast<std::int64_t>(k));
  }
  BOOST_TEST_MESSAGE("rounds that moved contacts: " << moved << ", sorted: " << sorts);
  BOOST_TEST(moved > 100u);
  BOOST_TEST(sorts > 3u);
}

// (also in a box of facets: sphere-facet contacts are dormant by the gap to the triangle at its
// reference vertices; the gap here: to the triangle where it is now, facet_geometry.hpp). Likewise
// every contact that is not real and that the contact loop skips without reading its bodies (its
// gap at the run, ContactStore::recordRunGaps, above twice the farthest any body has moved since,
// Collider::moveSinceRun): none overlaps at the positions the loop would have read.
BOOST_AUTO_TEST_CASE(dormant_contacts_never_touch_before_the_next_collider_run) {
  for (const bool meshBox : {false, true}) {
    Scene s = stirredPour(500, meshBox);
    const Particles& p = s.particles;
    std::size_t checked = 0, checkedFacets = 0, overlapping = 0, notClean = 0, partitions = 0, steps = 0;
    std::size_t skipped = 0, skippedOverlapping = 0;
    const auto gapNow = [&](const Contact& c) {
      if (c.type == ContactType::SphereWall)
        return (p.pos[c.id1] - p.pos[c.id2]).dot(p.walls[p.shapeIndex[c.id2]].normal) - p.radius[c.id1];
      if (c.type == ContactType::SphereFacet)
        return (closestPointOnFacet(p.facets[p.shapeIndex[c.id2]], p.pos[c.id1]) - p.pos[c.id1]).norm() -
               p.radius[c.id1];
      return (p.pos[c.id2] - p.pos[c.id1]).norm() - (p.radius[c.id1] + p.radius[c.id2]);
    };
    for (; steps < 3000; ++steps) {
      // The positions the next step's contact loop reads, when its collider does not run first.
      if (!s.collider.needsRun(p)) {
        for (std::size_t k = s.contacts.activeEnd(); k < s.contacts.size(); ++k) {
          const Contact& c = s.contacts.get(k);
          checkedFacets += c.type == ContactType::SphereFacet;
          ++checked;
          if (!(gapNow(c) > 0.0)) ++overlapping;
          if (c.real || c.dissipated != 0.0 || c.elastic != 0.0 || !c.force.isZero(0.0)) ++notClean;
        }
        const double reach = 2.0 * s.collider.moveSinceRun();
        for (std::size_t k = 0; k < s.contacts.size(); ++k) {
          if (s.contacts.real(k) || !(static_cast<double>(s.contacts.recordedRunGap(k)) > reach)) continue;
          ++skipped;
          if (!(gapNow(s.contacts.get(k)) > 0.0)) ++skippedOverlapping;
        }
      }
      const std::uint64_t runs = s.collider.runs();
      s.step();
      if (s.collider.runs() != runs) ++partitions;
    }
    BOOST_TEST_MESSAGE("dormant contact-steps checked: " << checked << " (" << checkedFacets << " with facets) over "
                                                         << partitions << " collider runs");
    BOOST_TEST_MESSAGE("contact-steps skipped by the gap at the run: " << skipped);
    BOOST_TEST(partitions > 10u);  // the pour moves: the dormant set is rebuilt many times
    BOOST_TEST(checked > 50u * steps);
    BOOST_TEST(skipped > 50u * steps);
    BOOST_TEST(skippedOverlapping == 0u);
    BOOST_TEST((checkedFacets > 10u * steps) == meshBox);
    BOOST_TEST(overlapping == 0u);
    BOOST_TEST(notClean == 0u);
  }
}

// The two tiers (ContactStore::columnEnd): after every collider run of a stirred pour the columns
// cover the contacts the loop visited (the real ones and those that may have touched: never a
// dormant one, and fewer than all active ones), a lean contact reads back as a default Contact
// without law parameters (kUnmixed), a contact with columns holds those of the mixing rule for its
// bodies (makeContact) unless it holds defaults and has not been visited since it got its columns,
// and waking the dormant ones (as a moving cell does) or adding a contact with history gives it its
// columns without changing any contact's value. Reference: the contacts as values before each
// change, and makeContact.
BOOST_AUTO_TEST_CASE(lean_contacts_hold_defaults_and_no_parameters) {
  Scene s = stirredPour(500);
  std::size_t runs = 0, lean = 0, wrong = 0, activeLean = 0, mixed = 0, wrongMix = 0;
  for (int step = 0; step < 2000; ++step) {
    const std::uint64_t before = s.collider.runs();
    s.step();
    if (s.collider.runs() == before) continue;
    ++runs;
    const ContactStore& cs = s.contacts;
    wrong += cs.columnEnd() > cs.activeEnd() || cs.columnEnd() < cs.countReal();
    activeLean += cs.activeEnd() - cs.columnEnd();
    for (std::size_t k = cs.columnEnd(); k < cs.size(); ++k, ++lean) {
      Contact expected = makeContact(s.particles, s.materials, cs.id1(k), cs.id2(k), s.law);
      expected.cellDist = cs.cellDist(k);
      expected.params.fill(kUnmixed);
      wrong += !sameContact(cs.get(k), expected);
    }
    for (std::size_t k = 0; k < cs.columnEnd(); ++k) {
      const Contact c = cs.get(k);
      const LawValues rule = makeContact(s.particles, s.materials, c.id1, c.id2, s.law).params;
      if (unmixed(c.params)) {
        wrongMix += c.real || !holdsDefaults(c);
      } else {
        ++mixed;
        wrongMix += std::memcmp(c.params.data(), rule.data(), sizeof rule) != 0;
      }
    }
  }
  BOOST_TEST(runs > 10u);
  BOOST_TEST(mixed > 10u * runs);
  BOOST_TEST(wrongMix == 0u);
  BOOST_TEST(lean > 100u * runs);       // (most of a pour's potential contacts are dormant or apart)
  BOOST_TEST(activeLean > 10u * runs);  // (active contacts apart at the stage have no columns)
  BOOST_TEST(wrong == 0u);

  // waking: every contact with columns, the same values
  const std::vector<Contact> values = s.contacts.values();
  s.contacts.wakeDormant();
  BOOST_TEST(s.contacts.activeEnd() == s.contacts.size());
  std::size_t changed = 0;
  for (std::size_t k = 0; k < values.size(); ++k) changed += !sameContact(s.contacts.get(k), values[k]);
  BOOST_TEST(changed == 0u);

  // after a partition, a contact with history set on a lean slot takes columns (those before it too)
  for (const std::uint64_t r = s.collider.runs(); s.collider.runs() == r;) s.step();
  ContactStore& cs = s.contacts;
  BOOST_REQUIRE(cs.columnEnd() < cs.size());
  const std::size_t k = cs.size() - 1;
  const std::vector<Contact> before = cs.values();
  Contact c = cs.get(k);
  c.u = Vec3(1e-9, 2e-9, 3e-9);
  cs.set(k, c);
  BOOST_TEST(cs.columnEnd() == cs.size());
  BOOST_TEST(sameContact(cs.get(k), c));
  changed = 0;
  for (std::size_t m = 0; m < k; ++m) changed += !sameContact(cs.get(m), before[m]);
  BOOST_TEST(changed == 0u);
  cs.assertInvariants(s.particles);
}

// gatherVisited's moves (ContactStore::gatherVisited) against the rule it states, followed one flag
// at a time: the first contact not visited swaps with the last one visited until they meet. 3000
// contacts, 700 of them real, the others' flags in runs of 1 to 40 (the store skips eight flags at
// a time where they agree: runs shorter and longer than eight, and ends that are not multiples of
// eight). The pairs in order after the call, the end returned, and every visited contact mixed.
BOOST_AUTO_TEST_CASE(gathering_the_visited_contacts_follows_the_swap_rule) {
  std::mt19937_64 rng(42);
  for (int trial = 0; trial < 20; ++trial) {
    ContactStore cs;
    const std::uint32_t n = 3000 + static_cast<std::uint32_t>(trial), nReal = 700;
    for (std::uint32_t i = 0; i < n; ++i) {
      Contact c;
      c.id1 = i;
      c.id2 = n + i;
      cs.add(c);
    }
    for (std::uint32_t i = 0; i < n; ++i) {  // (real ones scattered; partition puts them first)
      if (rng() % n >= nReal) continue;
      Contact c = cs.get(i);
      c.real = 1;
      c.u = Vec3(-1e-6, 0.0, 0.0);
      c.params.fill(1.0);
      cs.set(i, c);
    }
    cs.partition([](const ContactPair&) { return false; });
    const std::size_t r = cs.realEnd(), a = cs.activeEnd();
    BOOST_TEST_REQUIRE(a == cs.size());
    std::vector<std::uint8_t> visit;
    while (visit.size() < a - r) {
      const std::size_t run = 1 + rng() % 40;
      const std::uint8_t flag = rng() % 2;
      for (std::size_t j = 0; j < run && visit.size() < a - r; ++j) visit.push_back(flag);
    }
    // the rule, one flag at a time, on the pairs as they lie
    std::vector<std::uint32_t> expected(cs.size());
    for (std::size_t k = 0; k < cs.size(); ++k) expected[k] = cs.id1(k);
    std::size_t front = r, back = a;
    while (true) {
      while (front < back && visit[front - r]) ++front;
      while (front < back && !visit[back - 1 - r]) --back;
      if (front >= back) break;
      --back;
      std::swap(expected[front], expected[back]);
      ++front;
    }
    const std::size_t visited = static_cast<std::size_t>(std::count(visit.begin(), visit.end(), 1));
    std::size_t mixes = 0;
    const std::size_t m = cs.gatherVisited(visit, [&](const ContactPair&) {
      ++mixes;
      LawValues v;
      v.fill(2.0);
      return v;
    });
    BOOST_TEST(m == front);
    BOOST_TEST(m == r + visited);
    BOOST_TEST(mixes == visited);
    std::size_t wrong = 0;
    for (std::size_t k = 0; k < cs.size(); ++k) wrong += cs.id1(k) != expected[k] || cs.id2(k) != n + expected[k];
    BOOST_TEST(wrong == 0u);
  }
}

// The dashpots' group of columns (ContactStore::useDashpotColumns). A scene whose materials all
// have restitution 1 keeps none after its collider runs, and every contact reads back as it did with
// them (bit for bit: zero coefficients and forces); a scene with dashpots keeps them. Dropping is
// refused while a contact holds anything but +0 there; writing such a value into a store without
// them brings them back, with every other contact unchanged. Reference: the contacts as values
// before each change.
BOOST_AUTO_TEST_CASE(a_store_without_dashpots_keeps_no_dashpot_columns) {
  Scene s = stirredPour(300);
  BOOST_TEST_REQUIRE(!s.hasDashpots());
  ContactStore& cs = s.contacts;
  BOOST_TEST(!cs.dashpotColumns());  // (the scene dropped them at a collider run)
  BOOST_TEST(cs.width() == col::count - kDashpotColumns);
  const std::vector<Contact> before = cs.values();
  BOOST_TEST_REQUIRE(cs.useDashpotColumns(true));
  BOOST_TEST(cs.dashpotColumns());
  std::size_t differ = 0;
  for (std::size_t k = 0; k < cs.size(); ++k) differ += !sameContact(cs.get(k), before[k]);
  BOOST_TEST(differ == 0u);
  BOOST_TEST_REQUIRE(cs.useDashpotColumns(false));  // (all +0 still)
  for (std::size_t k = 0; k < cs.size(); ++k) differ += !sameContact(cs.get(k), before[k]);
  BOOST_TEST(differ == 0u);

  // a value other than +0 (here -0) in the group brings it back and is kept; dropping is refused
  std::size_t k = 0;
  while (k < cs.size() && !cs.real(k)) ++k;
  BOOST_TEST_REQUIRE(k < cs.columnEnd());
  Contact c = cs.get(k);
  c.damp = Vec3(1.0, -0.0, 2.0);
  c.params[kMaxLawParams - 1] = 3.0;
  cs.set(k, c);
  BOOST_TEST(cs.dashpotColumns());
  BOOST_TEST(sameContact(cs.get(k), c));
  BOOST_TEST(!cs.useDashpotColumns(false));
  BOOST_TEST(cs.dashpotColumns());
  for (std::size_t j = 0; j < cs.size(); ++j) differ += j != k && !sameContact(cs.get(j), before[j]);
  BOOST_TEST(differ == 0u);

  // with dashpots the scene keeps them
  const Scene d = dem::test::pourWithDashpots(50);
  BOOST_TEST(d.contacts.dashpotColumns());
  std::size_t withDashpots = 0;
  for (std::size_t j = 0; j < d.contacts.columnEnd(); ++j)
    withDashpots += d.contacts.real(j) && d.contacts.get(j).params[kMaxLawParams - 1] > 0.0;
  BOOST_TEST(withDashpots > 0u);
}

// A contact with the defaults of a Contact in its results (force, torques, energies).
static Contact withoutResults(Contact c) {
  const Contact d;
  c.force = d.force;
  c.torque1 = d.torque1;
  c.torque2 = d.torque2;
  c.elastic = d.elastic;
  c.dissipated = d.dissipated;
  c.point = d.point;
  return c;
}

// The results' group dropped and added back in place, with and without the dashpots' group beside
// it: every other column keeps its values, the results come back as a default Contact's, and
// reading a result while the group is absent throws.
BOOST_AUTO_TEST_CASE(the_results_group_dropped_and_added_in_place) {
  Scene s = stirredPour(1500);
  ContactStore& cs = s.contacts;
  BOOST_TEST_REQUIRE(!cs.dashpotColumns());
  BOOST_TEST_REQUIRE(cs.resultColumns());
  const std::vector<Contact> before = cs.values();
  std::size_t real = 0, withForce = 0;
  for (const Contact& c : before) {
    real += c.real;
    withForce += c.force != Vec3::Zero();
  }
  BOOST_TEST_REQUIRE(real > 50u);
  BOOST_TEST_REQUIRE(withForce > 50u);
  BOOST_TEST_REQUIRE(cs.columnEnd() > 2 * kColumnPad);

  cs.useResultColumns(false);
  BOOST_TEST(!cs.resultColumns());
  BOOST_TEST(cs.width() == col::count - kDashpotColumns - kResultColumns);
  BOOST_CHECK_THROW(cs.get(0), std::logic_error);
  BOOST_CHECK_THROW(cs.values(), std::logic_error);
  BOOST_CHECK_THROW(static_cast<const ContactStore&>(cs).at(col::fx, 0), std::logic_error);
  // every column it keeps, as before
  const auto sameKept = [&] {
    std::size_t differ = 0;
    const ContactStore& c = cs;
    for (std::size_t k = 0; k < cs.size(); ++k)
      for (std::size_t col = 0; col < col::resultsBegin; ++col) {
        const Contact& b = before[k];
        const double v[] = {b.frame.w(), b.frame.x(), b.frame.y(), b.frame.z(), b.u.x(),
                            b.u.y(),     b.u.z(),     b.phi.x(),   b.phi.y(),   b.phi.z()};
        const double want = col < col::param   ? v[col]
                            : col < col::dampN ? b.params[col - col::param]
                                               : b.damp[static_cast<Eigen::Index>(col - col::dampN)];
        differ += !dem::test::sameValue(c.at(col, k), want);
      }
    return differ;
  };
  BOOST_TEST(sameKept() == 0u);
  BOOST_TEST_REQUIRE(cs.useDashpotColumns(true));  // (the dashpots' group added while the results are absent)
  BOOST_TEST(cs.width() == col::count - kResultColumns);
  BOOST_TEST(sameKept() == 0u);

  cs.useResultColumns(true);
  BOOST_TEST(cs.width() == col::count);
  std::size_t differ = 0;
  for (std::size_t k = 0; k < cs.size(); ++k) differ += !sameContact(cs.get(k), withoutResults(before[k]));
  BOOST_TEST(differ == 0u);
  BOOST_TEST_REQUIRE(cs.useDashpotColumns(false));
  cs.useResultColumns(false);
  BOOST_TEST(sameKept() == 0u);
  // writing a result adds the group back (as a dashpots' column does): nothing is written nowhere
  std::size_t k = 0;
  while (!cs.real(k)) ++k;
  cs.at(col::fx, k) = 1.5;
  BOOST_TEST(cs.resultColumns());
  BOOST_TEST(cs.get(k).force.x() == 1.5);
  BOOST_TEST(sameKept() == 0u);
}

// Steps that keep no results (Scene::keepContactResults) leave every body and the ledger the same
// bits as steps that keep them, and the first step that keeps them again has every contact's results
// as if they had been kept throughout: a deposition with dashpots (walls and spheres) and a sheared
// periodic packing whose cell flips, on a pattern of steps with and without results.
BOOST_AUTO_TEST_CASE(steps_without_results_same_bits) {
  const auto compare = [](Scene a, Scene b, std::uint64_t steps) {
    std::size_t kept = 0, notKept = 0;
    for (std::uint64_t n = 1; n <= steps; ++n) {
      const bool keep = n % 7 == 0 || (n / 40) % 2 == 1;  // (single steps, and runs of 40)
      b.keepContactResults(keep);
      a.step();
      b.step();
      const Particles &p = a.particles, &q = b.particles;
      BOOST_TEST_REQUIRE(dem::test::sameBits(p.pos, q.pos));
      BOOST_TEST_REQUIRE(dem::test::sameBits(p.vel, q.vel));
      BOOST_TEST_REQUIRE(dem::test::sameBits(p.angVel, q.angVel));
      BOOST_TEST_REQUIRE(dem::test::sameBits(p.force, q.force));
      BOOST_TEST_REQUIRE(dem::test::sameBits(p.torque, q.torque));
      BOOST_TEST_REQUIRE(dem::test::sameValue(a.energy.total(), b.energy.total()));
      BOOST_TEST_REQUIRE(dem::test::sameValue(a.energy.elastic, b.energy.elastic));
      BOOST_TEST_REQUIRE(b.contacts.resultColumns() == keep);
      BOOST_TEST_REQUIRE(a.contacts.size() == b.contacts.size());
      if (!keep) {
        ++notKept;
        BOOST_TEST_REQUIRE(b.contacts.width() < a.contacts.width());
        BOOST_CHECK_THROW(b.contacts.values(), std::logic_error);
        continue;
      }
      ++kept;
      std::size_t differ = 0;
      for (std::size_t k = 0; k < a.contacts.size(); ++k) differ += !sameContact(a.contacts.get(k), b.contacts.get(k));
      BOOST_TEST_REQUIRE(differ == 0u);
    }
    BOOST_TEST(kept > 10u);
    BOOST_TEST(notKept > 10u);
    std::size_t real = 0;
    for (std::size_t k = 0; k < a.contacts.size(); ++k) real += a.contacts.real(k);
    BOOST_TEST(real > 100u);
  };
  const Scene d = dem::test::pourWithDashpots(1500);
  BOOST_TEST_REQUIRE(d.contacts.dashpotColumns());
  compare(d, d, 200);
  const Scene c = dem::test::shearedLattice(9, 0.52 / 9, 200);
  compare(c, c, 240);

  // a scene with a mesh keeps them (the meshes' work reads them)
  Scene m = stirredPour(20, true);
  m.keepContactResults(false);
  m.step();
  BOOST_TEST(m.contacts.resultColumns());
}

BOOST_AUTO_TEST_SUITE_END()
