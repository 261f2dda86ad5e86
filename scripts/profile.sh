#!/usr/bin/env bash
# Profiles one benchmark's hot loops: builds the `profile` preset (release flags plus -g and frame
# pointers), runs the benchmark under valgrind's callgrind (instruction counts: repeatable, whatever
# else the machine does) and prints the functions and source lines that cost the most.
#
#   ./scripts/profile.sh PROGRAM FILTER [FUNCTION]
#       e.g. ./scripts/profile.sh dem-bench-integrator 'N:10000/threads:1'
#       The benchmark runs for about 1 s of valgrind time, so its loop outweighs its set-up.
#       FUNCTION limits the counts to one function and its callees, e.g. 'dem::Scene::step()'.
#       Give the exact name: a pattern ending in * also matches OpenMP's outlined clones
#       ('... [clone ._omp_fn.0]'), whose entry toggles the collection off again.
#   ./scripts/profile.sh --perf PROGRAM FILTER   perf record/report instead (where perf counters work)
# Output: build/profile/callgrind.<program>.out (open with kcachegrind or callgrind_annotate).
set -euo pipefail
cd "$(dirname "$0")/.."
use_perf=0
if [ "${1:-}" = "--perf" ]; then use_perf=1; shift; fi
[ $# -eq 2 ] || [ $# -eq 3 ] || { sed -n '2,13p' "$0"; exit 2; }
program="$1" filter="$2" function="${3:-}"
cmake --preset profile >/dev/null
cmake --build --preset profile --target "$program"
bin="$(find build/profile -maxdepth 2 -type f -perm -u+x -name "$program" | head -n1)"
[ -n "$bin" ] || { echo "profile: $program was not built" >&2; exit 1; }
# One thread, few iterations: the profile is about the loop body, not the schedule.
export OMP_NUM_THREADS=1
args=(--benchmark_filter="$filter" --benchmark_min_time=1)
if [ $use_perf -eq 1 ]; then
  perf record -g -o "build/profile/perf.$program.data" "$bin" "${args[@]}"
  perf report -i "build/profile/perf.$program.data" --stdio --no-children | head -n 60
else
  out="build/profile/callgrind.$program.out"
  collect=()
  [ -n "$function" ] && collect=(--collect-atstart=no --toggle-collect="$function")
  valgrind --tool=callgrind "${collect[@]}" --callgrind-out-file="$out" "$bin" "${args[@]}"
  callgrind_annotate --auto=no "$out" | sed -n '1,45p'
  echo "profile: full data in $out (callgrind_annotate --auto=yes $out for per-line costs)"
fi
