#!/usr/bin/env bash
# Fuzzes the scene loader with libFuzzer (clang from Debian: packages clang, libclang-rt-14-dev):
# builds fuzz/scene_loader_fuzz.cpp with -fsanitize=fuzzer,address,undefined into build/fuzz, seeds
# the corpus with the example scenes and fuzz/seeds/ (scenes for keys the examples do not use), and
# runs for a bounded time (default 60 s). Exits non-zero on
# any crash, hang (> 10 s for one input), out-of-memory or sanitizer report (libFuzzer's own exit
# code), and leaves the reproducer (crash-*, timeout-*, oom-*) in build/fuzz.
#   ./scripts/fuzz.sh [SECONDS]
set -euo pipefail
cd "$(dirname "$0")/.."
seconds="${1:-60}"
out=build/fuzz
cxx="$(command -v clang++-14 || command -v clang++ || true)"
if [ -z "$cxx" ]; then
  echo "fuzz: clang++ not found; install the Debian packages clang and libclang-rt-14-dev" >&2
  exit 1
fi
mkdir -p "$out/corpus" "$out/obj"
sources=(fuzz/scene_loader_fuzz.cpp io/json_errors.cpp io/size_distribution.cpp io/generators.cpp io/scene_document.cpp
  io/scene_loader.cpp io/stl.cpp io/atomic_file.cpp io/buffered_file.cpp solver/*.cpp)
# No OpenMP here: the loader is serial, and the pragmas are ignored.
flags=(-std=c++20 -O1 -g -fno-omit-frame-pointer -Wno-unknown-pragmas
       -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=all -I. -isystem /usr/include/eigen3)
# Rebuild when a source is newer than the binary: one object per source, compiled in parallel (one
# job per core) and through ccache when it is installed (as the CMake presets do), then linked.
if [ ! -x "$out/scene-loader-fuzz" ] || [ -n "$(find fuzz io solver -newer "$out/scene-loader-fuzz" -name '*.[ch]pp' | head -1)" ]; then
  echo "fuzz: building $out/scene-loader-fuzz with $cxx (${#sources[@]} sources)"
  launcher="$(command -v ccache || true)"
  # (the same settings as cmake/DemBuildSpeed.cmake: a clone at another path hits the same entries)
  if [ -n "$launcher" ]; then export CCACHE_BASEDIR="$PWD" CCACHE_NOHASHDIR=1; fi
  rm -f "$out"/obj/*.o
  objects=()
  for src in "${sources[@]}"; do objects+=("$out/obj/$(echo "${src%.cpp}" | tr / _).o"); done
  printf '%s\n' "${sources[@]}" |
    xargs -P "$(nproc 2>/dev/null || echo 2)" -I{} bash -c \
      'src="$1"; shift; obj="'"$out"'/obj/$(echo "${src%.cpp}" | tr / _).o"; exec "$@" -c "$src" -o "$obj"' \
      _ {} ${launcher:+"$launcher"} "$cxx" "${flags[@]}"
  "$cxx" "${flags[@]}" "${objects[@]}" -o "$out/scene-loader-fuzz"
fi
cp examples/*.json fuzz/seeds/*.json "$out/corpus/"
echo "fuzz: running for ${seconds} s (corpus $out/corpus, $(ls "$out/corpus" | wc -l) inputs)"
cd "$out"
UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 ASAN_OPTIONS=detect_leaks=1 \
  ./scene-loader-fuzz -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 -max_len=16384 \
  -print_final_stats=1 -dict=../../fuzz/scene.dict corpus
echo "fuzz: no crash, hang or sanitizer report in ${seconds} s"
