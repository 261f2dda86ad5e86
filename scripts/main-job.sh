#!/usr/bin/env bash
# The main job: install what is missing, build the release preset, run every verification case,
# run the benchmarks, write the report (reports/out/index.html) and check it in headless Chromium.
#
#   ./scripts/main-job.sh [--quick | --full] [--no-bench]
#     --quick     (default) short benchmark runs, sizes 10^3..10^5: the whole job in a few minutes
#                 (dem-bench-scene first settles its 1000-sphere bed, about 30 s of one idle core)
#     --full      longer benchmark runs (0.5 s per figure) and the 10^6 sizes
#     --no-bench  skip the benchmarks (the report then has no benchmark tables)
# With LIGGGHTS installed (scripts/install-deps.sh --peers) the benchmarks include the peer benchmark
# (benchmarks/peers/run_peers.py: dem-run beside LIGGGHTS on the settled bed, 10^4 and 10^5, with
# --full 10^6 too; the bed is settled into build/peers/ first when missing, 1-2 minutes); without
# LIGGGHTS it is skipped.
# Exits non-zero when a verification case fails (the report is still written) or a step fails.
set -euo pipefail
cd "$(dirname "$0")/.."

mode=quick bench=1
for a in "$@"; do
  case "$a" in
    --quick) mode=quick ;;
    --full) mode=full ;;
    --no-bench) bench=0 ;;
    -h|--help) sed -n '2,15p' "$0"; exit 0 ;;
    *) echo "main-job: unknown argument '$a' (see --help)" >&2; exit 2 ;;
  esac
done

out=reports/out
logs=build/main-job-logs
start=$(date +%s)
total=6
elapsed() { local s=$(( $(date +%s) - start )); printf '%02d:%02d' $((s / 60)) $((s % 60)); }
step() { printf '\n== [%s] %s\n' "$(elapsed)" "$*"; }

# run_logged LABEL LOG CMD...: runs CMD with its output in LOG and keeps one progress line
# (elapsed time and the log's last line) up to date while it runs; on failure prints the log's tail.
run_logged() {
  local label="$1" log="$2"
  shift 2
  "$@" >"$log" 2>&1 &
  local pid=$! last="" tick=0
  while kill -0 "$pid" 2>/dev/null; do
    sleep 1
    tick=$((tick + 1))
    last="$(tail -n 1 "$log" 2>/dev/null | tr -d '\r' | cut -c1-90)"
    if [ -t 1 ]; then
      printf '\r\033[K  [%s] %s: %s' "$(elapsed)" "$label" "$last"
    elif [ $((tick % 15)) -eq 0 ]; then
      printf '  [%s] %s: %s\n' "$(elapsed)" "$label" "$last"
    fi
  done
  local rc=0
  wait "$pid" || rc=$?
  [ -t 1 ] && printf '\r\033[K'
  if [ $rc -ne 0 ]; then
    echo "  $label failed (exit $rc); last lines of $log:" >&2
    tail -n 30 "$log" >&2
  fi
  return $rc
}

step "1/$total dependencies"
./scripts/install-deps.sh

step "2/$total build (release preset)"
mkdir -p build
cmake --preset release >/dev/null
mkdir -p "$logs"
run_logged "build" "$logs/build.log" cmake --build --preset release
echo "  built ($(grep -c 'Built target' "$logs/build.log" || true) targets up to date)"

step "3/$total verification suite -> $out/"
rm -rf "$out"
mkdir -p "$out"
verify_rc=0
run_logged "dem-verify" "$logs/verify.log" ./build/release/dem-verify --out "$out" || verify_rc=$?
cat "$logs/verify.log"

if [ $bench -eq 1 ]; then
  step "4/$total benchmarks ($mode) -> $out/bench-*.json"
  if [ "$mode" = full ]; then
    min_time=0.5
    export DEM_BENCH_LARGE=1
  else
    min_time=0.2
  fi
  mapfile -t programs < <(find build/release -maxdepth 2 -type f -perm -u+x -name 'dem-bench-*' | sort)
  [ ${#programs[@]} -gt 0 ] || echo "  no benchmark programs were built"
  for prog in "${programs[@]}"; do
    name="$(basename "$prog")"
    run_logged "$name" "$logs/$name.log" "$prog" --benchmark_min_time="$min_time" \
      --benchmark_out="$out/bench-${name#dem-bench-}.json" --benchmark_out_format=json
    grep -E 'items_per_second' "$logs/$name.log" | sed 's/^/  /' | cut -c1-140 || true
  done
  # The peer benchmark (docs/performance.md "Beside LIGGGHTS"): peers.csv for the report's table.
  if command -v liggghts >/dev/null 2>&1; then
    peer_sizes=1e4,1e5
    [ "$mode" = full ] && peer_sizes=1e4,1e5,1e6
    missing_bed=0
    for s in ${peer_sizes//,/ }; do
      for e in json in data; do [ -f "build/peers/bed_${s}_cell.$e" ] || missing_bed=1; done
    done
    if [ $missing_bed -eq 1 ]; then
      bed_step=all  # pour and settle the tile, then tile it
      [ -f build/peers/tile.json ] && bed_step=tile
      run_logged "make_bed.py $bed_step" "$logs/peers-bed.log" python3 benchmarks/peers/make_bed.py "$bed_step" \
        --dem-run build/release/dem-run --dir build/peers --sizes "$peer_sizes"
    fi
    run_logged "run_peers.py" "$logs/peers.log" python3 benchmarks/peers/run_peers.py --dir build/peers \
      --out "$out" --dem-run build/release/dem-run --sizes "$peer_sizes"
    tail -n "$(( $(tr ',' '\n' <<<"$peer_sizes" | wc -l) + 1 ))" "$logs/peers.log" | sed 's/^/  /'
  else
    echo "  LIGGGHTS not installed: peer benchmark skipped (scripts/install-deps.sh --peers installs it)"
  fi
else
  step "4/$total benchmarks skipped (--no-bench)"
fi

step "5/$total API reference and report -> $out/index.html"
# The API reference (Doxygen) next to the report, linked from it; skipped without Doxygen.
if cmake --build --preset release --target help | grep -q '^\.\.\. docs$'; then
  run_logged "doxygen" "$logs/docs.log" cmake --build --preset release --target docs
  rm -rf "$out/api" && cp -r build/release/docs/html "$out/api"
  echo "  API reference: $out/api/index.html"
else
  echo "  no Doxygen: the report has no API reference (scripts/install-deps.sh installs it)"
fi

./build/release/dem-report --dir "$out"

step "6/$total check the report in headless Chromium"
./scripts/check-report.sh "$out"
./build/release/dem-report --dir "$out" >/dev/null  # again, so that the page links the screenshot

step "done in $(elapsed): open $out/index.html (screenshot: $out/screenshot.png)"
if [ $verify_rc -ne 0 ]; then
  echo "main-job: some verification case failed (see the table above and the report)" >&2
  exit $verify_rc
fi
