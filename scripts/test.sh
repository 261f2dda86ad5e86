#!/usr/bin/env bash
# The tests: install what is missing, build the release preset, run every CTest test.
set -euo pipefail
cd "$(dirname "$0")/.."
./scripts/install-deps.sh
cmake --preset release
cmake --build --preset release
ctest --preset release
