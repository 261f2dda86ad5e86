#!/usr/bin/env python3
"""dem-run beside LIGGGHTS on the settled bed of issue 18 (python3 standard library only).

Runs the beds that make_bed.py wrote into --dir (bed_N_SCENE.json for dem-run, bed_N_SCENE.in and
.data for LIGGGHTS 3.8, Debian package `liggghts`, installed by `scripts/install-deps.sh --peers`),
both on one core, interleaved, and writes into --out (default reports/out):

  peers.csv       one row per N and scene: for each code the time per particle-step (median, min and
                  max over the repetitions), particle-steps/s, contact-steps/s, peak memory per
                  particle and start-up (t(short) - short x time per step: loading the files, the
                  set-up and the first neighbour search; median); the ratio LIGGGHTS time / dem-run
                  time (min, median, max over the repetitions); the contacts each code counted; the
                  load average; the commands.
                  dem-report shows it as the table "Peer comparison (LIGGGHTS)".
  peers-runs.csv  every timed run: code, N, scene, repetition, steps, wall seconds, peak RSS (kB),
                  1-minute load average before the run.

Without the LIGGGHTS binary it prints "LIGGGHTS not installed: peer benchmark skipped" and exits 0.

Timing. Each repetition runs both codes at two run lengths (short, long steps: 50/550 at 10^4, 20/170
at 10^5, 4/104 at 10^6): short dem-run, short LIGGGHTS, long dem-run, long LIGGGHTS, with LIGGGHTS
first in every other repetition, so that a change of load hits both. Time per step = (t(long) - t(short)) /
(long - short): loading the files and the set-up cancel. t is the wall time and the memory the peak
resident set of the child process (os.wait4: what `/usr/bin/time -f "%e %M"` prints). The commands:

  build/release/dem-run --quiet --threads 1 --steps S --out TMP DIR/bed_N_SCENE.json
  cd DIR && liggghts -in bed_N_SCENE.in -echo none -log none -var steps S

Physics check (not timed, once per N and scene, unless --no-check): each code runs `long` steps with
outputs every long/10 steps (dem-run: a copy of the scene with a csv output and its contacts column;
LIGGGHTS: -var check 1, thermo with compute contact/atom). The contact-steps/s use each code's own
mean number of overlapping pairs over that run (the fixed floor's contacts included, pairs of two floor
spheres never touch); the check fails (column check) when LIGGGHTS lost atoms, its highest free sphere
moved by more than r/2 or the two codes' contact counts differ by more than 10 %.

  run_peers.py [--dir build/peers] [--out reports/out] [--dem-run build/release/dem-run]
               [--liggghts liggghts] [--sizes 1e4,1e5] [--scenes cell] [--reps 3] [--skin D]
"""

import argparse
import csv
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

from make_bed import R  # (the beds' sphere radius; make_bed.py lies next to this script)

SIZES = {  # label: (particles, short steps, long steps)
    "1e4": (10000, 50, 550),
    "1e5": (100000, 20, 170),
    "1e6": (1000000, 4, 104),
}


def log(*a):
    print(*a, file=sys.stderr, flush=True)


def load1():
    return os.getloadavg()[0]


def run(cmd, cwd=None):
    """Runs cmd; returns (wall seconds, peak RSS kB, output). Raises RuntimeError when it fails."""
    t0 = time.perf_counter()
    p = subprocess.Popen(cmd, cwd=cwd, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                         text=True)
    out = p.stdout.read()
    _, status, usage = os.wait4(p.pid, 0)
    wall = time.perf_counter() - t0
    p.returncode = os.waitstatus_to_exitcode(status)
    p.stdout.close()
    if p.returncode != 0 or "\nERROR" in "\n" + out:
        tail = "\n".join(out.strip().splitlines()[-15:])
        raise RuntimeError(f"{' '.join(cmd)} (in {cwd or '.'}) failed with exit {p.returncode}:\n{tail}")
    return wall, usage.ru_maxrss, out


