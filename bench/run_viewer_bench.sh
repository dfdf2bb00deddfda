#!/usr/bin/env bash
# Viewer benchmark (issue 5): main-thread time per received frame (worker hand-over + attribute upload) in
# headless Chromium at 100k and 1M particles, from the viewer's own performance timers; writes the
# "viewer" section of bench/RESULTS.md. Builds the viewer (web/dist) when it is missing, not the
# server. Run: cmake --build build --target bench_viewer
# Environment: FLUIDCAST_BIN (default build/fluidcast), VIEWER_BENCH_ARGS (extra options of
# web/bench/viewer_bench.mjs, e.g. "--sizes 100k --delta 10"), VIEWER_BENCH_JSON (keep the raw
# results there), CHROMIUM_PATH. Takes about 8 minutes on a 2-core machine.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(dirname "$here")
export FLUIDCAST_BIN=${FLUIDCAST_BIN:-$root/build/fluidcast}
[ -x "$FLUIDCAST_BIN" ] || { echo "bench: no server at $FLUIDCAST_BIN (build it first)" >&2; exit 1; }
if [ ! -f "$root/web/dist/index.html" ] || [ ! -d "$root/web/node_modules/playwright-core" ]; then
  echo "bench: building the viewer (cd web && npm ci && npm run build)" >&2
  (cd "$root/web" && npm ci --no-audit --no-fund && npm run build)
fi
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
# Waits (at most 60 s) until the machine is idle (under 15% of a core busy over a second), so that
# a burst elsewhere does not land in the measurement.
hz=$(getconf CLK_TCK)
busy_ticks() { awk '/^cpu / { print $2 + $3 + $4 + $7 + $8 + $9; exit }' /proc/stat; }
for _ in $(seq 60); do
  a=$(busy_ticks); sleep 1; b=$(busy_ticks)
  [ $(((b - a) * 100)) -lt $((hz * 15)) ] && break
done
load_before=$(cut -d" " -f1-3 /proc/loadavg)
# shellcheck disable=SC2086 # VIEWER_BENCH_ARGS is a list of options
node "$root/web/bench/viewer_bench.mjs" --json "$work/viewer.json" ${VIEWER_BENCH_ARGS:-} >/dev/null
. "$(dirname "${BASH_SOURCE[0]}")/machine.sh" # cpu, commit, dirty
BENCH_COMMIT="$commit$dirty" BENCH_DATE=$(date -u +%Y-%m-%d) BENCH_LOAD="$load_before" \
BENCH_COMMAND="node web/bench/viewer_bench.mjs ${VIEWER_BENCH_ARGS:-}" \
  node "$root/web/bench/viewer_results.mjs" "$work/viewer.json" | python3 "$here/put_section.py" viewer
[ -z "${VIEWER_BENCH_JSON:-}" ] || cp "$work/viewer.json" "$VIEWER_BENCH_JSON"
echo "bench: viewer section of bench/RESULTS.md written" >&2
