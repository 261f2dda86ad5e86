#!/usr/bin/env python3
"""The users' settled-bed scene (issue 18) as dem-run scene files with explicit particles.

Scene: monodisperse spheres r = 0.005 m, density 2600 kg/m^3, young 1e7 (Cundall: kn = E r =
5e4 N/m), ksRatio 0.3, friction coefficient 0.5, gravity 9.81, Cundall damping 0.4, dt = 4.031e-5 s,
Verlet distance 0.5 r. A floor of fixed spheres of the same size on a square grid of spacing 2.2 r
at z = 0 (40 x 40 = 1600 per tile, tile side 40 x 2.2 r = 0.44 m) and 8400 free spheres poured from
a loose staggered grid (deterministic jitter) and settled: 10^4 particles per tile.

Steps (python3 standard library only; every file goes to --dir, default build/peers, outside git):

  make_bed.py pour                 writes DIR/pour.json (periodic cell 0.44 x 0.44 x 1 m)
  make_bed.py settle --dem-run BIN runs BIN on pour.json (one thread, a VTK snapshot at the end) and
                                   converts the last snapshot into DIR/bed_1e4.json (settled tile)
  make_bed.py tile                 writes from the settled tile, for N = 1e4, 1e5 (2 x 5 tiles) and
                                   1e6 (10 x 10): DIR/bed_N_cell.json (periodic, cell H = the tiles'
                                   extent x 1 m) and DIR/bed_N_box.json (aperiodic: the same particles,
                                   floor only, no walls, no cell); with --sizes 5e4 also 5 x 10^4
                                   (1 x 5 tiles: the weak scaling of docs/mpi.md)
  make_bed.py all --dem-run BIN    the three in order
  make_bed.py pour-peer            writes the pour itself (its particles at rest, no outputs) for both
                                   codes: DIR/pour_1e4_cell.json, .in and .data (a dynamic scene: the
                                   collider runs every 50-500 steps; docs/performance.md, dynamic scenes)

`tile` also writes the same particles for LIGGGHTS 3.8 (Debian package `liggghts`): DIR/bed_N_cell.data
and bed_N_box.data (read_data, atom_style sphere: type 2 the floor, type 1 the free spheres, with their
velocities and angular velocities) and the input scripts DIR/bed_N_cell.in and bed_N_box.in, run from
DIR as `liggghts -in bed_N_cell.in -echo none -log none -var steps S` (benchmarks/peers/run_peers.py
times both codes). What LIGGGHTS runs differs from the dem-run scene in two ways:
  - damping: LIGGGHTS has no Cundall (non-viscous, per-particle) damping; its contacts get a light
    viscous normal damping instead (hooke/stiffness, gamman = 2 zeta sqrt(kn / m_eff), zeta = 0.1,
    restitution 0.73; no tangential damping): one more term per contact instead of one per particle;
  - neighbours: `neighbor 0.005 bin` (skin = r = 2 dL; `-var skin D` sets another) and
    `neigh_modify delay 0`: the list holds the pairs closer than 2 r + skin = 3 r and is rebuilt when a
    sphere has moved farther than skin / 2 = 0.5 r, as dem-run's Verlet distance dL = 0.5 r lists the
    pairs whose boxes (r + dL per side) overlap (|dx|, |dy|, |dz| < 3 r) and runs its collider when a
    body has moved farther than dL. Pairs of two floor spheres are excluded
    (`neigh_modify exclude type 2 2`), as dem-run never pairs fixed bodies.
The floor is not integrated (fix nve/sphere and gravity on the free spheres only); with `-var check 1`
the script also prints, every `checkEvery` steps, the atoms, the kinetic energy, twice the number of
overlapping pairs (compute contact/atom over all, summed) and the highest and lowest free centre.

The tiles repeat by translation: the settled tile is periodic in x and y, so the seams match.
Settled positions and velocities (on-step positions, mid-step velocities as dem-run writes them to
VTK) are written with 17 significant digits; orientations and contact histories are not (the bed
re-forms its contacts at the first step, with the same overlaps). The scene files run
`--steps`/engine.steps = 100 steps by default (`--steps N`), with no outputs but final.ckpt
switched off, so that dem-run measures load + steps.

Reproducible: the pour is deterministic (fixed-seed jitter) and dem-run's results do not depend on
the thread count; `settle` prints the coordination (overlapping pairs per free sphere, the floor's
contacts counting one end, as the benchmarks count walls) from the settled positions.
"""

