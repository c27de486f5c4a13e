#!/bin/bash
# The event quiet time per toolkit: starts one app per toolkit on the current desktop (run it inside
# `computer-use sandbox exec --`), runs bench/event_quiet.py on one of its controls and prints one summary line per
# app (bench/event_quiet_summary.py). The table in docs/settle.md comes from these lines.
# usage: bench/event_quiet_toolkits.sh [RUNS] [LABELS]   (each app: 1 s idle, then RUNS acts 800 ms apart; LABELS: an
# extended regular expression, only the cases whose label matches; RAW=FILE: also append each app's raw JSON line)
set -u
HERE=$(cd "$(dirname "$0")" && pwd)
RUNS=${1:-10}
ONLY=${2:-.}
PAGE="file://$HERE/../test/apps/order-form.html"
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT

# label | app name on the bus | control | role | command (run by bash)
CASES=(
  "GTK 3|act-lab|Agree|check box|/usr/bin/python3 $HERE/../test/apps/act-lab.py"
  "GTK 3|gtk3-widget-factory|togglebutton|toggle button|gtk3-widget-factory"
  "GTK 3 (page switch)|gtk3-widget-factory|Page 2;Page 1|radio button|gtk3-widget-factory"
  "GTK 4|gtk4-widget-factory|togglebutton|push button|GSK_RENDERER=cairo gtk4-widget-factory"
  "Qt 6|qt6-form.py|Go|push button|env -u AT_SPI_BUS_ADDRESS QT_ACCESSIBILITY=1 QT_LINUX_ACCESSIBILITY_ALWAYS_ON=1 /usr/bin/python3 $HERE/../test/apps/qt6-form.py $TMP/qt.out"
  "Gecko|Firefox|Gift wrap|check box|GNOME_ACCESSIBILITY=1 firefox-esr --new-instance --profile $TMP/ff $PAGE"
  "Chromium|Chromium|Gift wrap|check box|chromium --no-sandbox --force-renderer-accessibility --user-data-dir=$TMP/cr --no-first-run $PAGE"
  "LibreOffice|soffice|Bold|toggle button|soffice --writer --norestore -env:UserInstallation=file://$TMP/lo"
)

for c in "${CASES[@]}"; do
  IFS='|' read -r label app control role cmd <<<"$c"
  grep -Eq "$ONLY" <<<"$label" || continue
  mkdir -p "$TMP/ff" "$TMP/cr"
  setsid bash -c "exec env $cmd" >/dev/null 2>&1 &
  pid=$!
  out='{"error": "not found"}'
  for _ in $(seq 1 30); do
    sleep 1
    out=$(/usr/bin/python3 "$HERE/event_quiet.py" --app "$app" --control "$control" --role "$role" --runs "$RUNS" --window 800)
    grep -q 'control not found' <<<"$out" || break
  done
  [ -n "${RAW:-}" ] && printf '%s\t%s\n' "$label" "$out" >>"$RAW"
  printf '%s\t' "$label"
  /usr/bin/python3 "$HERE/event_quiet_summary.py" <<<"$out"
  kill -- -"$pid" 2>/dev/null
  sleep 1
done
