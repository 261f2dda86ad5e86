#!/usr/bin/env bash
# The main job: install what is missing, build the release preset, run the verification suite and
# write the report files under reports/out/.
set -euo pipefail
cd "$(dirname "$0")/.."
step() { printf '\n== [%s] %s\n' "$(date +%H:%M:%S)" "$*"; }

step "1/3 dependencies"
./scripts/install-deps.sh
step "2/3 build (release)"
cmake --preset release >/dev/null
cmake --build --preset release
step "3/3 verification suite -> reports/out/"
mkdir -p reports/out
./build/release/dem-verify --out reports/out
step "done: reports/out/ (summary.csv and one CSV per case)"
