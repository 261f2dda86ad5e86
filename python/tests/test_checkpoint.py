"""Checkpoints from Python: save, load, and a resumed run bit-identical to a straight one."""

import os
import unittest

import numpy as np

import dem
from _common import EXAMPLES, work_dir

FIELDS = ("positions", "velocities", "angular_velocities", "forces", "torques", "radii", "masses")


class Checkpoints(unittest.TestCase):
    def test_roundtrip_and_resume(self):
        d = work_dir("checkpoint")
        scene_file = os.path.join(EXAMPLES, "deposition_box.json")
        straight = dem.load_scene(scene_file)
        straight.run(300)

        first = dem.load_scene(scene_file)
        first.run(150)
        path = os.path.join(d, "half.ckpt")
        first.save_checkpoint(path)
        resumed = dem.load_checkpoint(path)
        self.assertEqual(resumed.step_count, 150)
        self.assertEqual(resumed.time, first.time)
        self.assertEqual(resumed.dt, first.dt)
        self.assertEqual(resumed.damping, first.damping)
        self.assertEqual(resumed.energy, first.energy)
        for name in FIELDS:
            self.assertTrue(np.array_equal(getattr(resumed, name), getattr(first, name)), name)
        self.assertEqual(len(resumed.materials), 1)
        self.assertEqual(resumed.materials[0].young, 1e7)

        resumed.run(150)
        self.assertEqual(resumed.step_count, 300)
        for name in FIELDS:
            self.assertTrue(np.array_equal(getattr(resumed, name), getattr(straight, name)), name)
        self.assertEqual(resumed.energy, straight.energy)
        a, b = resumed.contacts(), straight.contacts()
        self.assertEqual(a.keys(), b.keys())
        for k in a:
            self.assertTrue(np.array_equal(a[k], b[k]), k)

    def test_copy(self):
        import copy

        a = dem.load_scene(os.path.join(EXAMPLES, "deposition_box.json"))
        a.run(100)
        b = a.copy()
        c = copy.deepcopy(a)
        self.assertEqual(b.material_names, ["sand"])
        for s in (a, b, c):
            s.run(200)
        for name in FIELDS:
            self.assertEqual(getattr(a, name).tobytes(), getattr(b, name).tobytes(), name)
            self.assertEqual(getattr(a, name).tobytes(), getattr(c, name).tobytes(), name)
        b.run(1)
        self.assertEqual(a.step_count + 1, b.step_count)

    def test_save_scene_file(self):
        """A scene built in Python, written as a scene file and read back: the same bits after 6000 steps."""
        s = dem.Scene()
        s.add_material(dem.Material(density=2500, young=5e6, friction=0.6, restitution=0.6, poisson=0.3), "glass")
        s.add_material(dem.Material(density=7800, young=2e8), "steel")
        s.add_wall([0, 0, 0], [0, 0, 1], material="steel")
        s.add_wall([-0.05, 0, 0], [1, 0, 0], material="steel")
        for k in range(6):
            s.add_sphere([0.012 * k - 0.03, 0.001 * k, 0.02 + 0.003 * k], 0.005, material="glass",
                         vel=[0.1, 0, -0.2], blocked="Z" if k == 2 else "")
        s.add_body([0.04, 0, 0.03], mass=0.002, inertia=[1e-7, 2e-7, 3e-7], radius=0.006, material="steel",
                   ang_vel=[0, 5, 0])
        s.add_clump([3, 4])
        s.gravity = [0, 0, -9.81]
        s.law = "hertzMindlin"
        s.damping = 0.1
        s.set_dt_from_stiffness(0.3, 100)
        path = os.path.join(work_dir("save-scene"), "built.json")
        s.save_scene(path, steps=6000)
        loaded = dem.load_scene(path)
        self.assertEqual(loaded.file_steps, 6000)
        self.assertEqual(loaded.material_names, ["glass", "steel"])
        self.assertEqual(loaded.law, "hertzMindlin")
        self.assertEqual(len(loaded), len(s))
        s.run(6000)
        loaded.run(6000)
        self.assertGreater(s.num_contacts, 0)
        for name in FIELDS:
            self.assertEqual(getattr(s, name).tobytes(), getattr(loaded, name).tobytes(), name)
        self.assertEqual(s.energy, loaded.energy)
        with self.assertRaisesRegex(ValueError, "initial state"):
            s.save_scene(path)

    def test_save_scene_order(self):
        s = dem.Scene()
        s.add_material(dem.Material())
        s.add_sphere([0, 0, 1], 0.1)
        s.add_wall([0, 0, 0], [0, 0, 1])
        s.dt = 1e-4
        with self.assertRaisesRegex(ValueError, "walls first"):
            s.scene_json()

    def test_built_scene_checkpoint(self):
        s = dem.Scene()
        s.add_material(dem.Material(restitution=0.5), "rubber")
        s.add_wall([0, 0, 0], [0, 0, 1])
        s.add_sphere([0, 0, 0.05], 0.01, vel=[0.1, 0, 0])
        s.gravity = [0, 0, -9.81]
        s.dt = 1e-5
        s.law = "hertzMindlin"
        s.run(10)
        path = os.path.join(work_dir("checkpoint-built"), "s.ckpt")
        s.save_checkpoint(path)
        r = dem.load_checkpoint(path)
        self.assertEqual(r.law, "hertzMindlin")
        self.assertEqual(r.materials[0].restitution, 0.5)
        s.run(500)
        r.run(500)
        self.assertTrue(np.array_equal(s.positions, r.positions))


if __name__ == "__main__":
    unittest.main()
