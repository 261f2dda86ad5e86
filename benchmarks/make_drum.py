#!/usr/bin/env python3
"""A rotating drum of many triangles for timing mesh scenes through dem-run (docs/performance.md,
"Meshes, stalls and shares"): examples/rotating_drum.json scaled 5x (radius 0.25 m, 0.15 m long),
18000 spheres poured from its upper half, the drum's side and caps of SEGMENTS segments each
(2000 by default: 8000 triangles, long thin ones, as an STL drum has).

  benchmarks/make_drum.py [--segments N] [--spheres N] OUT.json
  dem-run OUT.json --steps 1500 --threads 1 --quiet --out DIR
"""
import argparse
import json
import os

ap = argparse.ArgumentParser()
ap.add_argument("--segments", type=int, default=2000)
ap.add_argument("--spheres", type=int, default=18000)
ap.add_argument("out")
args = ap.parse_args()
here = os.path.dirname(os.path.abspath(__file__))
with open(os.path.join(here, "..", "examples", "rotating_drum.json")) as f:
    scene = json.load(f)
scale = 5
cylinder = scene["meshes"][0]["cylinder"]
cylinder["radius"] *= scale
cylinder["height"] *= scale
cylinder["segments"] = args.segments
generator = scene["generators"][0]
generator["min"] = [x * scale for x in generator["min"]]
generator["max"] = [x * scale for x in generator["max"]]
generator["count"] = args.spheres
scene["outputs"] = {"directory": "out-drum", "progress": False}
scene["engine"]["threads"] = 1
with open(args.out, "w") as f:
    json.dump(scene, f)
