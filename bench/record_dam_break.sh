#!/usr/bin/env bash
# Records the codec benchmark's input: a 100k-particle dam break as 301 PLY frames at 30 fps
# (10 s of simulated time, 66 steps of dt = 1/1980 s per frame). Usage: record_dam_break.sh OUTDIR
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(dirname "$here")
bin=${FLUIDCAST_BIN:-$root/build/fluidcast}
out=${1:?usage: record_dam_break.sh OUTDIR}
steps_per_frame=66
frames=${RECORD_FRAMES:-300}
mkdir -p "$out"
scene="$out/dam_break_100k.json"
cat >"$scene" <<JSON
{ "name": "codec_dam_break_100k", "description": "codec benchmark dam break, 100k particles",
  "domain": {"min": [0, 0, 0], "max": [2.4, 1.4, 1.0]},
  "fluid": [ {"type": "box", "min": [0, 0, 0], "max": [0.8, 1.0, 1.0]} ] }
JSON
"$bin" run --scene "$scene" --steps $((frames * steps_per_frame)) --every $steps_per_frame \
  --set time_step=$(awk "BEGIN{printf \"%.9g\", 1/30/$steps_per_frame}") --export "$out" --quiet
touch "$out/.complete"
