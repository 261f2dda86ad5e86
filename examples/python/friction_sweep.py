#!/usr/bin/env python3
"""Friction sweep: a sphere on a 30 degree slope, for friction coefficients mu from 0 to 0.8.

Notebook-style example of the Python module (docs/python.md). Run from the source tree after
building the release preset:

    PYTHONPATH=build/release/python python3 examples/python/friction_sweep.py

For each mu two scenes are built from Python: a *block* (a sphere whose rotations are blocked, so
it can only slide) and a free *sphere* (it may roll). The slope is a horizontal wall with tilted
gravity. Each scene runs 0.3 s; a callback records the velocity along the slope every 10 steps, and
the acceleration is the slope of a straight-line fit over the last two thirds (after the contact
has settled). Theory (Coulomb friction, rigid bodies):

    block:  a = g (sin t - mu cos t)  while mu < tan t, else 0 (it sticks)
    sphere: a = g (sin t - mu cos t)  while mu < (2/7) tan t (rolling with slip), else (5/7) g sin t

The contacts' shear-to-normal force ratio |F_s|/|F_n| is mu while sliding and tan t (block) or
(2/7) tan t (rolling sphere) while sticking. The plot (Agg backend) goes to friction_sweep.png, or
to --out FILE; --quick runs a shorter sweep (the CTest test python.example.friction_sweep).
"""

import argparse
import math
import sys
import time

import numpy as np

try:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
except ImportError:  # the example needs matplotlib (Debian: python3-matplotlib)
    print("friction_sweep: matplotlib not available; skipped", file=sys.stderr)
    sys.exit(77)

import dem

G = 9.81
THETA = math.radians(30.0)
RADIUS = 0.01


def slope_scene(mu, roll):
    """A sphere resting on a horizontal wall, gravity tilted by THETA along +x."""
    scene = dem.Scene()
    # restitution < 1: dashpots damp the normal bounce of the first touch (no global damping, which
    # would also slow the sliding)
    scene.add_material(dem.Material(density=2600, young=1e7, ks_ratio=0.2, friction=mu, restitution=0.2), "stone")
    scene.add_wall([0, 0, 0], [0, 0, 1], material="stone")
    scene.add_sphere([0, 0, RADIUS], RADIUS, material="stone", blocked="" if roll else "XYZ")
    scene.gravity = [G * math.sin(THETA), 0, -G * math.cos(THETA)]
    scene.dt = 2e-5
    return scene


def run_one(mu, roll, duration):
    scene = slope_scene(mu, roll)
    times, vx, ratios = [], [], []

    def record(s):
        times.append(s.time)
        vx.append(s.velocities[1, 0])  # particle 1 is the sphere (0 is the wall)
        c = s.contacts()
        if len(c["id1"]):
            ratios.append(np.linalg.norm(c["shear_force"][0]) / np.linalg.norm(c["normal_force"][0]))

    scene.run(int(round(duration / scene.dt)), callback=record, every=10)
    times, vx = np.array(times), np.array(vx)
    late = times > duration / 3
    accel = np.polyfit(times[late], vx[late], 1)[0]
    ratio = float(np.mean(ratios[len(ratios) // 3:]))
    return accel, ratio


def theory(mu, roll):
    sliding = G * (math.sin(THETA) - mu * math.cos(THETA))
    if roll:
        return sliding if mu < 2 / 7 * math.tan(THETA) else 5 / 7 * G * math.sin(THETA)
    return sliding if mu < math.tan(THETA) else 0.0


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--quick", action="store_true", help="fewer friction values, shorter runs")
    ap.add_argument("--out", default="friction_sweep.png", help="the plot (PNG)")
    args = ap.parse_args()

    mus = np.linspace(0.0, 0.8, 5 if args.quick else 17)
    duration = 0.15 if args.quick else 0.3
    start = time.perf_counter()
    rows = []
    print(f"{'mu':>5} {'a_block':>9} {'theory':>9} {'a_sphere':>9} {'theory':>9} {'Fs/Fn blk':>9} {'Fs/Fn sph':>9}")
    for mu in mus:
        ab, rb = run_one(mu, False, duration)
        asph, rs = run_one(mu, True, duration)
        rows.append((mu, ab, asph, rb, rs))
        print(f"{mu:5.2f} {ab:9.4f} {theory(mu, False):9.4f} {asph:9.4f} {theory(mu, True):9.4f} {rb:9.4f} {rs:9.4f}")
    elapsed = time.perf_counter() - start
    rows = np.array(rows)

    fine = np.linspace(0.0, 0.8, 401)
    fig, (ax1, ax2) = plt.subplots(1, 2, figsize=(10, 4))
    ax1.plot(fine, [theory(m, False) for m in fine], "C0-", lw=1, label="block, theory")
    ax1.plot(fine, [theory(m, True) for m in fine], "C1-", lw=1, label="sphere, theory")
    ax1.plot(rows[:, 0], rows[:, 1], "C0o", label="block (rotations blocked)")
    ax1.plot(rows[:, 0], rows[:, 2], "C1s", mfc="none", label="sphere (free to roll)")
    ax1.set_xlabel("friction coefficient mu")
    ax1.set_ylabel("acceleration along the slope (m/s$^2$)")
    ax1.set_title("30 degree slope")
    ax1.legend(fontsize=8)
    ax2.plot(fine, np.minimum(fine, math.tan(THETA)), "C0-", lw=1, label="block: min(mu, tan t)")
    ax2.plot(fine, np.minimum(fine, 2 / 7 * math.tan(THETA)), "C1-", lw=1, label="sphere: min(mu, 2/7 tan t)")
    ax2.plot(rows[:, 0], rows[:, 3], "C0o")
    ax2.plot(rows[:, 0], rows[:, 4], "C1s", mfc="none")
    ax2.set_xlabel("friction coefficient mu")
    ax2.set_ylabel("|F_s| / |F_n| of the contact")
    ax2.legend(fontsize=8)
    fig.tight_layout()
    fig.savefig(args.out, dpi=100)
    print(f"{2 * len(mus)} runs in {elapsed:.2f} s; plot: {args.out}")

    # The sweep is also a check: every acceleration within 0.2 % of g of the theory.
    worst = max(max(abs(r[1] - theory(r[0], False)), abs(r[2] - theory(r[0], True))) for r in rows)
    if worst > 0.002 * G:
        print(f"friction_sweep: acceleration off the theory by {worst:.4f} m/s^2", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
