#!/usr/bin/env bash
# Installs the Debian 12 packages the project needs, only those that are missing.
# Runs as root (or through sudo when available). Safe to run repeatedly.
#
#   scripts/install-deps.sh [--peers]
#     --peers  also LIGGGHTS (Debian package liggghts), for the peer benchmark
#              (benchmarks/peers/run_peers.py; without it that benchmark is skipped)
set -euo pipefail

peers=0
for a in "$@"; do
  case "$a" in
    --peers) peers=1 ;;
    -h|--help) sed -n '2,7p' "$0"; exit 0 ;;
    *) echo "install-deps: unknown argument '$a' (see --help)" >&2; exit 2 ;;
  esac
done

packages=(
  build-essential cmake
  ccache  # compiler cache (cmake/DemBuildSpeed.cmake, scripts/fuzz.sh): a warm CI only links
  libeigen3-dev
  libboost-dev libboost-test-dev libboost-iostreams-dev libboost-filesystem-dev
  libbenchmark-dev
  libgnuplot-iostream-dev gnuplot-nox
  nlohmann-json3-dev  # scene files (io/, dem-run)
  clang libclang-rt-14-dev  # the scene-loader fuzz target (libFuzzer), scripts/fuzz.sh
  python3-meshio  # io.vtk_meshio: the VTK output read back by an independent reader
  pybind11-dev python3-dev  # the Python module (python/, DEM_PYTHON; docs/python.md)
  python3-numpy python3-matplotlib  # its NumPy views and tests; the example examples/python/friction_sweep.py
  doxygen  # the API reference (target docs), linked from the report
  libopenmpi-dev openmpi-bin  # several machines: mpi/, DEM_MPI (docs/mpi.md), mpirun in its tests
  chromium  # the report test (ctest label report) loads the report in headless Chromium
)
if [ $peers -eq 1 ]; then
  packages+=(liggghts)  # the peer benchmark (benchmarks/peers/, docs/performance.md "Beside LIGGGHTS")
fi

missing=()
for p in "${packages[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then
    missing+=("$p")
  fi
done

if [ ${#missing[@]} -eq 0 ]; then
  echo "install-deps: all ${#packages[@]} packages present"
  exit 0
fi

echo "install-deps: installing ${missing[*]}"
SUDO=""
if [ "$(id -u)" -ne 0 ]; then SUDO="sudo"; fi
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -qq
$SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}"
