"""The module gives dem-run's bits: example scenes run through Python for N steps against dem-run
run for the same steps (--steps N): every particle array of dem-run's final checkpoint, its ledger
and its real contacts byte for byte, and every row of its series.csv (ledger terms, contact count,
the listed particles' position, velocity, angular velocity; %.17g reads back exactly) against the
values a callback records at the same steps.

Scenes: deposition_box (Cundall, walls, friction, damping), hertz_pour (Hertz-Mindlin, dashpots),
clump_tumbling (clumps, aspherical bodies), sheared_periodic_packing (periodic sheared cell, dt from
the stiffness estimate)."""

import csv
import math
import json
import os
import subprocess
import unittest

import numpy as np

import dem
from _common import EXAMPLES, work_dir

LEDGER_COLUMNS = {"ledger_time": "time", "kinetic": "kinetic", "rotational": "rotational", "gravity": "gravity",
                  "elastic": "elastic", "damping_dissipated": "damping_dissipated",
                  "friction_dissipated": "friction_dissipated", "viscous_dissipated": "viscous_dissipated",
                  "spring_dissipated": "spring_dissipated", "total": "total", "cell_work": "cell_work",
                  "boundary_work": "boundary_work"}
ARRAYS = ("positions", "velocities", "angular_velocities", "forces", "torques")


class Run:
    """One scene run by dem-run and by the module for `steps` steps."""

    def __init__(self, name, steps):
        program = os.environ.get("DEM_RUN")
        if not program or not os.path.exists(program):
            raise unittest.SkipTest("DEM_RUN (the dem-run program) not given")
        scene_file = os.path.join(EXAMPLES, name + ".json")
        with open(scene_file) as f:
            interval = json.load(f)["outputs"]["csv"]["interval"]
        out = work_dir("bit-identity-" + name)
        subprocess.run([program, "--quiet", "--steps", str(steps), "--out", out, scene_file], check=True)
        self.reference = dem.load_checkpoint(os.path.join(out, "final.ckpt"))
        with open(os.path.join(out, "series.csv"), newline="") as f:
            self.rows = list(csv.DictReader(f))
        self.particles = sorted({int(c[1:].split("_")[0]) for c in self.rows[0] if c.startswith("p") and c[1:2].isdigit()})

        self.recorded = []
        self.python = dem.load_scene(scene_file)

        def record(scene):
            values = [np.concatenate((scene.positions[i], scene.velocities[i], scene.angular_velocities[i]))
                      for i in self.particles]
            self.recorded.append({"step": scene.step_count, "time": scene.time, "energy": scene.energy,
                                  "contacts": scene.num_contacts, "particles": values})

        self.python.run(steps, callback=record, every=interval)
        self.steps, self.interval = steps, interval


class BitIdentityBase:
    scene, steps, min_contacts = None, 0, 0

    @classmethod
    def setUpClass(cls):
        cls.result = Run(cls.scene, cls.steps)

    def test_final_state(self):
        py, ref = self.result.python, self.result.reference
        self.assertEqual(py.step_count, self.steps)
        self.assertEqual(ref.step_count, self.steps)
        self.assertEqual(py.time, ref.time)
        self.assertEqual(py.dt, ref.dt)
        self.assertGreaterEqual(py.num_contacts, self.min_contacts)
        for name in ARRAYS:
            a, b = getattr(py, name), getattr(ref, name)
            self.assertEqual(a.shape, (len(py), 3))
            # bit for bit: the same float64 bytes (array_equal would also accept -0.0 == 0.0)
            self.assertEqual(a.tobytes(), b.tobytes(), name)
        self.assertEqual(py.energy, ref.energy)
        a, b = py.contacts(), ref.contacts()
        for k in a:
            self.assertEqual(a[k].tobytes(), b[k].tobytes(), k)

    def test_csv_rows(self):
        rows, mine = self.result.rows, self.result.recorded
        # the row of step 0 (the initial state) has nan in the columns of ledger_time
        self.assertEqual(int(rows[0]["step"]), 0)
        self.assertTrue(math.isnan(float(rows[0]["total"])))
        rows = rows[1:]
        self.assertEqual(len(rows), self.steps // self.result.interval)
        self.assertEqual(len(mine), len(rows))
        for row, rec in zip(rows, mine):
            self.assertEqual(int(row["step"]), rec["step"])
            self.assertEqual(float(row["time"]), rec["time"])
            self.assertEqual(int(row["contacts"]), rec["contacts"])
            for column, key in LEDGER_COLUMNS.items():
                if column in row:
                    self.assertEqual(float(row[column]), rec["energy"][key], (row["step"], column))
            for i, values in zip(self.result.particles, rec["particles"]):
                text = [float(row[f"p{i}_{c}"]) for c in ("x", "y", "z", "vx", "vy", "vz", "wx", "wy", "wz")]
                self.assertEqual(np.array(text).tobytes(), values.tobytes(), (row["step"], i))


class DepositionBox(BitIdentityBase, unittest.TestCase):
    scene, steps, min_contacts = "deposition_box", 12000, 100


class HertzPour(BitIdentityBase, unittest.TestCase):
    scene, steps, min_contacts = "hertz_pour", 12000, 100


class ClumpTumbling(BitIdentityBase, unittest.TestCase):
    scene, steps, min_contacts = "clump_tumbling", 16000, 0


class ShearedPeriodicPacking(BitIdentityBase, unittest.TestCase):
    scene, steps, min_contacts = "sheared_periodic_packing", 4000, 1


if __name__ == "__main__":
    unittest.main()
