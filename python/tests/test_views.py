"""NumPy views of the particle arrays: zero copy, read-only, lifetime, and the resize guard."""

import gc
import unittest

import numpy as np

import dem


def falling(n=3):
    s = dem.Scene()
    s.add_material(dem.Material())
    for k in range(n):
        s.add_sphere([0.3 * k, 0, 1], 0.1, vel=[0, 0, k])
    s.gravity = [0, 0, -9.81]
    s.dt = 1e-3
    return s


class Views(unittest.TestCase):
    def test_shapes_and_types(self):
        s = falling()
        for name in ("positions", "velocities", "angular_velocities", "forces", "torques"):
            a = getattr(s, name)
            self.assertEqual(a.shape, (3, 3), name)
            self.assertEqual(a.dtype, np.float64, name)
            self.assertFalse(a.flags.writeable, name)
            self.assertFalse(a.flags.owndata, name)
            self.assertTrue(a.flags.c_contiguous, name)
        self.assertEqual(s.radii.shape, (3,))
        np.testing.assert_array_equal(s.radii, [0.1, 0.1, 0.1])
        np.testing.assert_array_equal(s.ids, [0, 1, 2])
        np.testing.assert_array_equal(s.positions[:, 0], [0, 0.3, 0.6])

    def test_zero_copy_follows_steps(self):
        s = falling()
        pos = s.positions
        z0 = pos[0, 2]
        s.run(10)
        self.assertLess(pos[0, 2], z0)  # the same memory, updated by the steps
        self.assertTrue(np.shares_memory(pos, s.positions))
        with self.assertRaises(ValueError):
            pos[0, 0] = 1.0

    def test_view_keeps_scene_alive(self):
        s = falling()
        v = s.velocities[1:]
        del s
        gc.collect()
        self.assertEqual(v.shape, (2, 3))
        self.assertEqual(v[0, 2], 1.0)

    def test_resize_refused_while_views_live(self):
        s = falling()
        pos = s.positions
        self.assertEqual(s.live_views, 1)
        with self.assertRaisesRegex(RuntimeError, "NumPy view"):
            s.add_sphere([5, 0, 0], 0.1)
        copy = np.array(pos)
        del pos
        gc.collect()
        self.assertEqual(s.live_views, 0)
        s.add_sphere([5, 0, 0], 0.1)
        self.assertEqual(s.positions.shape, (4, 3))
        np.testing.assert_array_equal(s.positions[:3], copy)

    def test_empty_scene(self):
        s = dem.Scene()
        self.assertEqual(s.positions.shape, (0, 3))
        self.assertEqual(s.radii.shape, (0,))
        self.assertEqual(len(s.contacts()["id1"]), 0)

    def test_set_velocity(self):
        s = falling()
        s.set_velocity(0, [1, 2, 3])
        np.testing.assert_array_equal(s.velocities[0], [1, 2, 3])


if __name__ == "__main__":
    unittest.main()
