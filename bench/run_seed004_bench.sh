#!/usr/bin/env bash
# Seed 004's figures against ours (issue 23): its 2D dam break (scenes/dam_break_2d.json, about
# 4,585 particles), 2D dam breaks of 100k particles (the same scene at 2.13 mm) and of 113,750 (at
# 2 mm), and a 3D 100k dam break of three fluids with heat conduction and tension; plain WCSPH 3D
# 100k beside it for the cost of the terms. Each case runs BENCH_REPEATS (default 3) times in alternation; the
# table gives each run's median ms per step. Prints a Markdown section on stdout (paste it into
# bench/RESULTS.md). Run alone on an idle machine: BENCH_THREADS (default all cores).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(dirname "$here")
bin=${FLUIDCAST_BIN:-$root/build/fluidcast}
threads=${BENCH_THREADS:-$(nproc)}
repeats=${BENCH_REPEATS:-3}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
. "$here/machine.sh" # cpu, commit, dirty

# The 3D 100k block (bench/run_bench.sh's 100k case: 0.8 x 1.0 x 1.0 m at 2 cm) in three slabs.
cat >"$work/three_100k.json" <<'JSON'
{ "name": "bench_three_fluids_100k", "description": "benchmark: three fluids, heat and tension, 100k particles",
  "domain": {"min": [0, 0, 0], "max": [2.4, 1.4, 1.0]},
  "parameters": {"tension": "mueller2005", "surface_tension": 0.3, "interface_tension": 2,
                 "heat_conduction": "cleary_monaghan"},
  "fluids": [{"name": "water", "temperature": 300},
             {"name": "oil", "rest_density": 900, "viscosity": 1, "polarity": "nonpolar", "temperature": 340,
              "thermal_expansion": 0.0005},
             {"name": "ethanol", "rest_density": 789, "temperature": 280}],
  "fluid": [{"type": "box", "min": [0, 0, 0], "max": [0.26, 1.0, 1.0]},
            {"type": "box", "min": [0.26, 0, 0], "max": [0.54, 1.0, 1.0], "fluid": "oil"},
            {"type": "box", "min": [0.54, 0, 0], "max": [0.8, 1.0, 1.0], "fluid": "ethanol"}] }
JSON
sed -e 's/"bench_three_fluids_100k"/"bench_plain_100k"/; s/three fluids, heat and tension, 100k/plain WCSPH, 100k/' \
    -e '/"parameters"/,/"heat_conduction"/d' -e '/"fluids"/,/"temperature": 280}\],/d' \
    -e 's/, "fluid": "oil"//; s/, "fluid": "ethanol"//' "$work/three_100k.json" >"$work/plain_100k.json"

# case name, scene, what to run, extra arguments
cases=(
  "2D dam break (seed 004's, about 4,585)|dam_break_2d|--time 0.5"
  "2D dam break at 2.13 mm (100k, the target's count)|dam_break_2d|--steps 300 --set particle_spacing=0.00213 --set particle_radius=0.001065"
  "2D dam break at 2 mm|dam_break_2d|--steps 300 --set particle_spacing=0.002 --set particle_radius=0.001"
  "3D 100k, plain WCSPH|$work/plain_100k.json|--steps 200"
  "3D 100k, three fluids, heat and tension|$work/three_100k.json|--steps 200"
)
declare -A medians particles
for run in $(seq "$repeats"); do
  for c in "${cases[@]}"; do
    IFS='|' read -r name scene args <<<"$c"
    echo "bench: $name, run $run" >&2
    # shellcheck disable=SC2086
    out=$("$bin" run --scene "$scene" $args --threads "$threads" --quiet)
    particles[$name]=$(awk '/^particles/ {print $2}' <<<"$out")
    medians[$name]+="$(awk '/^median step/ {print $3}' <<<"$out") "
  done
done

echo "## Issue 23: seed 004's cases"
echo
echo "Written by \`bench/run_seed004_bench.sh\`: WCSPH, the adaptive step, each case run $repeats times in"
echo "alternation, median ms per step of each run."
echo
echo "- Machine: ${cpu:-unknown CPU}, $(nproc) cores, $threads threads"
echo "- Commit: $commit$dirty, $(date -u +%Y-%m-%d)"
echo
echo "| case | particles | median ms/step, each run |"
echo "|---|---|---|"
for c in "${cases[@]}"; do
  IFS='|' read -r name scene args <<<"$c"
  echo "| $name | ${particles[$name]} | ${medians[$name]% } |"
done
