#!/usr/bin/env bash
# GPU benchmark (issue 15 item 6), run by scripts/gpu_check.sh on a machine with an NVIDIA GPU:
# the dam break stepped on the device (--backend cuda) with WCSPH at 1M and 10M particles and PBF at
# 1M with 4 iterations (median step over GPU_BENCH_STEPS steps; a device step ends on the device
# before the next begins, so these are device times with the host's share of a step); a 1M world
# served at 30 fps to 1 and 10 loopback clients (steps/s lost to serving); and, with Nsight Compute
# (ncu) present, the DRAM bandwidth the kernels of a 1M WCSPH step achieve. Prints markdown rows
# for the GPU section on stdout; progress on stderr. Needs a GPU: the caller checks.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(dirname "$here")
bin=${FLUIDCAST_BIN:-$root/build-gpu/fluidcast}
serve_bench=${SERVE_BENCH:-$root/build-gpu/serve_bench}
steps=${GPU_BENCH_STEPS:-200}
cases=${GPU_BENCH_CASES:-"sph-1M pbf-1M sph-10M sph-1M-tension"}
work=$(mktemp -d)
. "$here/server_process.sh"
trap 'stop_server; rm -rf "$work"' EXIT

# scene NAME BX BY BZ DX DY DZ: a dam break block of BX x BY x BZ m at spacing 0.02 m in a DX x DY x DZ tank
scene() {
  cat >"$work/$1.json" <<JSON
{ "name": "gpu_bench_$1", "description": "GPU benchmark dam break",
  "domain": {"min": [0, 0, 0], "max": [$5, $6, $7]},
  "fluid": [ {"type": "box", "min": [0, 0, 0], "max": [$2, $3, $4]} ] }
JSON
  echo "$work/$1.json"
}
one_m=$(scene 1M 2.0 2.0 2.0 6.0 2.8 2.0)
small=$(scene 10k 0.4 0.5 0.4 1.2 0.8 0.4) # a dry run of this script: GPU_BENCH_CASES=sph-10k GPU_BENCH_SERVE=small
served=$one_m
[ "${GPU_BENCH_SERVE:-1M}" = small ] && served=$small
ten_m=$(scene 10M 4.32 4.32 4.32 13.0 6.0 4.32)

echo "| case | particles | steps | median step (ms) | target (ms) | verdict |"
echo "|---|---|---|---|---|---|"
for c in $cases; do
  case $c in
    sph-10k) args=(--scene "$small"); target=- ;;
    sph-1M) args=(--scene "$one_m"); target=0.7 ;;
    pbf-1M) args=(--scene "$one_m" --solver pbf --set solver_iterations=4 --set time_step=0.002); target=2.0 ;;
    sph-10M) args=(--scene "$ten_m" --set max_particles=20000000); target=8.0 ;;
    sph-1M-tension) args=(--scene "$one_m" --set tension=mueller2005 --set surface_tension=0.5); target=- ;; # its cost
    *) echo "gpu bench: unknown case $c" >&2; exit 2 ;;
  esac
  echo "gpu bench: $c" >&2
  out=$("$bin" run "${args[@]}" --backend cuda --steps "$steps" --quiet)
  echo "$out" >&2
  particles=$(awk '/^particles/ {print $2}' <<<"$out")
  median=$(awk '/^median step/ {print $3}' <<<"$out")
  verdict=$(awk -v m="$median" -v t="$target" 'BEGIN { print (t == "-") ? "-" : ((m <= t) ? "met" : "missed") }')
  echo "| $c | $particles | $steps | $median | $target | $verdict |"
done

# the 1M world served at 30 fps: steps/s with 1 and with 10 clients (a served world waits for its
# first subscriber, so 1 watching client is the baseline)
val() { sed -nE "s/.*(^| )$1=([^ ]+).*/\2/p" <<<"$2"; }
echo
echo "| served (1M WCSPH, 30 fps) | clients | steps/s | of those with 1 client |"
echo "|---|---|---|---|"
base=""
for n in 1 10; do
  start_server_logged "$work/server.log" --scene "$served" --backend cuda --fast --fps 30
  out=$("$serve_bench" "$port" "$server_pid" "$n" 3 10)
  stop_server
  echo "$out" >&2
  sps=$(val steps_per_s "$(head -1 <<<"$out")")
  [ -n "$base" ] || base=$sps
  echo "| | $n | $sps | $(awk -v a="$sps" -v b="$base" 'BEGIN { printf "%.2f", (b > 0) ? a / b : 0 }') |"
done

# DRAM bandwidth of the kernels of a few 1M WCSPH steps, measured by Nsight Compute
echo
ncu=${NCU:-$(command -v ncu || echo /usr/local/cuda/bin/ncu)}
if [ -x "$ncu" ]; then
  echo "gpu bench: ncu over 5 steps of 1M WCSPH" >&2
  "$ncu" --csv --metrics gpu__time_duration.sum,dram__bytes.sum "$bin" run --scene "$one_m" --backend cuda \
    --steps 5 --quiet >"$work/ncu.csv" 2>"$work/ncu.err" || true
  python3 - "$work/ncu.csv" <<'PY'
import csv, sys
ns = bytes_ = 0.0
with open(sys.argv[1]) as f:
    rows = [r for r in csv.reader(f) if len(r) > 10]
head = rows[0] if rows else []
for r in rows[1:]:
    d = dict(zip(head, r))
    v = float(d.get("Metric Value", "0").replace(",", "") or 0)
    unit = d.get("Metric Unit", "")
    if d.get("Metric Name") == "gpu__time_duration.sum":
        ns += v * {"nsecond": 1, "usecond": 1e3, "msecond": 1e6, "second": 1e9}.get(unit, 1)
    elif d.get("Metric Name") == "dram__bytes.sum":
        bytes_ += v * {"byte": 1, "Kbyte": 1e3, "Mbyte": 1e6, "Gbyte": 1e9}.get(unit, 1)
if ns > 0:
    print(f"- DRAM traffic of the kernels of 5 steps of 1M WCSPH (Nsight Compute): {bytes_ / 1e9:.2f} GB in "
          f"{ns / 1e6:.2f} ms of kernel time, {bytes_ / ns:.0f} GB/s achieved.")
else:
    print("- DRAM bandwidth: Nsight Compute gave no kernel metrics (see its output); not measured.")
PY
else
  echo "- DRAM bandwidth: not measured (Nsight Compute, ncu, is not installed here)."
fi