def dem_cmd(args, scene, steps, out):
    return [args.dem_run, "--quiet", "--threads", str(args.threads), "--steps", str(steps), "--out", out, scene]


def lig_cmd(args, name, steps, extra=()):
    cmd = [args.liggghts, "-in", name + ".in", "-echo", "none", "-log", "none", "-var", "steps", str(steps)]
    if args.skin is not None:
        cmd += ["-var", "skin", repr(args.skin)]
    return cmd + list(extra)


def thermo_rows(out):
    """LIGGGHTS' thermo rows (lists of floats) between a header starting with Step and 'Loop time'."""
    rows, on = [], False
    for line in out.splitlines():
        w = line.split()
        if w and w[0] == "Step":
            on = True
        elif line.startswith("Loop time"):
            on = False
        elif on and w:
            try:
                rows.append([float(v) for v in w])
            except ValueError:
                pass
    return rows


def check(args, name, n, steps, tmp):
    """Runs both codes once with outputs; returns a dict of what they show."""
    every = max(1, steps // 10)
    with open(os.path.join(args.dir, name + ".json")) as f:
        s = json.load(f)
    s["outputs"] = {"directory": ".", "progress": False, "final": None, "csv": {"interval": every}}
    path = os.path.join(tmp, "check_" + name + ".json")
    with open(path, "w") as f:
        json.dump(s, f, separators=(",", ":"))
    del s
    out = os.path.join(tmp, "check-dem-" + name)
    run(dem_cmd(args, path, steps, out))
    os.remove(path)
    with open(os.path.join(out, "series.csv")) as f:
        rows = [r for r in csv.DictReader(f) if r["contacts"] not in ("", "nan")]
    dem_contacts = statistics.mean(float(r["contacts"]) for r in rows)
    dem_ke = float(rows[-1]["kinetic"])
    _, _, lout = run(lig_cmd(args, name, steps, ["-var", "check", "1", "-var", "checkEvery", str(every)]), cwd=args.dir)
    t = thermo_rows(lout)  # step atoms ke twicePairs top bottom
    if len(t) < 2 or len(t[0]) < 6:
        raise RuntimeError(f"no check thermo from LIGGGHTS for {name}:\n{lout[-2000:]}")
    lig_contacts = statistics.mean(r[3] / 2 for r in t[1:])
    c = {"dem_contacts": dem_contacts, "lig_contacts": lig_contacts, "dem_kinetic_end": dem_ke,
         "lig_kinetic_end": t[-1][2], "lig_atoms_end": int(t[-1][1]), "lig_top_start": t[0][4],
         "lig_top_end": t[-1][4]}
    problems = []
    if c["lig_atoms_end"] != n:
        problems.append(f"LIGGGHTS has {c['lig_atoms_end']} of {n} atoms")
    if abs(c["lig_top_end"] - c["lig_top_start"]) > 0.5 * R:
        problems.append(f"LIGGGHTS top moved {c['lig_top_start']:.4f} -> {c['lig_top_end']:.4f} m")
    if abs(lig_contacts / dem_contacts - 1) > 0.1:
        problems.append("contacts differ by more than 10 %")
    c["check"] = "; ".join(problems) if problems else "ok"
    log(f"  check {name}: contacts per particle dem-run {dem_contacts / n:.3f}, LIGGGHTS {lig_contacts / n:.3f}; "
        f"LIGGGHTS atoms {c['lig_atoms_end']}, top z {c['lig_top_start']:.4f} -> {c['lig_top_end']:.4f} m; "
        f"kinetic energy at the end dem-run {dem_ke:.3g} J, LIGGGHTS {c['lig_kinetic_end']:.3g} J: {c['check']}")
    return c


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--dir", default="build/peers", help="the beds (make_bed.py --dir; default build/peers)")
    ap.add_argument("--out", default="reports/out", help="where peers.csv goes (default reports/out)")
    ap.add_argument("--dem-run", default="build/release/dem-run", help="dem-run binary")
    ap.add_argument("--liggghts", default="liggghts", help="LIGGGHTS binary (default liggghts, on PATH)")
    ap.add_argument("--sizes", default="1e4,1e5", help="of 1e4, 1e5, 1e6 (default 1e4,1e5)")
    ap.add_argument("--scenes", default="cell", help="of cell, box (default cell)")
    ap.add_argument("--reps", type=int, default=3, help="repetitions (default 3)")
    ap.add_argument("--threads", type=int, default=1, help="dem-run's threads (default 1; LIGGGHTS runs serial)")
    ap.add_argument("--skin", type=float, default=None, help="LIGGGHTS neighbour skin in m (default the script's, r)")
    ap.add_argument("--no-check", action="store_true", help="skip the physics check runs")
    args = ap.parse_args()

    lig = shutil.which(args.liggghts)
    if lig is None:
        print("LIGGGHTS not installed: peer benchmark skipped (scripts/install-deps.sh --peers installs it)")
        return 0
    args.liggghts = lig
    if not (os.path.isfile(args.dem_run) and os.access(args.dem_run, os.X_OK)):
        log(f"run_peers: no dem-run binary at {args.dem_run} (--dem-run)")
        return 1
    dem_shown = args.dem_run  # as given, for the commands in peers.csv
    args.dem_run = os.path.abspath(args.dem_run)
    sizes = args.sizes.split(",")
    scenes = args.scenes.split(",")
    if any(s not in SIZES for s in sizes) or any(s not in ("cell", "box") for s in scenes) or args.reps < 1:
        log("run_peers: --sizes from 1e4,1e5,1e6, --scenes from cell,box, --reps >= 1")
        return 2
    for label in sizes:
        for scene in scenes:
            for ext in (".json", ".in", ".data"):
                f = os.path.join(args.dir, f"bed_{label}_{scene}{ext}")
                if not os.path.exists(f):
                    log(f"run_peers: {f} is missing; write the beds with "
                        f"`python3 benchmarks/peers/make_bed.py all --dem-run {args.dem_run} --dir {args.dir} "
                        f"--sizes {args.sizes}` (or `tile` when {args.dir}/tile.json exists)")
                    return 1
    _, _, vout = run([args.liggghts, "-echo", "none", "-log", "none"], cwd=tempfile.gettempdir())
    version = next((l.strip() for l in vout.splitlines() if l.startswith("LIGGGHTS")), "LIGGGHTS")
    log(f"run_peers: {version}; dem-run {args.dem_run}; load average {load1():.2f}")

    os.makedirs(args.out, exist_ok=True)
    summary, runs = [], []
    with tempfile.TemporaryDirectory(prefix="dem-peers-") as tmp:
        for label in sizes:
            n, short, long_ = SIZES[label]
            for scene in scenes:
                name = f"bed_{label}_{scene}"
                json_path = os.path.abspath(os.path.join(args.dir, name + ".json"))
                loads = [load1()]
                log(f"{name}: {n} particles, {args.reps} repetitions of {short} and {long_} steps")
                c = {} if args.no_check else check(args, name, n, long_, tmp)
                per = {"dem": [], "lig": []}  # per repetition: (s per step, peak kB of the long run)
                for rep in range(args.reps):
                    t = {}
                    order = ("dem", "lig") if rep % 2 == 0 else ("lig", "dem")
                    for steps in (short, long_):
                        for code in order:
                            loads.append(load1())
                            if code == "dem":
                                wall, kb, _ = run(dem_cmd(args, json_path, steps, os.path.join(tmp, "o")))
                            else:
                                wall, kb, _ = run(lig_cmd(args, name, steps), cwd=args.dir)
                            t[code, steps] = (wall, kb)
                            runs.append({"code": "dem-run" if code == "dem" else "LIGGGHTS", "N": n, "scene": scene,
                                         "rep": rep, "steps": steps, "wall_s": f"{wall:.4f}", "peak_kB": kb,
                                         "load1": f"{loads[-1]:.2f}"})
                    for code in ("dem", "lig"):
                        dt = (t[code, long_][0] - t[code, short][0]) / (long_ - short)
                        per[code].append((dt, t[code, long_][1], t[code, short][0] - short * dt))
                    log(f"  repetition {rep + 1}: s per particle-step dem-run {per['dem'][-1][0] / n:.3e}, "
                        f"LIGGGHTS {per['lig'][-1][0] / n:.3e}, ratio {per['lig'][-1][0] / per['dem'][-1][0]:.2f}")
                loads.append(load1())
                row = {"N": n, "scene": scene, "steps": f"{short}/{long_}", "reps": args.reps}
                for code in ("dem", "lig"):
                    sp = [dt / n for dt, _, _ in per[code]]
                    med = statistics.median(sp)
                    row[f"{code}_s_per_particle_step"] = f"{med:.4e}"
                    row[f"{code}_s_per_particle_step_min"] = f"{min(sp):.4e}"
                    row[f"{code}_s_per_particle_step_max"] = f"{max(sp):.4e}"
                    row[f"{code}_particle_steps_per_s"] = f"{1 / med:.4e}"
                    contacts = c.get(f"{code}_contacts")
                    row[f"{code}_contacts"] = f"{contacts:.1f}" if contacts else ""
                    row[f"{code}_contact_steps_per_s"] = f"{contacts / (med * n):.4e}" if contacts else ""
                    row[f"{code}_kB_per_particle"] = f"{statistics.median(kb for _, kb, _ in per[code]) / n:.3f}"
                    row[f"{code}_startup_s"] = f"{statistics.median(su for _, _, su in per[code]):.3f}"
                ratios = [lg[0] / dm[0] for lg, dm in zip(per["lig"], per["dem"])]
                row["ratio_min"] = f"{min(ratios):.3f}"
                row["ratio_median"] = f"{statistics.median(ratios):.3f}"
                row["ratio_max"] = f"{max(ratios):.3f}"
                row["load_min"] = f"{min(loads):.2f}"
                row["load_max"] = f"{max(loads):.2f}"
                row["check"] = c.get("check", "not run")
                row["dem_command"] = " ".join([dem_shown, "--quiet", "--threads", str(args.threads), "--steps", "S",
                                               "--out", "TMP", os.path.join(args.dir, name + ".json")])
                row["lig_command"] = f"cd {args.dir} && " + " ".join(
                    ["liggghts"] + lig_cmd(args, name, "S")[1:])
                row["liggghts_version"] = version
                row["date"] = time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime())
                summary.append(row)
                log(f"  {name}: s per particle-step dem-run {row['dem_s_per_particle_step']}, LIGGGHTS "
                    f"{row['lig_s_per_particle_step']}; ratio LIGGGHTS / dem-run {row['ratio_min']} / "
                    f"{row['ratio_median']} / {row['ratio_max']} (min / median / max); load {row['load_min']}-"
                    f"{row['load_max']}")

    def write(path, rows):
        cols = list(rows[0].keys())
        with open(path, "w") as f:  # plain comma-separated: no field holds a comma (dem-report splits on it)
            f.write(",".join(cols) + "\n")
            for r in rows:
                f.write(",".join(str(r[k]).replace(",", ";") for k in cols) + "\n")
        log("wrote", path)

    write(os.path.join(args.out, "peers.csv"), summary)
    write(os.path.join(args.out, "peers-runs.csv"), runs)
    print(f"{'N':>8} {'scene':5} {'dem-run s/pstep':>16} {'LIGGGHTS s/pstep':>17} {'ratio min/med/max':>20} check")
    for r in summary:
        print(f"{r['N']:>8} {r['scene']:5} {r['dem_s_per_particle_step']:>16} {r['lig_s_per_particle_step']:>17} "
              f"{r['ratio_min'] + '/' + r['ratio_median'] + '/' + r['ratio_max']:>20} {r['check']}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
