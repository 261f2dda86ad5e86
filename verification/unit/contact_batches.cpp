// Unit: the contact loop evaluates the contacts that were real in batches of kLanes lanes
// (solver/contact_kernel.hpp); a contact's result must not depend on which batch or lane it falls
// in, nor on what the other lanes hold (sphere-sphere or sphere-wall contacts, stale data of an
// earlier batch, idle lanes, contacts that form in this stage). Reference: the same contact store in reversed order, which
// puts almost every contact in a different lane next to different neighbours; every contact's
// history, force, torques and energies must be the same bits. The per-particle sums then add the
// same terms in another order: equal to within the bound of recursive summation.
#include "solver/builders.hpp"
#include "solver/contact_loop.hpp"
#include "solver/lanes.hpp"
#include "unit/same_bits.hpp"

#include <boost/test/unit_test.hpp>

#include <cmath>
#include <limits>
#include <vector>

using namespace dem;

using dem::test::sameContact;

BOOST_AUTO_TEST_SUITE(contact_batches)

BOOST_AUTO_TEST_CASE(result_does_not_depend_on_the_batch) {
  // A stirred frictional pour in mid-flight: contacts forming, sliding and breaking, walls.
  DepositionSpec spec;
  spec.n = 600;
  spec.material.frictionAngle = 0.5;
  spec.speed = 0.3;
  Scene s = depositionScene(spec);
  s.run(5000);
  BOOST_TEST_REQUIRE(s.contacts.countReal() > 100u);
  BOOST_TEST_MESSAGE("lanes per batch: " << kLanes << ", contacts: " << s.contacts.size()
                                         << ", real: " << s.contacts.countReal());

  ContactStore forward, reversed;
  for (const Contact& c : s.contacts.records()) forward.add(c);
  for (std::size_t k = s.contacts.size(); k-- > 0;) reversed.add(s.contacts.get(k));
  Particles pf = s.particles, pr = s.particles;
  ContactScratch scratch;
  const ContactStageResult ef = contactStage(pf, s.materials, forward, s.dt(), scratch);
  const ContactStageResult er = contactStage(pr, s.materials, reversed, s.dt(), scratch);

  std::size_t differing = 0, kernelLanes = 0;
  const std::size_t n = forward.size();
  for (std::size_t k = 0; k < n; ++k) {
    const Contact &a = forward.get(k), &b = reversed.get(n - 1 - k);
    if (!sameContact(a, b)) ++differing;
    if (a.real) ++kernelLanes;
  }
  BOOST_TEST(kernelLanes > 100u);
  BOOST_TEST(differing == 0u);

  // Per-particle sums and energies: the same terms in another order. Recursive summation of m terms
  // is within (m - 1) eps sum|terms| of the exact sum, so two orders differ by at most twice that.
  const double eps = std::numeric_limits<double>::epsilon();
  std::vector<double> sumAbs(pf.size()), terms(pf.size(), 1.0);
  for (std::size_t i = 0; i < pf.size(); ++i) sumAbs[i] = s.particles.force[i].norm();
  for (const Contact& c : forward.records())
    for (const std::uint32_t i : {c.id1, c.id2}) {
      sumAbs[i] += c.force.norm();
      terms[i] += 1.0;
    }
  std::size_t outside = 0;
  for (std::size_t i = 0; i < pf.size(); ++i)
    if ((pf.force[i] - pr.force[i]).norm() > 2.0 * terms[i] * eps * sumAbs[i]) ++outside;
  BOOST_TEST(outside == 0u);
  BOOST_TEST(std::abs(ef.elastic - er.elastic) <= 2.0 * static_cast<double>(n) * eps * ef.elastic);
}

BOOST_AUTO_TEST_SUITE_END()
