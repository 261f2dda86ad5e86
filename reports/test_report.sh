#!/usr/bin/env bash
# CTest `report.chromium` (label report): builds a small report from scratch and checks it in
# headless Chromium. Runs two quick verification cases with dem-verify, copies the benchmark fixtures
# (reports/fixtures/*.json: real dem-bench-integrator and dem-bench-scene output; peers.csv: real
# benchmarks/peers/run_peers.py output), runs dem-report, checks that the page has the peer table, then
# scripts/check-report.sh, which fails when an image is missing or the verification table is empty.
#
#   test_report.sh DEM_VERIFY DEM_REPORT OUT_DIR SOURCE_DIR
set -euo pipefail
verify="$1" report="$2" out="$3" src="$4"
rm -rf "$out"
mkdir -p "$out"
"$verify" --out "$out" --case free_fall_unadjusted --case damped_motion >"$out/dem-verify.log"
cp "$src"/reports/fixtures/*.json "$src"/reports/fixtures/peers*.csv "$out/"
"$report" --dir "$out"
grep -q '<table class="bench" id="peer-table">' "$out/index.html" ||
  { echo "test_report: no peer table (peers.csv) in $out/index.html" >&2; exit 1; }
"$src/scripts/check-report.sh" "$out"
