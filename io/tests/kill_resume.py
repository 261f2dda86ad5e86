#!/usr/bin/env python3
"""Test dem_run.kill_resume: every output survives kill -9 and a restart byte for byte.

usage: kill_resume.py DEM_RUN SCENE OUTDIR [KILLS] [SEED]

Runs SCENE straight into OUTDIR/straight (its wall time T). Then into OUTDIR/killed: starts
dem-run (with --restart OUTDIR/killed/restart.ckpt once that exists), kills it with SIGKILL after a
pseudo-random delay (fixed seed: uniform in [0.03 T, 0.3 T]), and again, until KILLS attempts were
killed or one finished, then lets the last restart finish (at least KILLS / 2 kills must have
hit a running process; otherwise another round with shorter delays). Every file of the two directories (CSV, VTK collections and snapshots,
checkpoints) must exist in both and be byte-identical, and no temporary file may be left over.
The delays depend on the machine's speed, not what is checked: whatever moment the kill hits
(a CSV row half written, a snapshot without its collection entry, a checkpoint's temporary file),
the resumed run's files must be those of the straight run.
"""
import filecmp
import os
import random
import shutil
import signal
import subprocess
import sys
import time


def run(cmd):
    r = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    if r.returncode != 0:
        sys.exit(f"FAIL: {' '.join(cmd)} exited with {r.returncode}:\n{r.stderr}")
    return r


def main():
    program, scene, out = sys.argv[1], sys.argv[2], sys.argv[3]
    kills = int(sys.argv[4]) if len(sys.argv) > 4 else 8
    rng = random.Random(int(sys.argv[5]) if len(sys.argv) > 5 else 20)
    straight, killed = os.path.join(out, "straight"), os.path.join(out, "killed")
    shutil.rmtree(out, ignore_errors=True)
    t0 = time.monotonic()
    run([program, "--quiet", "--out", straight, scene])
    T = time.monotonic() - t0
    ckpt = os.path.join(killed, "restart.ckpt")

    def command():
        c = [program, "--quiet", "--out", killed]
        return c + (["--restart", ckpt] if os.path.exists(ckpt) else []) + [scene]

    # A round: kill until `kills` attempts were killed or one finished, then finish. A machine
    # slower at the straight run than at the attempts (a cold start) may finish too early: then
    # another round with shorter delays, at most 4 rounds.
    interrupted = 0
    for round in range(4):
        shutil.rmtree(killed, ignore_errors=True)
        while interrupted < kills:
            delay = rng.uniform(0.03, 0.3) * T
            p = subprocess.Popen(command(), stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
            time.sleep(delay)
            if p.poll() is None:
                p.send_signal(signal.SIGKILL)
            _, err = p.communicate()
            if p.returncode not in (0, -signal.SIGKILL):
                sys.exit(f"FAIL: an attempt exited with {p.returncode}:\n{err}")
            print(f"round {round}: {'killed' if p.returncode == -signal.SIGKILL else 'finished'} after {delay:.3f} s;"
                  f" {os.path.basename(ckpt)} {'present' if os.path.exists(ckpt) else 'absent'}")
            if p.returncode == 0:
                break
            interrupted += 1
        run(command())
        compare(straight, killed)
        if interrupted >= (kills + 1) // 2:
            break
        T *= 0.5
    if interrupted < (kills + 1) // 2:
        sys.exit(f"FAIL: only {interrupted} attempts were interrupted (straight run {T:.3f} s)")
    print(f"all files byte-identical after {interrupted} kills")


def compare(straight, killed):
    a, b = sorted(os.listdir(straight)), sorted(os.listdir(killed))
    if a != b:
        sys.exit(f"FAIL: different files: only straight {sorted(set(a) - set(b))}, only resumed {sorted(set(b) - set(a))}")
    bad = [f for f in a if not filecmp.cmp(os.path.join(straight, f), os.path.join(killed, f), shallow=False)]
    if bad:
        sys.exit(f"FAIL: files differ from the uninterrupted run's: {bad}")
    print(f"{len(a)} files byte-identical")


main()
