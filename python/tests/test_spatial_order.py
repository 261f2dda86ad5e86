"""Spatial order (Scene.spatial_order): the solver may move spheres to other slots in storage, but
the module shows user ids only. A lattice of 11520 spheres added in a shuffled order (so that most
contacts join bodies far apart in storage and the spatial order renumbers them) falls on a floor
for 300 steps with the spatial order on and off, both summing in the order of user ids from the
first step (user_id_sums): every per-particle array, the contacts and the ledger are the same bits,
indexed by the ids add_sphere returned; while the bodies are renumbered
the arrays are read-only copies; a live view keeps the bodies in place (no renumbering)."""

import unittest

import numpy as np

import dem

SHAPE = (24, 24, 20)  # 11520 spheres: well above the spatial order's window of 4096 bodies
RADIUS = 0.005
SPACING = 0.01  # (the spheres touch their lattice neighbours)
STEPS = 300
ARRAYS = ("positions", "velocities", "angular_velocities", "forces", "torques", "radii", "masses")


def shuffled_lattice():
    """A floor wall (id 0), then the lattice's spheres in a shuffled order; returns the scene and
    the lattice site of each id."""
    s = dem.Scene()
    s.add_material(dem.Material(density=2600, young=1e7, friction=0.4), "m")
    assert s.add_wall([0, 0, 0], [0, 0, 1]) == 0
    nx, ny, nz = SHAPE
    sites = [(i, j, k) for k in range(nz) for j in range(ny) for i in range(nx)]
    order = np.random.default_rng(5).permutation(len(sites))
    site_of = {}
    for expected, p in enumerate(order, start=1):
        i, j, k = sites[p]
        uid = s.add_sphere([i * SPACING, j * SPACING, RADIUS + k * SPACING], RADIUS,
                           vel=[1e-3 * (expected % 7), 0, 0])
        assert uid == expected
        site_of[uid] = sites[p]
    s.gravity = [0, 0, -9.81]
    s.dt = 2e-5
    s.damping = 0.2
    return s, site_of


class SpatialOrderTest(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.runs = {}
        for on in (False, True):
            s, site_of = shuffled_lattice()
            s.spatial_order = on
            s.user_id_sums = True
            s.run(STEPS)
            cls.runs[on] = s
        cls.site_of = site_of

    def test_off_by_default_and_renumbered_when_on(self):
        self.assertFalse(dem.Scene().spatial_order)
        self.assertEqual(self.runs[False].renumberings, 0)
        self.assertGreater(self.runs[True].renumberings, 0)
        self.assertTrue(self.runs[True].spatial_order)

    def test_arrays_are_the_same_bits_per_id(self):
        for name in ARRAYS:
            off, on = getattr(self.runs[False], name), getattr(self.runs[True], name)
            self.assertEqual(off.shape, on.shape)
            self.assertEqual(off.tobytes(), on.tobytes(), name)
        self.assertEqual(self.runs[False].materials_of.tobytes(), self.runs[True].materials_of.tobytes())
        self.assertEqual(self.runs[False].is_wall.tolist(), self.runs[True].is_wall.tolist())
        self.assertEqual(self.runs[False].energy, self.runs[True].energy)

    def test_arrays_of_a_renumbered_scene_are_read_only_copies(self):
        s = self.runs[True]
        a = s.positions
        self.assertFalse(a.flags.writeable)
        self.assertEqual(s.live_views, 0)  # (a copy: no view of the storage)
        with self.assertRaises(ValueError):
            a[0, 0] = 1.0
        self.assertIn("copy", type(s).positions.__doc__)

    def test_ids_are_the_ids_add_sphere_returned(self):
        s = self.runs[True]
        self.assertTrue(s.is_wall[0])
        self.assertFalse(s.is_wall[1:].any())
        x = s.positions
        # each sphere is still near its lattice site (it fell by less than a radius)
        for uid in (1, 77, 5000, len(s) - 1):
            i, j, k = self.site_of[uid]
            self.assertLess(abs(x[uid, 0] - i * SPACING), RADIUS)
            self.assertLess(abs(x[uid, 1] - j * SPACING), RADIUS)
            self.assertLess(abs(x[uid, 2] - (RADIUS + k * SPACING)), RADIUS)
        self.assertEqual(s.blocked(3), "")

    def test_contacts_are_the_same_by_id(self):
        off, on = self.runs[False].contacts(), self.runs[True].contacts()
        self.assertGreater(len(on["id1"]), 1000)
        for key in off:
            self.assertEqual(off[key].tobytes(), on[key].tobytes(), key)
        walls = on["is_wall"]
        self.assertTrue(walls.any())
        self.assertTrue((on["id2"][walls] == 0).all())  # the floor's id
        spheres = ~walls
        self.assertTrue((on["id1"][spheres] < on["id2"][spheres]).all())
        # a contact joins lattice neighbours (by the ids' sites)
        for a, b in zip(on["id1"][spheres][:50], on["id2"][spheres][:50]):
            d = np.subtract(self.site_of[int(a)], self.site_of[int(b)])
            self.assertLessEqual(np.abs(d).max(), 1)

    def test_set_velocity_takes_an_id(self):
        s, _ = shuffled_lattice()
        s.spatial_order = True
        s.run(20)
        t = s.copy()
        self.assertGreater(s.renumberings, 0)
        s.set_velocity(4321, [0.5, 0, 0])
        self.assertEqual(s.velocities[4321, 0], 0.5)
        s.step()
        self.assertGreater(s.positions[4321, 0] - t.positions[4321, 0], 0.5 * s.dt * 0.9)

    def test_add_clump_after_renumbering(self):
        s, _ = shuffled_lattice()
        s.spatial_order = True
        s.run(20)
        self.assertGreater(s.renumberings, 0)
        before = np.array(s.positions)
        self.assertEqual(s.live_views, 0)
        body = s.add_clump([10, 11])  # (the bodies go back to the slots of their ids first)
        self.assertEqual(body, len(before))
        view = s.positions  # a view again
        self.assertEqual(s.live_views, 1)
        self.assertEqual(view[12:len(before)].tobytes(), before[12:].tobytes())
        del view

    def test_a_live_view_keeps_the_bodies_in_place(self):
        s, _ = shuffled_lattice()
        s.spatial_order = True
        view = s.positions
        self.assertEqual(s.live_views, 1)
        s.run(20)
        self.assertEqual(s.renumberings, 0)
        self.assertTrue(s.spatial_order)
        self.assertEqual(view.tobytes(), s.positions.tobytes())
        del view
        self.assertEqual(s.live_views, 0)


if __name__ == "__main__":
    unittest.main()
