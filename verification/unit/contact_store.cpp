// Unit: ContactStore::partitionReal, which the scene calls after every collider run so that the
// contact loop streams the records of real contacts only. Reference: the store before the call.
// Afterwards the real contacts come first and end at realEnd(), the set of pairs and every record
// are unchanged, the pair map gives each pair's new index, and a second call moves nothing.
#include "solver/builders.hpp"
#include "unit/same_bits.hpp"

#include <boost/test/unit_test.hpp>

#include <algorithm>
#include <cstdint>
#include <vector>

using namespace dem;

using dem::test::sameContact;

BOOST_AUTO_TEST_SUITE(contact_store)

BOOST_AUTO_TEST_CASE(partition_puts_real_contacts_first) {
  DepositionSpec spec;
  spec.n = 400;
  spec.speed = 0.3;
  Scene s = depositionScene(spec);
  s.run(4000);
  // The scene's store, partitioned at its last collider run, in reverse: real contacts mostly behind.
  ContactStore store;
  for (auto it = s.contacts.items.rbegin(); it != s.contacts.items.rend(); ++it) store.add(*it);
  const std::size_t real = store.countReal();
  BOOST_TEST_REQUIRE(real > 50u);
  BOOST_TEST_REQUIRE(real < store.size());
  const std::vector<Contact> before = store.items;
  BOOST_TEST_REQUIRE(!before.front().real);

  store.partitionReal();
  BOOST_TEST(store.realEnd() == real);
  std::size_t misplaced = 0, lost = 0, wrongIndex = 0;
  for (std::size_t k = 0; k < store.size(); ++k) {
    const Contact& c = store.items[k];
    if ((k < real) != (c.real != 0)) ++misplaced;
    if (store.find(c.id1, c.id2) != static_cast<std::int64_t>(k)) ++wrongIndex;
    if (std::find_if(before.begin(), before.end(), [&](const Contact& b) { return sameContact(b, c); }) == before.end())
      ++lost;
  }
  BOOST_TEST(misplaced == 0u);
  BOOST_TEST(wrongIndex == 0u);
  BOOST_TEST(lost == 0u);  // every record is one of the originals (and the sizes agree)
  BOOST_TEST(store.size() == before.size());

  const std::vector<Contact> once = store.items;
  store.partitionReal();
  BOOST_TEST(std::equal(once.begin(), once.end(), store.items.begin(), sameContact));
}

BOOST_AUTO_TEST_SUITE_END()
