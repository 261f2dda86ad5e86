"""The library's errors as Python exceptions, with the library's messages."""

import json
import os
import unittest

import dem
from _common import SOURCE_DIR, work_dir


def _bad_young():
    m = dem.Material()
    m.young = -1.0  # attributes are checked when the material joins a scene
    return m


class Errors(unittest.TestCase):
    def test_invalid_argument_is_value_error(self):
        s = dem.Scene()
        s.add_material(dem.Material())
        with self.assertRaisesRegex(ValueError, "radius"):
            s.add_sphere([0, 0, 0], -1.0)
        with self.assertRaises(ValueError):
            s.dt = 0.0
        with self.assertRaises(ValueError):
            s.damping = 1.0
        with self.assertRaisesRegex(ValueError, "normal"):
            s.add_wall([0, 0, 0], [0, 0, 0])
        with self.assertRaisesRegex(ValueError, "law"):
            s.law = "coulomb"
        with self.assertRaisesRegex(ValueError, "xyzXYZ"):
            s.add_sphere([0, 0, 0], 1.0, blocked="q")
        with self.assertRaisesRegex(ValueError, "no material named"):
            s.add_sphere([0, 0, 0], 1.0, material="glass")
        with self.assertRaisesRegex(ValueError, r"^Material: frictionAngle = 2 is invalid"):
            dem.Material(friction_angle=2.0)
        with self.assertRaisesRegex(ValueError, r"^material 1: young = -1 is invalid"):
            s.add_material(_bad_young())
        with self.assertRaisesRegex(ValueError, r"^scene: dt = -1 is invalid; expected a finite value > 0$"):
            s.dt = -1.0
        with self.assertRaises(ValueError):
            s.add_material(dem.Material(), "material0")

    def test_scene_error(self):
        text = json.dumps({"materials": [{"name": "a", "density": -1}],
                           "engine": {"dt": 1e-3, "steps": 1}})
        with self.assertRaises(dem.SceneError) as cm:
            dem.load_scene_text(text, "bad.json")
        e = cm.exception
        self.assertIsInstance(e, ValueError)
        self.assertEqual(e.file, "bad.json")
        self.assertEqual(e.path, "materials[0].density")
        self.assertTrue(str(e).startswith("bad.json: materials[0].density: "), str(e))
        with self.assertRaises(dem.SceneError):
            dem.load_scene(os.path.join(SOURCE_DIR, "io", "tests", "bad_scene.json"))
        with self.assertRaisesRegex(dem.SceneError, "no-such-file.json"):
            dem.load_scene("no-such-file.json")

    def test_checkpoint_error(self):
        d = work_dir("errors")
        path = os.path.join(d, "garbage.ckpt")
        with open(path, "wb") as f:
            f.write(b"not a checkpoint at all")
        with self.assertRaises(dem.CheckpointError) as cm:
            dem.load_checkpoint(path)
        self.assertIsInstance(cm.exception, RuntimeError)
        self.assertIn("garbage.ckpt", str(cm.exception))

    def test_runaway(self):
        s = dem.load_scene(os.path.join(SOURCE_DIR, "io", "tests", "runaway.json"))
        with self.assertRaises(dem.RunawayError) as cm:
            s.run(s.file_steps)
        e = cm.exception
        self.assertIsInstance(e, RuntimeError)
        self.assertGreater(e.step, 0)
        self.assertGreater(e.dt, e.dt_critical)
        self.assertGreaterEqual(e.particle, 0)
        self.assertIn("step", str(e))

    def test_index_error(self):
        s = dem.Scene()
        with self.assertRaises(IndexError):
            s.blocked(3)


if __name__ == "__main__":
    unittest.main()
