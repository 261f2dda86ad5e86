"""Building scenes from Python, stepping, callbacks, the ledger and contacts."""

import math
import os
import unittest

import numpy as np

import dem
from _common import EXAMPLES


def two_spheres():
    s = dem.Scene()
    steel = s.add_material(dem.Material(density=7800, young=2e8, ks_ratio=0.2, friction_angle=0.3), "steel")
    a = s.add_sphere([-0.0105, 0, 0], 0.01, material=steel, vel=[0.5, 0, 0])
    b = s.add_sphere([0.0105, 0, 0], 0.01, material="steel", vel=[-0.5, 0, 0])
    s.gravity = [0, 0, 0]
    s.dt = 1e-6
    s.verlet_dist = -0.1
    return s, a, b


class BuildScene(unittest.TestCase):
    def test_material(self):
        m = dem.Material(friction=0.5, restitution=0.7)
        self.assertAlmostEqual(m.friction_angle, math.atan(0.5), places=15)
        self.assertAlmostEqual(m.friction, 0.5, places=15)
        self.assertEqual(m.restitution, 0.7)
        m.young = 5e7
        self.assertEqual(m.young, 5e7)
        self.assertIn("Material(density=2600.0", repr(m))

    def test_settings(self):
        s = dem.Scene()
        s.add_material(dem.Material())
        s.dt = 2e-5
        s.damping = 0.3
        s.gravity = (0, 0, -9.81)
        s.law = "hertzMindlin"
        self.assertEqual(s.dt, 2e-5)
        self.assertEqual(s.damping, 0.3)
        self.assertEqual(list(s.gravity), [0, 0, -9.81])
        self.assertEqual(s.law, "hertzMindlin")
        s.law = "cundall"
        self.assertEqual(s.law, "cundall")
        self.assertEqual(s.material_names, ["material0"])
        w = s.add_wall([0, 0, 0], [0, 0, 2])
        self.assertEqual(w, 0)
        self.assertTrue(s.is_wall[0])
        p = s.add_sphere([0, 0, 0.1], 0.01, blocked="xyZ")
        self.assertEqual(s.blocked(p), "xyZ")
        self.assertEqual(len(s), 2)
        piston = s.add_wall([0, 0, 1], [0, 0, -1], vel=[0, 0, -0.5])
        self.assertEqual(list(s.velocities[piston]), [0, 0, -0.5])

    def test_same_bits_as_scene_file(self):
        """The Python-built two-sphere impact is the scene file's, bit for bit, after 2000 steps."""
        built, _, _ = two_spheres()
        loaded = dem.load_scene(os.path.join(EXAMPLES, "two_sphere_impact.json"))
        self.assertEqual(loaded.file_steps, 2000)
        self.assertEqual(loaded.material_names, ["steel"])
        built.run(2000)
        loaded.run(2000)
        self.assertEqual(built.step_count, 2000)
        for name in ("positions", "velocities", "angular_velocities", "forces"):
            self.assertTrue(np.array_equal(getattr(built, name), getattr(loaded, name)), name)
        self.assertEqual(built.energy, loaded.energy)

    def test_mesh_wall_is_the_analytic_wall(self):
        """A sphere sliding on a floor of two triangles (add_mesh) and on the wall z = 0: the same to round-off."""
        runs = []
        for mesh in (False, True):
            s = dem.Scene()
            s.add_material(dem.Material(density=2600, young=1e7, friction_angle=0.4))
            if mesh:
                floor = np.array([[[-1, -1, 0], [1, -1, 0], [1, 1, 0]], [[-1, -1, 0], [1, 1, 0], [-1, 1, 0]]], float)
                m, first, count = s.add_mesh(floor, name="floor")
                self.assertEqual((m, first, count), (0, 0, 2))
            else:
                s.add_wall([0, 0, 0], [0, 0, 1])
            s.add_sphere([0.001, 0.002, 0.0099989], 0.01, vel=[0.3, -0.2, 0])  # at its static overlap
            s.gravity = [0, 0, -9.81]
            s.dt = 1e-5
            s.run(3000)
            runs.append(s)
        self.assertGreater(runs[1].num_contacts, 0)
        # round-off: the facet's normal d/|d| is within an ulp of the wall's; 16 eps per step
        # (verification case facet_rolling) relative to R and |v0|
        bound = 16 * 3000 * np.finfo(float).eps
        self.assertLessEqual(np.abs(runs[0].positions[-1] - runs[1].positions[-1]).max(), bound * 0.01)
        self.assertLessEqual(np.abs(runs[0].velocities[-1] - runs[1].velocities[-1]).max(), bound * 0.36)
        self.assertLessEqual(np.abs(runs[0].angular_velocities[-1] - runs[1].angular_velocities[-1]).max(), bound * 36)
        with self.assertRaisesRegex(ValueError, "shape"):
            dem.Scene().add_mesh(np.zeros((2, 3)))

    def test_impact_physics(self):
        s, a, b = two_spheres()
        seen = []
        s.run(2000, callback=lambda sc: seen.append(sc.num_contacts), every=100)
        self.assertEqual(len(seen), 20)
        self.assertGreater(max(seen), 0)  # they touched
        v = s.velocities
        self.assertLess(v[a, 0], 0)  # and rebounded
        self.assertGreater(v[b, 0], 0)
        e = s.energy
        for key in ("kinetic", "rotational", "gravity", "elastic", "damping_dissipated", "friction_dissipated",
                    "viscous_dissipated", "spring_dissipated", "boundary_work", "cell_work", "total", "time", "step"):
            self.assertIn(key, e)
        # elastic impact, no damping: the ledger's total is conserved
        e0 = 2 * 0.5 * (7800 * 4 / 3 * math.pi * 1e-6) * 0.25
        self.assertAlmostEqual(e["total"], e0, delta=1e-4 * e0)  # up to the leapfrog's bounded term
        self.assertEqual(e["step"], 1999)

    def test_callback_stops(self):
        s, _, _ = two_spheres()
        s.run(100, callback=lambda sc: sc.step_count < 30, every=10)
        self.assertEqual(s.step_count, 30)
        s.step()
        self.assertEqual(s.step_count, 31)
        self.assertAlmostEqual(s.time, 31e-6, delta=1e-18)

    def test_callback_exception_propagates(self):
        s, _, _ = two_spheres()

        def boom(sc):
            raise KeyError("from the callback")

        with self.assertRaises(KeyError):
            s.run(10, callback=boom, every=5)
        self.assertEqual(s.step_count, 5)

    def test_contacts(self):
        s = dem.Scene()
        s.add_material(dem.Material(density=2600, young=1e7, friction_angle=0.4))
        s.add_wall([0, 0, 0], [0, 0, 1])
        s.add_sphere([0, 0, 0.0099], 0.01)
        s.gravity = [0, 0, -9.81]
        s.dt = 1e-5
        s.step()
        c = s.contacts()
        self.assertEqual(len(c["id1"]), 1)
        self.assertEqual((c["id1"][0], c["id2"][0]), (1, 0))  # sphere, wall
        self.assertTrue(c["is_wall"][0])
        self.assertAlmostEqual(c["overlap"][0], 1e-4, delta=1e-9)
        fn, fs = c["normal_force"][0], c["shear_force"][0]
        np.testing.assert_array_equal(fn + fs, c["force"][0])
        self.assertAlmostEqual(abs(c["normal"][0, 2]), 1.0, places=15)
        self.assertGreater(np.linalg.norm(fn), 0)
        self.assertLess(np.linalg.norm(fs), 1e-12 * np.linalg.norm(fn) + 1e-300)
        # the sphere's force is gravity plus the contact's (on id1)
        m = s.masses[1]
        np.testing.assert_allclose(s.forces[1], c["force"][0] + m * np.array([0, 0, -9.81]), rtol=1e-12)

    def test_dt_from_stiffness_and_clump(self):
        s = dem.Scene()
        s.add_material(dem.Material())
        a = s.add_sphere([0, 0, 1], 0.1)
        b = s.add_sphere([0.15, 0, 1], 0.1)
        c = s.add_clump([a, b])
        self.assertEqual(c, 2)
        s.set_dt_from_stiffness(0.5)
        s.gravity = [0, 0, -9.81]
        s.run(10)
        self.assertGreater(s.dt, 0)
        self.assertGreater(s.critical_timestep(), s.dt)

    def test_periodic_cell(self):
        s = dem.load_scene(os.path.join(EXAMPLES, "sheared_periodic_packing.json"))
        np.testing.assert_array_equal(s.cell, np.diag([0.087, 0.087, 0.087]))
        s.run(50)
        self.assertGreater(s.cell[0, 1], 0.0)  # sheared: dv_x/dy > 0 leans the second side along x
        self.assertEqual(s.stress.shape, (3, 3))
        self.assertIsNone(dem.Scene().cell)

    def test_add_body(self):
        s = dem.Scene()
        s.add_material(dem.Material())
        i = s.add_body([0, 0, 0], 1.0, [1, 2, 3], 0.1, ang_vel=[0, 0, 1], ori=[1, 0, 0, 0])
        s.dt = 1e-3
        s.run(10)
        self.assertEqual(i, 0)
        self.assertEqual(s.masses[0], 1.0)


if __name__ == "__main__":
    unittest.main()
