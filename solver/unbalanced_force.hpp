#pragma once
// Yade's unbalanced force (Shop::unbalancedForce): the mean over the dynamic bodies of |F_i|, the
// total force on body i (gravity, contacts and external forces; a clump with its members' forces),
// divided by the mean magnitude |F_c| (normal + shear force) over the real contacts. Dynamic bodies
// are those that are not walls, not clump members and not fixed (some degree of freedom free).
// The forces are those of the last step's contact stage, at t_n = time - dt (the energy ledger's
// time). Sums run serially in id order: the same bits for any number of threads.

#include "contacts.hpp"
#include "particles.hpp"

namespace dem {

// NaN when there is no real contact or no dynamic body (Yade divides by zero there).
double unbalancedForce(const Particles& p, const ContactStore& contacts);

// The mean magnitude of the force of the real contacts (the denominator above); NaN without one.
double meanContactForce(const Particles& p, const ContactStore& contacts);

}  // namespace dem