import argparse
import glob
import json
import math
import os
import random
import re
import subprocess
import sys

R = 0.005
GRID = 2.2 * R          # floor grid spacing
NF = 40                 # floor spheres per side of a tile
L = NF * GRID           # tile side (0.44 m)
NFREE = 10000 - NF * NF  # free spheres per tile (8400)
LZ = 1.0                # cell period in z
DT = 4.031e-5
MATERIAL = {"name": "glass", "density": 2600, "young": 1e7, "ksRatio": 0.3, "friction": 0.5}
KN = MATERIAL["young"] * R      # Cundall law: kn = E r (5e4 N/m)
KT = MATERIAL["ksRatio"] * KN   # 1.5e4 N/m
ZETA = 0.1                      # LIGGGHTS' viscous normal damping ratio (no Cundall damping there)


def engine(steps):
    return {"dt": DT, "steps": steps, "gravity": [0, 0, -9.81], "damping": 0.4, "verletDist": -0.5, "threads": 1}


def floor(nx, ny):
    return [{"pos": [(i + 0.5) * GRID, (j + 0.5) * GRID, 0.0], "radius": R, "material": "glass", "fixed": True}
            for j in range(ny) for i in range(nx)]


def pour_particles():
    """Free spheres on a loose staggered grid: layers of m x m sites (spacing L/m > 2.6 r), every other
    layer shifted by half a site, 2.6 r apart in z from z = 2 r up, each site jittered by +-0.15 r."""
    rng = random.Random(18)
    m = 36
    a = L / m
    out = []
    layer = 0
    while len(out) < NFREE:
        shift = 0.5 * a if layer % 2 else 0.0
        z = 2.2 * R + layer * 2.6 * R
        for j in range(m):
            for i in range(m):
                if len(out) == NFREE:
                    break
                x = (i + 0.5) * a + shift + rng.uniform(-0.15, 0.15) * R
                y = (j + 0.5) * a + shift + rng.uniform(-0.15, 0.15) * R
                out.append({"pos": [x % L, y % L, z], "radius": R, "material": "glass"})
        layer += 1
    return out


def write(path, scene):
    with open(path, "w") as f:
        json.dump(scene, f, separators=(",", ":"))
        f.write("\n")
    print("wrote", path, file=sys.stderr)


def cmd_pour(args):
    os.makedirs(args.dir, exist_ok=True)
    steps = args.pour_steps
    scene = {
        "description": "Pour of the issue-18 bed: one 10^4-particle tile, periodic in x and y.",
        "materials": [MATERIAL],
        "cell": {"size": [L, L, LZ]},
        "particles": floor(NF, NF) + pour_particles(),
        "engine": engine(steps),
        "outputs": {"directory": os.path.join(args.dir, "pour-out"), "progress": False,
                    "csv": {"interval": 1000}, "vtk": {"interval": steps, "format": "ascii"}, "final": None},
    }
    write(os.path.join(args.dir, "pour.json"), scene)


NUM = r"[-+0-9.eE]+"


def read_vtu(path):
    """The point data of an ASCII .vtu written by dem-run (io/vtk_output.cpp): {name: [floats]}."""
    text = open(path).read()
    out = {}
    for m in re.finditer(r'<DataArray[^>]*Name="(\w+)"[^>]*>([^<]*)</DataArray>', text):
        out[m.group(1)] = [float(v) for v in re.findall(NUM, m.group(2))]
    pts = re.search(r"<Points>\s*<DataArray[^>]*>([^<]*)</DataArray>", text)
    out["Points"] = [float(v) for v in re.findall(NUM, pts.group(1))]
    return out


