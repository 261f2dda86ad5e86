# Per-phase wall-clock timestamps for CI (sourced by .ci/run and scripts/test.sh).
#   phase NAME      ends the current phase (if any) and starts NAME
#   phase_end       ends the current phase
#   phase_summary   prints the table (phase, seconds, load average at its start)
# The phases go to the file named by DEM_PHASE_LOG (exported by .ci/run, so that scripts/test.sh
# adds its phases to the same table); without it, phase and phase_summary do nothing.
phase_end() {
  [ -n "${DEM_PHASE_LOG:-}" ] || return 0
  if [ -n "${DEM_PHASE_NAME:-}" ]; then
    local now; now=$(date +%s)
    printf '%s\t%s\t%s\n' "$DEM_PHASE_NAME" "$((now - DEM_PHASE_START))" "$DEM_PHASE_LOAD" >>"$DEM_PHASE_LOG"
    DEM_PHASE_NAME=""
  fi
}
phase() {
  [ -n "${DEM_PHASE_LOG:-}" ] || return 0
  phase_end
  DEM_PHASE_NAME="$1"
  DEM_PHASE_START=$(date +%s)
  DEM_PHASE_LOAD=$(cut -d' ' -f1 /proc/loadavg 2>/dev/null || echo '?')
  printf '\n== phase %s (load %s, %s)\n' "$1" "$DEM_PHASE_LOAD" "$(date +%T)"
}
phase_summary() {
  [ -n "${DEM_PHASE_LOG:-}" ] && [ -f "$DEM_PHASE_LOG" ] || return 0
  phase_end
  awk -F'\t' 'BEGIN { printf "\n%-34s %8s  %s\n", "phase", "seconds", "load at start" }
              { printf "%-34s %8d  %s\n", $1, $2, $3; total += $2 }
              END { printf "%-34s %8d\n", "total", total }' "$DEM_PHASE_LOG"
}
