"""The module gives dem-run's bits: an example scene run through Python for N steps against dem-run's
final checkpoint (every particle array, the ledger, the contacts) and its CSV rows (%.17g, which
reads back exactly) on the way."""

import csv
import os
import subprocess
import unittest

import numpy as np

import dem
from _common import EXAMPLES, work_dir

STEPS = 600  # deposition_box: 300 spheres poured into a box of five walls; the CSV every 100 steps


class BitIdentity(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        program = os.environ.get("DEM_RUN")
        if not program or not os.path.exists(program):
            raise unittest.SkipTest("DEM_RUN (the dem-run program) not given")
        cls.scene_file = os.path.join(EXAMPLES, "deposition_box.json")
        cls.out = work_dir("bit-identity")
        subprocess.run([program, "--quiet", "--steps", str(STEPS), "--out", cls.out, cls.scene_file], check=True)
        cls.reference = dem.load_checkpoint(os.path.join(cls.out, "final.ckpt"))
        with open(os.path.join(cls.out, "series.csv"), newline="") as f:
            cls.rows = list(csv.DictReader(f))

        cls.rows_py = []
        cls.python = dem.load_scene(cls.scene_file)

        def record(scene):
            e = scene.energy
            p = scene.positions[5], scene.velocities[5], scene.angular_velocities[5]
            cls.rows_py.append({"step": scene.step_count, "time": scene.time, "energy": e,
                                "contacts": scene.num_contacts, "p5": np.concatenate(p)})

        cls.python.run(STEPS, callback=record, every=100)

    def test_final_state(self):
        py, ref = self.python, self.reference
        self.assertEqual(py.step_count, STEPS)
        self.assertEqual(ref.step_count, STEPS)
        self.assertEqual(py.time, ref.time)
        self.assertGreater(py.num_contacts, 0)  # the pour has reached the floor
        for name in ("positions", "velocities", "angular_velocities", "forces", "torques"):
            a, b = getattr(py, name), getattr(ref, name)
            self.assertEqual(a.shape, (305, 3))
            # bit for bit: the same float64 bytes (array_equal would also accept -0.0 == 0.0)
            self.assertEqual(a.tobytes(), b.tobytes(), name)
        self.assertEqual(py.energy, ref.energy)
        a, b = py.contacts(), ref.contacts()
        for k in a:
            self.assertEqual(a[k].tobytes(), b[k].tobytes(), k)

    def test_csv_rows(self):
        self.assertEqual(len(self.rows), STEPS // 100)
        names = {"kinetic": "kinetic", "rotational": "rotational", "gravity": "gravity", "elastic": "elastic",
                 "damping_dissipated": "damping_dissipated", "friction_dissipated": "friction_dissipated",
                 "viscous_dissipated": "viscous_dissipated", "spring_dissipated": "spring_dissipated",
                 "total": "total", "ledger_time": "time"}
        for row, mine in zip(self.rows, self.rows_py):
            self.assertEqual(int(row["step"]), mine["step"])
            self.assertEqual(float(row["time"]), mine["time"])
            self.assertEqual(int(row["contacts"]), mine["contacts"])
            for column, key in names.items():
                self.assertEqual(float(row[column]), mine["energy"][key], (row["step"], column))
            p5 = [float(row["p5_" + c]) for c in ("x", "y", "z", "vx", "vy", "vz", "wx", "wy", "wz")]
            self.assertEqual(np.array(p5).tobytes(), mine["p5"].tobytes(), row["step"])


if __name__ == "__main__":
    unittest.main()
