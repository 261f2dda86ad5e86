# Per-phase wall-clock and CPU times for CI (sourced by .ci/run and scripts/test.sh).
#   phase NAME      ends the current phase (if any) and starts NAME
#   phase_end       ends the current phase
#   phase_summary   prints the table: phase, wall seconds, CPU seconds (user + system of the
#                   commands the phase ran), load average at its start
# CPU seconds do not grow when other jobs share the machine (wall seconds do): on an otherwise idle
# 2-core machine a phase that keeps both cores busy takes about CPU / 2.
# The phases go to the file named by DEM_PHASE_LOG (exported by .ci/run, so that scripts/test.sh
# adds its phases to the same table); without it, these functions do nothing.
_phase_cpu() {  # user + system seconds of this shell's finished children (/proc: cutime, cstime)
  awk -v tck="$(getconf CLK_TCK 2>/dev/null || echo 100)" \
    '{ sub(/^.*\) /, ""); printf "%.1f", ($14 + $15) / tck }' "/proc/$$/stat" 2>/dev/null || echo 0
}
phase_end() {
  [ -n "${DEM_PHASE_LOG:-}" ] || return 0
  if [ -n "${DEM_PHASE_NAME:-}" ]; then
    local now cpu
    now=$(date +%s)
    cpu=$(_phase_cpu)
    printf '%s\t%s\t%s\t%s\n' "$DEM_PHASE_NAME" "$((now - DEM_PHASE_START))" \
      "$(awk -v a="$cpu" -v b="$DEM_PHASE_CPU" 'BEGIN { printf "%.0f", a - b }')" "$DEM_PHASE_LOAD" >>"$DEM_PHASE_LOG"
    DEM_PHASE_NAME=""
  fi
}
phase() {
  [ -n "${DEM_PHASE_LOG:-}" ] || return 0
  phase_end
  DEM_PHASE_NAME="$1"
  DEM_PHASE_START=$(date +%s)
  DEM_PHASE_CPU=$(_phase_cpu)
  DEM_PHASE_LOAD=$(cut -d' ' -f1 /proc/loadavg 2>/dev/null || echo '?')
  printf '\n== phase %s (load %s, %s)\n' "$1" "$DEM_PHASE_LOAD" "$(date +%T)"
}
phase_summary() {
  [ -n "${DEM_PHASE_LOG:-}" ] && [ -f "$DEM_PHASE_LOG" ] || return 0
  phase_end
  awk -F'\t' 'BEGIN { printf "\n%-28s %8s %8s  %s\n", "phase", "wall s", "CPU s", "load at start" }
              { printf "%-28s %8d %8d  %s\n", $1, $2, $3, $4; wall += $2; cpu += $3 }
              END { printf "%-28s %8d %8d\n", "total", wall, cpu }' "$DEM_PHASE_LOG"
}
