#!/usr/bin/env bash
# CTest `report.chromium` (label report): builds a small report from scratch and checks it in
# headless Chromium. Runs two quick verification cases with dem-verify, copies the benchmark fixtures
# (reports/fixtures/*.json: real dem-bench-integrator and dem-bench-scene output), runs dem-report, then
# scripts/check-report.sh, which fails when an image is missing or the verification table is empty.
#
#   test_report.sh DEM_VERIFY DEM_REPORT OUT_DIR SOURCE_DIR
set -euo pipefail
verify="$1" report="$2" out="$3" src="$4"
rm -rf "$out"
mkdir -p "$out"
"$verify" --out "$out" --case free_fall_unadjusted --case damped_motion >"$out/dem-verify.log"
cp "$src"/reports/fixtures/*.json "$out/"
"$report" --dir "$out"
"$src/scripts/check-report.sh" "$out"
