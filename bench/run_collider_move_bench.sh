#!/usr/bin/env bash
# Moving a collider at about a million boundary samples, before and after the samples kept their
# owners; writes the "collider_move" section of bench/RESULTS.md. Run alone, on an idle machine:
# cmake --build build --target bench_collider_move
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(dirname "$here")
bench=${COLLIDER_MOVE_BENCH:-$root/build/collider_move_bench}
table=$(OMP_NUM_THREADS=${OMP_NUM_THREADS:-$(nproc)} "$bench")
. "$here/machine.sh" # cpu, commit, dirty
python3 "$here/put_section.py" collider_move <<MD
## Moving a collider at a million boundary samples (issue 22)

A 2 x 1 x 1 m tank at 5 mm spacing (h = 10 mm) with a 1 x 0.5 x 0.5 m box: the SPH family's
boundary samples, moved and turned seven times. "Sampling all again" is \`fc_boundary_build\`,
what each \`collider_move\` cost before; "carrying" is \`fc_boundary_update\`, which moves the
box's samples, sorts them again and weighs the volumes within h of a moved sample. Written by
\`bench/run_collider_move_bench.sh\` (\`cmake --build build --target bench_collider_move\`).

- Machine: ${cpu:-unknown CPU}, $(OMP_NUM_THREADS=${OMP_NUM_THREADS:-$(nproc)} printenv OMP_NUM_THREADS) threads
- Commit: $commit, $(date -u +%Y-%m-%d)

$table
MD
echo "bench: collider_move section of bench/RESULTS.md written" >&2