def touching(free):
    """Overlapping pairs (centre distance < 2 r, periodic in x and y) among the free spheres and
    between free spheres and the floor, from the positions (a grid of 2 r cells)."""
    m = int(L / (2 * R))
    w = L / m
    cells = {}
    floor_pos = [p["pos"] for p in floor(NF, NF)]
    items = [(p["pos"], False) for p in free] + [(q, True) for q in floor_pos]
    for k, (x, _) in enumerate(items):
        cells.setdefault((int(x[0] / w) % m, int(x[1] / w) % m, int(x[2] // w)), []).append(k)
    ff = fl = 0
    for (cx, cy, cz), ks in cells.items():
        for dx in (-1, 0, 1):
            for dy in (-1, 0, 1):
                for dz in (-1, 0, 1):
                    for j in cells.get(((cx + dx) % m, (cy + dy) % m, cz + dz), ()):
                        for i in ks:
                            if j <= i or (items[i][1] and items[j][1]):
                                continue
                            d = [items[i][0][a] - items[j][0][a] for a in range(3)]
                            for a in (0, 1):
                                d[a] -= L * round(d[a] / L)
                            if d[0] ** 2 + d[1] ** 2 + d[2] ** 2 < (2 * R) ** 2:
                                if items[i][1] or items[j][1]:
                                    fl += 1
                                else:
                                    ff += 1
    return ff, fl


def cmd_settle(args):
    pour = os.path.join(args.dir, "pour.json")
    out = os.path.join(args.dir, "pour-out")
    os.makedirs(out, exist_ok=True)
    subprocess.run([args.dem_run, "--quiet", pour], check=True)
    snaps = sorted(glob.glob(os.path.join(out, "particles_[0-9]*.vtu")))
    d = read_vtu(snaps[-1])
    n = len(d["radius"])
    assert n == NF * NF + NFREE, n
    free = []
    for k in range(NF * NF, n):
        x, y, z = d["Points"][3 * k:3 * k + 3]
        free.append({"pos": [x % L, y % L, z], "vel": d["velocity"][3 * k:3 * k + 3],
                     "angVel": d["angularVelocity"][3 * k:3 * k + 3]})
    ff, fl = touching(free)
    zmax = max(p["pos"][2] for p in free)
    print(f"settled tile: {n} particles; overlapping pairs free-free {ff}, free-floor {fl}: "
          f"{(2 * ff + fl) / NFREE:.2f} contacts per free sphere (the floor counting one end), "
          f"{2 * (ff + fl) / NFREE:.2f} counting both; top z = {zmax:.4f} m", file=sys.stderr)
    with open(os.path.join(args.dir, "tile.json"), "w") as f:
        json.dump(free, f)


def scene_file(kx, ky, free, periodic, steps, n_label):
    parts = floor(NF * kx, NF * ky)
    for ty in range(ky):
        for tx in range(kx):
            for p in free:
                x, y, z = p["pos"]
                parts.append({"pos": [x + tx * L, y + ty * L, z], "radius": R,
                              "material": "glass", "vel": p["vel"], "angVel": p["angVel"]})
    scene = {"description": f"Issue-18 settled bed, {n_label} particles ({kx} x {ky} tiles), "
                            + ("periodic in x and y" if periodic else "aperiodic, floor only"),
             "materials": [MATERIAL]}
    if periodic:
        scene["cell"] = {"size": [kx * L, ky * L, LZ]}
    scene["particles"] = parts
    scene["engine"] = engine(steps)
    scene["outputs"] = {"directory": ".", "progress": False, "final": None}
    return scene


def liggghts_gamman():
    """hooke/stiffness' gamman (per unit effective mass, 1/s) for damping ratio ZETA: the contact force
    is kn delta - m_eff gamman v_n, so gamman = 2 zeta omega_0 with omega_0 = sqrt(kn / m_eff), m_eff =
    m / 2 (every sphere, the floor's too, has the same mass for LIGGGHTS)."""
    mass = MATERIAL["density"] * 4.0 / 3.0 * math.pi * R ** 3
    return 2.0 * ZETA * math.sqrt(KN / (mass / 2.0))


def liggghts_files(kx, ky, free, periodic, n_label, stem):
    """The scene of scene_file(kx, ky, free, periodic, ...) for LIGGGHTS: stem.data and stem.in."""
    nfloor = NF * kx * NF * ky
    atoms = [(2, p["pos"], [0.0] * 3, [0.0] * 3) for p in floor(NF * kx, NF * ky)]
    for ty in range(ky):
        for tx in range(kx):
            for p in free:
                x, y, z = p["pos"]
                atoms.append((1, [x + tx * L, y + ty * L, z], p["vel"], p["angVel"]))
    if periodic:  # as the dem-run cell: [0, kx L) x [0, ky L), 1 m tall (the floor's centres at z = 0)
        bounds = [(0.0, kx * L), (0.0, ky * L), (-2 * R, LZ - 2 * R)]
    else:         # shrink-wrapped (boundary m m m) around the particles: nothing is lost at the edges
        bounds = [(-2 * R, kx * L + 2 * R), (-2 * R, ky * L + 2 * R), (-2 * R, LZ - 2 * R)]
    name = os.path.basename(stem)
    with open(stem + ".data", "w") as f:
        f.write(f"Issue-18 settled bed, {n_label} particles ({kx} x {ky} tiles), written by make_bed.py\n\n")
        f.write(f"{len(atoms)} atoms\n2 atom types\n\n")
        for (lo, hi), ax in zip(bounds, "xyz"):
            f.write(f"{lo!r} {hi!r} {ax}lo {ax}hi\n")
        f.write("\nAtoms\n\n")
        for k, (t, x, _, _) in enumerate(atoms):
            f.write(f"{k + 1} {t} {2 * R!r} {MATERIAL['density']} {x[0]!r} {x[1]!r} {x[2]!r}\n")
        f.write("\nVelocities\n\n")
        for k, (_, _, v, w) in enumerate(atoms):
            f.write(f"{k + 1} {v[0]!r} {v[1]!r} {v[2]!r} {w[0]!r} {w[1]!r} {w[2]!r}\n")
    pair = lambda v: f"peratomtypepair 2 {v!r} {v!r} {v!r} {v!r}"
    script = f"""# Issue-18 settled bed, {n_label} particles ({kx} x {ky} tiles, {nfloor} fixed floor spheres),
# {"periodic in x and y" if periodic else "aperiodic, floor only"}: the scene of {name}.json for LIGGGHTS 3.8,
# written by benchmarks/peers/make_bed.py. Run from its folder:
#   liggghts -in {name}.in -echo none -log none -var steps S [-var check 1 -var checkEvery K] [-var skin D]
# Hookean contacts kn = {KN!r} N/m, kt = {KT!r} N/m, friction 0.5 (tangential history), gravity 9.81,
# dt = {DT!r} s. No Cundall damping in LIGGGHTS: a viscous normal damping of ratio {ZETA} instead
# (gamman = 2 zeta sqrt(kn / m_eff) per unit effective mass, no tangential damping). Neighbour skin
# r = {R!r} m by default (pairs within 3 r, rebuilt after a move of 0.5 r: dem-run's Verlet distance 0.5 r).
variable steps index 100
variable check index 0
variable checkEvery index 50
variable skin index {R!r}

units si
atom_style sphere
atom_modify map array
boundary {"p p f" if periodic else "m m m"}
newton off
communicate single vel yes
read_data {name}.data
group free type 1
group floor type 2

neighbor ${{skin}} bin
neigh_modify delay 0 exclude type 2 2

fix kn all property/global kn {pair(KN)}
fix kt all property/global kt {pair(KT)}
fix gn all property/global gamman {pair(liggghts_gamman())}
fix gt all property/global gammat {pair(0.0)}
fix mu all property/global coefficientFriction {pair(MATERIAL["friction"])}
pair_style gran model hooke/stiffness tangential history tangential_damping off
pair_coeff * *
timestep {DT!r}

fix gravity free gravity 9.81 vector 0 0 -1
fix integrate free nve/sphere

thermo_style custom step atoms ke
thermo 100000000
if "${{check}} > 0" then &
  "compute contacts all contact/atom" &
  "compute twicePairs all reduce sum c_contacts" &
  "compute top free reduce max z" &
  "compute bottom free reduce min z" &
  "thermo_style custom step atoms ke c_twicePairs c_top c_bottom" &
  "thermo ${{checkEvery}}"
run ${{steps}}
"""
    with open(stem + ".in", "w") as f:
        f.write(script)
    print("wrote", stem + ".in", "and .data,", len(atoms), "particles", file=sys.stderr)


def cmd_tile(args):
    with open(os.path.join(args.dir, "tile.json")) as f:
        free = json.load(f)
    # (5e4, 1 x 5 tiles: half the 1e5 bed, for the weak scaling of docs/mpi.md; not in the default sizes)
    for label, (kx, ky) in {"1e4": (1, 1), "5e4": (1, 5), "1e5": (2, 5), "1e6": (10, 10)}.items():
        if label not in args.sizes:
            continue
        for periodic in (True, False):
            s = scene_file(kx, ky, free, periodic, args.steps, label)
            text = json.dumps(s, separators=(",", ":"))  # floats as repr(): 17 significant digits
            path = os.path.join(args.dir, f"bed_{label}_{'cell' if periodic else 'box'}.json")
            with open(path, "w") as f:
                f.write(text + "\n")
            print("wrote", path, len(s["particles"]), "particles", file=sys.stderr)
            liggghts_files(kx, ky, free, periodic, label, path[:-len(".json")])


def cmd_pour_peer(args):
    os.makedirs(args.dir, exist_ok=True)
    free = [dict(p, vel=[0.0, 0.0, 0.0], angVel=[0.0, 0.0, 0.0]) for p in pour_particles()]
    stem = os.path.join(args.dir, "pour_1e4_cell")
    scene = scene_file(1, 1, free, True, args.steps, "1e4")
    scene["description"] = "The pour of the issue-18 bed (make_bed.py pour) at its start, periodic in x and y"
    with open(stem + ".json", "w") as f:
        f.write(json.dumps(scene, separators=(",", ":")) + "\n")
    print("wrote", stem + ".json", file=sys.stderr)
    liggghts_files(1, 1, free, True, "1e4 (pour)", stem)


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("command", choices=["pour", "settle", "tile", "all", "pour-peer"])
    ap.add_argument("--dir", default="build/peers", help="output directory (default build/peers)")
    ap.add_argument("--dem-run", default="build/release/dem-run", help="dem-run binary for settle")
    ap.add_argument("--pour-steps", type=int, default=20000, help="steps of the pour (default 20000 = 0.81 s)")
    ap.add_argument("--steps", type=int, default=100, help="engine.steps of the bed scene files (default 100)")
    ap.add_argument("--sizes", default="1e4,1e5,1e6", help="which of 1e4, 1e5, 1e6 to write (default all)")
    args = ap.parse_args()
    args.sizes = args.sizes.split(",")
    if args.command in ("pour", "all"):
        cmd_pour(args)
    if args.command in ("settle", "all"):
        cmd_settle(args)
    if args.command in ("tile", "all"):
        cmd_tile(args)
    if args.command == "pour-peer":
        cmd_pour_peer(args)


if __name__ == "__main__":
    main()
