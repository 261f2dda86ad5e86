// Test unit.assert_fires (built with DEM_ASSERTIONS only): a DEM_ASSERT of the library fires. A
// sphere-sphere contact stored with its ids out of order (id1 after id2 in user ids) breaks an invariant of the
// contact store; ContactStore::assertInvariants must print the file, line, condition and message
// and abort (assert_fires.cmake checks the exit and the message).
#include "solver/assert.hpp"
#include "solver/contacts.hpp"
#include "solver/particles.hpp"

#include <cstdio>

int main() {
  static_assert(dem::kAssertions, "built with DEM_ASSERTIONS only");
  dem::Particles p;
  p.add(dem::sphereSpec(dem::Vec3(0, 0, 0), 0.1, 1000));
  p.add(dem::sphereSpec(dem::Vec3(0.15, 0, 0), 0.1, 1000));
  dem::ContactStore contacts;
  dem::Contact good;
  good.id1 = 0;
  good.id2 = 1;
  contacts.add(good);
  contacts.assertInvariants(p);  // holds
  std::puts("invariants hold for a valid contact");
  std::fflush(stdout);  // before the abort
  contacts.clear();
  dem::Contact bad = good;
  bad.id1 = 1;
  bad.id2 = 0;
  contacts.add(bad);
  contacts.assertInvariants(p);  // aborts
  std::puts("DEM_ASSERT did not fire");
  return 0;
}
