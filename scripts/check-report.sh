#!/usr/bin/env bash
# Checks a generated report in headless Chromium (Debian package `chromium`): loads DIR/index.html
# from the local file, and fails when any image is missing or the verification table is empty.
# Keeps a full-page screenshot as DIR/screenshot.png.
#
#   scripts/check-report.sh [DIR]        (default reports/out)
set -euo pipefail
dir="$(cd "${1:-reports/out}" && pwd)"
page="$dir/index.html"
[ -f "$page" ] || { echo "check-report: $page does not exist (run dem-report first)" >&2; exit 1; }
chrome="$(command -v chromium || command -v chromium-browser || true)"
[ -n "$chrome" ] || { echo "check-report: chromium not found; install the Debian package 'chromium' (scripts/install-deps.sh)" >&2; exit 1; }

profile="$(mktemp -d)"
trap 'rm -rf "$profile"' EXIT
# Flags: as root without a sandbox, no GPU, and nothing that reaches the network.
flags=(--headless --no-sandbox --disable-gpu --disable-quic --no-first-run --disable-background-networking
       --disable-component-update --disable-sync --disable-extensions --hide-scrollbars
       --user-data-dir="$profile" --virtual-time-budget=10000 --allow-file-access-from-files)

dom="$(timeout 120 "$chrome" "${flags[@]}" --dump-dom "file://$page" 2>"$profile/dump.log" || true)"
line="$(printf '%s' "$dom" | grep -o 'report-check: [^<]*end' | head -n1 || true)"
if [ -z "$line" ]; then
  echo "check-report: the page did not report its check line (did it load?)" >&2
  tail -n 20 "$profile/dump.log" >&2 || true
  exit 1
fi
echo "check-report: $line"

# Page height for a full-page screenshot: about 620 px per image plus the tables.
images=$(sed -n 's/.*images=\([0-9]*\).*/\1/p' <<<"$line")
missing=$(sed -n 's/.*missing=\([0-9]*\).*/\1/p' <<<"$line")
rows=$(sed -n 's/.*verification_rows=\([0-9]*\).*/\1/p' <<<"$line")
height=$(( 1500 + images * 640 + rows * 40 ))
[ "$height" -gt 60000 ] && height=60000
timeout 120 "$chrome" "${flags[@]}" --window-size=1280,"$height" --screenshot="$dir/screenshot.png" \
  "file://$page" >"$profile/shot.log" 2>&1 || true
if [ ! -s "$dir/screenshot.png" ]; then
  echo "check-report: no screenshot written" >&2
  tail -n 20 "$profile/shot.log" >&2 || true
  exit 1
fi

status=0
if [ "${images:-0}" -eq 0 ]; then echo "check-report: FAIL: the page has no images" >&2; status=1; fi
if [ "${missing:-1}" -ne 0 ]; then echo "check-report: FAIL: $missing image(s) missing" >&2; status=1; fi
if [ "${rows:-0}" -eq 0 ]; then echo "check-report: FAIL: the verification table is empty" >&2; status=1; fi
[ $status -eq 0 ] && echo "check-report: OK ($images images, $rows verification rows); screenshot $dir/screenshot.png"
exit $status
