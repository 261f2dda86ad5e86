#!/usr/bin/env bash
# The tests: install what is missing, build the release preset, run every CTest test.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/phase.sh
phase "dependency check"
./scripts/install-deps.sh
phase "release configure + build"
cmake --preset release
cmake --build --preset release
phase "release tests"
ctest --preset release
phase_end
