#!/bin/bash
# Two dem-run binaries on one scene, alternated in pairs, with their stage timers: the medians of
# the contact stage's and the whole step's microseconds per step, and the fastest step, for each
# (docs/performance.md: a change measured against the code before it, on this noisy machine).
#   benchmarks/ab_stage_times.sh A B SCENE STEPS PAIRS [THREADS]
set -euo pipefail
if [ $# -lt 5 ]; then
  echo "usage: $0 DEM_RUN_A DEM_RUN_B SCENE STEPS PAIRS [THREADS]" >&2
  exit 2
fi
a=$1 b=$2 scene=$3 steps=$4 pairs=$5 threads=${6:-1}
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
for _ in $(seq "$pairs"); do
  for bin in "$a" "$b"; do
    line=$("$bin" --quiet --threads "$threads" --steps "$steps" --stage-times --out "$out/o" "$scene" 2>&1 |
      grep "stage times")
    echo "$bin $line"
  done
done | python3 -c '
import re, statistics, sys
runs = {}
for line in sys.stdin:
    binary = line.split()[0]
    contacts = float(re.search(r"contacts ([0-9.]+)", line).group(1))
    step = float(re.search(r"step ([0-9.]+);", line).group(1))
    runs.setdefault(binary, []).append((contacts, step))
for binary, v in runs.items():
    print(f"{binary}: {len(v)} runs; contacts median {statistics.median(c for c, _ in v):.1f} us, "
          f"step median {statistics.median(s for _, s in v):.1f} us, fastest {min(s for _, s in v):.1f} us")
'
