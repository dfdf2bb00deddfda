#!/usr/bin/env bash
# The shipped scenes' soak: each scene with its own solver for SOAK_TIME (default 60) simulated
# seconds with the adaptive step and the runner's blow-up watch (--on-blowup stop); writes the soak
# section of bench/RESULTS.md: whether it blew up, the fastest particle, the density error, the mean
# step and the wall time per simulated second, with the machine and the commit.
# Run alone on an idle machine: bash bench/soak_scenes.sh (SOAK_SCENES="water_drop fountain" picks
# scenes, SOAK_THREADS the OpenMP threads; SOAK_KEEP=1 keeps the rows of scenes this run leaves out,
# each row naming the commit it ran at).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(dirname "$here")
bin=${FLUIDCAST_BIN:-$root/build/fluidcast}
seconds=${SOAK_TIME:-60}
threads=${SOAK_THREADS:-$(nproc)}
# every shipped scene, the cheap ones first so that a soak cut short has the most rows
cheap_first="dam_break_2d double_dam_break_2d fountain water_drop two_fluids pool_colliders dam_break_pbf dam_break"
shipped=$(cd "$root/scenes" && ls ./*.json | sed 's|^\./||; s|\.json$||')
ordered=$(for s in $cheap_first; do grep -qx "$s" <<<"$shipped" && echo "$s"; done
          grep -vxF -f <(tr ' ' '\n' <<<"$cheap_first") <<<"$shipped")
scenes=${SOAK_SCENES:-$(echo $ordered)}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
. "$here/machine.sh" # cpu, commit, dirty

# Writes the soak section with the rows so far ($1: what is still to come, "" when done).
write_section() {
  python3 "$here/put_section.py" soak <<MD
## Shipped scenes: ${seconds} s soak

Each shipped scene with its own solver for ${seconds} s of simulated time: the adaptive step (on by
default) and the runner's blow-up watch, the server's checks after every step. Written by
\`bench/soak_scenes.sh\` (run alone; it takes long), a row as each scene ends. Max speed: the
fastest particle over the run; density error: the mean compression mean(max(rho/rho0 - 1, 0))
averaged over the steps, and its largest; dt: the mean step and the condition that bounded most
steps; wall s per simulated s: the steps' wall time over the simulated time.

- Machine: ${cpu:-unknown CPU}, $(nproc) cores, $threads threads; last run $(date -u +%Y-%m-%d)

| scene | commit | outcome | simulated s | max speed (m/s) | mean density error | largest mean density error | mean dt (ms) | bound most often | wall s per simulated s |
|---|---|---|---|---|---|---|---|---|---|
$kept$rows$1
MD
}

# SOAK_KEEP=1: the section's rows of the scenes not run now (a row without a commit column gets the
# section's old "Commit:" line's).
kept=""
if [ "${SOAK_KEEP:-0}" = 1 ]; then
  kept=$(python3 - "$here/RESULTS.md" $scenes <<'PY'
import re, sys
text = open(sys.argv[1]).read()
rerun = set(sys.argv[2:])
section = text.split("<!-- BEGIN soak -->", 1)[-1].split("<!-- END soak -->", 1)[0]
old_commit = re.search(r"^- Commit: (\S+)", section, re.M)
for line in section.splitlines():
    cells = [c.strip() for c in line.strip().strip("|").split("|")]
    if not line.startswith("| ") or cells[0] in ("scene", "") or set(cells[0]) <= set("-") or cells[0] in rerun:
        continue
    if len(cells) == 9:  # written before rows named their commit
        cells.insert(1, old_commit.group(1).rstrip(",") if old_commit else "?")
    print("| " + " | ".join(cells) + " |")
PY
)
  [ -n "$kept" ] && kept+=$'\n'
fi

rows=""
for scene in $scenes; do
  echo "soak: $scene, $seconds s simulated on $threads threads" >&2
  stats="$work/$scene.jsonl"
  status=0
  out=$(FLUIDCAST_SCENES_DIR="$root/scenes" "$bin" run --scene "$scene" --time "$seconds" --threads "$threads" \
          --quiet --stats "$stats" 2>"$work/$scene.err") || status=$?
  echo "$out" >&2
  cat "$work/$scene.err" >&2
  outcome=$([ "$status" -eq 0 ] && echo "stable" || { [ "$status" -eq 3 ] && echo "BLEW UP" || echo "failed ($status)"; })
  row=$(python3 - "$stats" "$scene" "$outcome" "$commit$dirty" <<'PY'
import json, sys
path, scene, outcome, commit = sys.argv[1:5]
rows = [json.loads(line) for line in open(path)]
def col(key):
    return [r[key] for r in rows if r.get(key) is not None]
speed = col("max_speed")
mean_error, max_error = col("mean_density_error"), col("max_density_error")
dt, wall = col("dt"), col("wall_ms")
simulated = rows[-1]["time"] if rows else 0.0
bounds = {}
for r in rows:
    bounds[r.get("dt_bound")] = bounds.get(r.get("dt_bound"), 0) + 1
bound = max(bounds, key=bounds.get) if bounds else "-"
fmt = lambda v, f: f % v if v is not None else "-"
print("| %s | %s | %s | %.3g | %s | %s | %s | %s | %s | %s |" % (
    scene, commit, outcome, simulated,
    fmt(max(speed) if speed else None, "%.3g"),
    fmt(100 * sum(mean_error) / len(mean_error) if mean_error else None, "%.3g%%"),
    fmt(100 * max(mean_error) if mean_error else None, "%.3g%%"),
    fmt(1e3 * sum(dt) / len(dt) if dt else None, "%.3g"),
    bound,
    fmt(1e-3 * sum(wall) / simulated if simulated > 0 else None, "%.3g")))
PY
)
  rows+="$row"$'\n'
  write_section "(still running: the scenes after $scene)"
done
write_section ""

