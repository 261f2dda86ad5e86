#!/usr/bin/env python3
"""Test io.vtk_binary: the binary VTK formats hold the numbers of the ASCII one, bit for bit.

usage: check_vtk_binary.py DEM_RUN SCENE OUTDIR STEPS

Runs SCENE for STEPS steps three times, with outputs.vtk.format "ascii", "raw" (appended raw
binary) and "binary" (zlib-compressed when dem was built with zlib), reads every .vtu of each run
with meshio (a reader independent of ours) and compares points, cells and every point and cell
array with the ASCII run's: same dtype, same bytes. Prints the sizes. Exits 77 (skipped) without
meshio or numpy.
"""
import json
import os
import shutil
import subprocess
import sys

try:
    import meshio
    import numpy as np
except ImportError:
    print("check_vtk_binary: meshio or numpy not installed; skipped")
    sys.exit(77)


def fail(msg):
    print(f"check_vtk_binary: {msg}")
    sys.exit(1)


def run(program, scene, out, steps, fmt):
    with open(scene) as f:
        doc = json.load(f)
    doc["outputs"]["vtk"]["format"] = fmt
    d = os.path.join(out, fmt)
    shutil.rmtree(d, ignore_errors=True)
    os.makedirs(d)
    path = os.path.join(d, "scene.json")
    with open(path, "w") as f:
        json.dump(doc, f)
    subprocess.run([program, "--quiet", "--steps", str(steps), "--out", d, path], check=True)
    return d


def same(a, b, what):
    a, b = np.asarray(a), np.asarray(b)
    if a.dtype != b.dtype or a.shape != b.shape or a.tobytes() != b.tobytes():
        fail(f"{what}: differs ({a.dtype} {a.shape} vs {b.dtype} {b.shape})")


def main():
    program, scene, out, steps = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4])
    dirs = {fmt: run(program, scene, out, steps, fmt) for fmt in ("ascii", "raw", "binary")}
    files = sorted(f for f in os.listdir(dirs["ascii"]) if f.endswith(".vtu"))
    sizes = {fmt: 0 for fmt in dirs}
    compared = 0
    for name in files:
        for fmt in dirs:
            sizes[fmt] += os.path.getsize(os.path.join(dirs[fmt], name))
        with open(os.path.join(dirs["ascii"], name)) as f:
            if 'NumberOfCells="0"' in f.read():
                continue  # an empty grid: meshio cannot read it (check_vtk_meshio checks its structure)
        ref = meshio.read(os.path.join(dirs["ascii"], name))
        for fmt in ("raw", "binary"):
            m = meshio.read(os.path.join(dirs[fmt], name))
            same(m.points, ref.points, f"{fmt}/{name}: points")
            for c, r in zip(m.cells, ref.cells):
                same(c.data, r.data, f"{fmt}/{name}: cells")
            for key in ref.point_data:
                same(m.point_data[key], ref.point_data[key], f"{fmt}/{name}: point data {key}")
            for key in ref.cell_data:
                for x, y in zip(m.cell_data[key], ref.cell_data[key]):
                    same(x, y, f"{fmt}/{name}: cell data {key}")
            compared += 1
    if compared == 0:
        fail("no file compared")
    print(f"check_vtk_binary: {compared // 2} files in raw and zlib equal to the ASCII ones; bytes: " +
          ", ".join(f"{fmt} {sizes[fmt]}" for fmt in dirs))


if __name__ == "__main__":
    main()
