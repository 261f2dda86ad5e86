#!/usr/bin/env python3
"""Test dem_run.signal_stop: SIGTERM / SIGINT stop dem-run cleanly, and a restart continues exactly.

usage: signal_stop.py DEM_RUN SCENE OUTDIR

1. dem-run runs SCENE (long) into OUTDIR/stopped; 30 ms after its CSV has a few rows it gets SIGTERM. It
   must exit with 5, name the step N it stopped at and the checkpoint; the CSV ends with a whole row
   of step <= N. A restart from that checkpoint to 300 steps past the next checkpoint step (1000 k)
   and a straight run to the same step must give byte-identical files (CSV, VTK collections and
   snapshots, checkpoints).
2. The same with SIGINT and a scene without checkpoints: exit 5, the CSV flushed to a whole row.
3. SIGINT followed at once by SIGTERM: the second signal ends the process at once (exit status
   128 + the number of the signal handled second), whatever the first had started.
"""
import filecmp
import json
import os
import re
import shutil
import signal
import subprocess
import sys
import time


def fail(msg):
    sys.exit(f"FAIL: {msg}")


def run(cmd):
    r = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    if r.returncode != 0:
        fail(f"{' '.join(cmd)} exited with {r.returncode}:\n{r.stderr}")
    return r


def start_and_signal(cmd, csv, signals, delay=0.0):
    """Starts cmd, waits until `csv` holds a few rows and `delay` s more, sends `signals`; returns (exit status,
    stderr)."""
    p = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    deadline = time.monotonic() + 60
    while not (os.path.exists(csv) and os.path.getsize(csv) > 3000):
        if p.poll() is not None or time.monotonic() > deadline:
            p.kill()
            fail(f"{' '.join(cmd)}: no CSV rows to wait for (exit {p.returncode}):\n{p.communicate()[1]}")
        time.sleep(0.005)
    time.sleep(delay)
    for s in signals:
        p.send_signal(s)
    _, err = p.communicate(timeout=60)
    print(f"signals {[signal.Signals(s).name for s in signals]}: exit {p.returncode}; {err.strip()}")
    return p.returncode, err


def last_row_step(csv):
    with open(csv, "rb") as f:
        data = f.read()
    if not data.endswith(b"\n"):
        fail(f"{csv} does not end with a whole row")
    return int(data.splitlines()[-1].split(b",")[0])


def compare(a, b):
    fa, fb = sorted(os.listdir(a)), sorted(os.listdir(b))
    if fa != fb:
        fail(f"different files:\n  {a}: {fa}\n  {b}: {fb}")
    _, mismatch, errors = filecmp.cmpfiles(a, b, fa, shallow=False)
    if mismatch or errors:
        fail(f"files differ: {mismatch + errors}")
    print(f"{len(fa)} files byte-identical")


def main():
    program, scene, out = sys.argv[1], sys.argv[2], sys.argv[3]
    shutil.rmtree(out, ignore_errors=True)
    os.makedirs(out)
    stopped, straight = os.path.join(out, "stopped"), os.path.join(out, "straight")

    # 1. SIGTERM with checkpoints configured: stop, then restart = straight run.
    rc, err = start_and_signal([program, "--quiet", "--out", stopped, scene], os.path.join(stopped, "series.csv"),
                               [signal.SIGTERM], delay=0.03)
    m = re.search(r"stopped by .* at step (\d+) .*resume with --restart (\S+)", err)
    if rc != 5 or not m:
        fail(f"expected exit 5 naming the step and the checkpoint, got {rc}")
    n, ckpt = int(m.group(1)), m.group(2)
    if last_row_step(os.path.join(stopped, "series.csv")) > n:
        fail("the CSV has rows after the step the run stopped at")
    # (to a step past the next checkpoint step: until then restart.ckpt is the stop's, of step n)
    end = str((n // 1000 + 1) * 1000 + 300)
    run([program, "--quiet", "--out", stopped, "--restart", ckpt, "--steps", end, scene])
    run([program, "--quiet", "--out", straight, "--steps", end, scene])
    compare(straight, stopped)

    # 2. SIGINT without checkpoints: the outputs still flushed to a whole row.
    with open(scene) as f:
        doc = json.load(f)
    del doc["outputs"]["checkpoint"]
    plain = os.path.join(out, "no_checkpoint.json")
    with open(plain, "w") as f:
        json.dump(doc, f)
    plain_out = os.path.join(out, "no-checkpoint")
    rc, err = start_and_signal([program, "--quiet", "--out", plain_out, plain], os.path.join(plain_out, "series.csv"),
                               [signal.SIGINT])
    m = re.search(r"stopped by .* at step (\d+) .*no checkpoint is configured", err)
    if rc != 5 or not m:
        fail(f"expected exit 5 saying that no checkpoint is configured, got {rc}")
    if last_row_step(os.path.join(plain_out, "series.csv")) != int(m.group(1)) // 10 * 10:
        fail("the CSV does not end with the last row due before the stop")

    # 3. A second signal ends the process at once.
    rc, _ = start_and_signal([program, "--quiet", "--out", os.path.join(out, "twice"), scene],
                             os.path.join(out, "twice", "series.csv"), [signal.SIGINT, signal.SIGTERM])
    if rc not in (128 + signal.SIGINT, 128 + signal.SIGTERM):
        fail(f"expected exit status 128 + the second signal's number, got {rc}")
    print("ok")


if __name__ == "__main__":
    main()
