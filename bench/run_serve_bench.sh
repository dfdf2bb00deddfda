#!/usr/bin/env bash
# Server benchmark (issue 4): a 100k-particle dam break served with --fast --fps 30 to 0, 1, 10 and
# 100 loopback clients in three configurations (2 threads, 2 threads with passive OpenMP waiting,
# 1 thread), plus command-to-effect latency; writes the "server" section of bench/RESULTS.md.
# Builds nothing. Run: cmake --build build --target bench_serve
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(dirname "$here")
bin=${FLUIDCAST_BIN:-$root/build/fluidcast}
bench=${SERVE_BENCH:-$root/build/serve_bench}
client_counts=${SERVE_BENCH_CLIENTS:-"0 1 10 100"}
warmup=${SERVE_BENCH_WARMUP:-3}
seconds=${SERVE_BENCH_SECONDS:-10}
trials=${SERVE_BENCH_TRIALS:-20}
fps=30
rate=3000 # particles/s of the latency emitter: 1.5 per 0.5 ms step, so the first step emits
work=$(mktemp -d)
load_before=$(cut -d" " -f1-3 /proc/loadavg)
. "$here/server_process.sh"
trap 'stop_server; rm -rf "$work"' EXIT
trap 'exit 130' INT TERM

scene="$work/dam_break_100k.json"
cat >"$scene" <<JSON
{ "name": "serve_dam_break_100k", "description": "server benchmark dam break, 100k particles",
  "domain": {"min": [0, 0, 0], "max": [2.4, 1.4, 1.0]},
  "fluid": [ {"type": "box", "min": [0, 0, 0], "max": [0.8, 1.0, 1.0]} ] }
JSON

# start_server OMP_WAIT_POLICY THREADS: starts a server, sets server_pid and port.
start_server() {
  local policy=$1 threads=$2
  if [ -n "$policy" ]; then
    OMP_WAIT_POLICY=$policy start_server_logged "$work/server.log" --scene "$scene" --fast --fps $fps --threads "$threads"
  else
    start_server_logged "$work/server.log" --scene "$scene" --fast --fps $fps --threads "$threads"
  fi
}

# busy_ticks: busy clock ticks of all cores so far (/proc/stat less idle and iowait).
busy_ticks() { awk '/^cpu / { print $2 + $3 + $4 + $7 + $8 + $9; exit }' /proc/stat; }

# wait_idle: waits (at most 15 s) until the other processes use less than 15% of a core, so that a
# short burst elsewhere does not land in a measurement; the "other processes" column still tells.
wait_idle() {
  local hz a b
  hz=$(getconf CLK_TCK)
  for _ in $(seq 15); do
    a=$(busy_ticks); sleep 1; b=$(busy_ticks)
    [ $(((b - a) * 100)) -lt $((hz * 15)) ] && return 0
  done
  echo "bench: the machine is busy; measuring anyway" >&2
}

# val KEY LINE: the value of KEY=VALUE in a result line.
val() { sed -nE "s/.*(^| )$1=([^ ]+).*/\2/p" <<<"$2"; }

configs=(
  "2 threads|2|"
  "2 threads, OMP_WAIT_POLICY=passive|2|passive"
  "1 thread|1|"
)
rows=""
latency_rows=""
verdicts=""
other_max=0
for c in "${configs[@]}"; do
  IFS='|' read -r label threads policy <<<"$c"
  base=""
  for n in $client_counts; do
    wait_idle
    start_server "$policy" "$threads"
    echo "bench: $label, $n clients (server pid $server_pid, port $port)" >&2
    extra=()
    [ "$n" = 1 ] && [ "$trials" -gt 0 ] && extra=("$trials" "$rate" "$fps")
    out=$("$bench" "$port" "$server_pid" "$n" "$warmup" "$seconds" "${extra[@]}")
    stop_server
    echo "$out" >&2
    load=$(head -1 <<<"$out")
    sps=$(val steps_per_s "$load")
    other_max=$(awk -v a="$other_max" -v b="$(val other_cpu_pct "$load")" 'BEGIN { print ((b > a) ? b : a) }')
    [ -n "$base" ] || base=$sps
    rel=$(awk -v a="$sps" -v b="$base" 'BEGIN { printf "%.2f", (b > 0) ? a / b : 0 }')
    [ "$n" = 100 ] && verdicts+="- $label: steps/s at 100 clients $rel of those at 0 clients: $(awk -v r="$rel" 'BEGIN { print ((r >= 0.9) ? "met" : "missed") }')"$'\n'
    rows+="| $label | $n | $sps | $rel | $(val frames_per_client_s "$load") / $(val frames_per_client_s_min "$load")"
    rows+=" | $(val tier1_clients "$load") | $(val frames_skipped "$load") | $(val mbytes_per_s "$load")"
    rows+=" | $(val net_cpu_pct "$load") | $(val proc_cpu_pct "$load") | $(val bench_cpu_pct "$load")"
    rows+=" | $(val other_cpu_pct "$load") |"$'\n'
    if [ ${#extra[@]} -gt 0 ]; then
      lat=$(sed -n 2p <<<"$out")
      done_=$(val effect_seen "$lat")
      refl=$(val reflected "$lat")
      enc=$(val encoded_reflected "$lat")
      emax=$(val effect_intervals_max "$lat")
      ok=$(awk -v r="$enc" -v t="$trials" -v m="$emax" 'BEGIN { print ((r == t && m <= 2.0) ? "met" : "missed") }')
      verdicts+="- $label: command to effect $(val effect_intervals_median "$lat") / $emax frame intervals (median / max), $enc of $trials first frames encoded after the command reflected it: $ok"$'\n'
      latency_rows+="| $label | $(val trials "$lat") | $done_ | $enc | $refl | $(val ack_ms_median "$lat") / $(val ack_ms_max "$lat")"
      latency_rows+=" | $(val effect_ms_median "$lat") / $(val effect_ms_max "$lat")"
      latency_rows+=" | $(val effect_intervals_median "$lat") / $emax | $(val other_cpu_pct "$lat") | $ok |"$'\n'
    fi
  done
done

verdicts+=$(awk -v m="$other_max" 'BEGIN { if (m > 10) printf "\n**Other processes used up to %.0f%% of a core during a measurement: the figures are disturbed; run again on an idle machine.**\n", m }')
verdicts=${verdicts%$'\n'}
. "$(dirname "${BASH_SOURCE[0]}")/machine.sh" # cpu, commit, dirty
python3 "$here/put_section.py" server <<MD
## Server: 100k-particle dam break streamed to 0-100 loopback clients

\`fluidcast serve --scene dam_break_100k.json --port 0 --fast --fps $fps --threads T\` (the dam
break of the solver and codec benchmarks: 100,000 particles, 2.4 x 1.4 x 1.0 m tank), a fresh
server per row. \`bench/serve_bench\` connects the clients (one thread, \`poll()\` over all sockets;
each sends \`hello\` and \`subscribe\` to world 1 with the default options: 16 bits, no attributes,
max_fps 30), warms up ${warmup} s and measures ${seconds} s. Written by \`bench/run_serve_bench.sh\`
(\`cmake --build build --target bench_serve\`).

- Machine: ${cpu:-unknown CPU}, $(nproc) cores; server and clients share them (load average
  before the run: $load_before)
- Commit: $commit$dirty, $(date -u +%Y-%m-%d)

| server | clients | steps/s | relative to 0 clients | frames per client per s (mean / min) | clients on tier 1 at the end | frames skipped | MB/s sent | network thread CPU % | server process CPU % | bench client CPU % | other processes CPU % |
|---|---|---|---|---|---|---|---|---|---|---|---|
$rows
Command to effect, with one client subscribed that also sends the commands: $trials times,
300-400 ms apart (so that the phase against the steps varies), \`emitter_add\` (one particle per
layer, $rate particles/s, at [1.8, 1.2, 0.5] shooting down) and, once the rise was seen,
\`emitter_remove\`. Latency: from sending \`emitter_add\` to its \`ack\`, and to the first frame
whose header \`count\` exceeds the count before. "Encoded after the command": the first frame
whose sequence is at least the ack's \`sequence\` (the first snapshot the world took after applying
the request); "received after the ack": the first frame that arrives after the \`ack\` (it may have
been encoded before). Frame interval 1/$fps s.

\`fluidcast serve\` uses cores - 1 OpenMP threads by default (1 on this 2-core machine), leaving the
network thread a core: the "1 thread" rows are the default. A command waits for the step in
progress, its effect needs one more step, and the world then publishes at once (at most at twice
the frame rate): with steps longer than a frame interval (about 53 ms on one thread here, 30 ms on
two) the end-to-end latency cannot be under two frame intervals.

| server | trials | rise seen | first frame encoded after the command reflects it | first frame received after the ack reflects it | ack ms (median / max) | effect ms (median / max) | effect in frame intervals (median / max) | other processes CPU % | target |
|---|---|---|---|---|---|---|---|---|---|
$latency_rows
Targets: world steps/s at 100 clients >= 0.9 of those at 0 clients; the first frame after the ack
reflects the command and the effect arrives within 2 frame intervals end to end (target column:
the first frame encoded after the command reflected it in every trial, and the worst trial took at
most 2 intervals).

${verdicts}

How it was measured: steps/s is the mean of the server's \`fluidcast_world_steps_per_second\`
gauge (a 1 s window) read from \`/metrics\` once a second; frames per client are the binary
messages each client received (only their 80-byte headers are read; the rest is discarded with
\`MSG_TRUNC\`); frames skipped and MB/s are differences of \`/metrics\` counters; CPU % is
utime + stime from \`/proc/PID/task/PID/stat\` (the network thread is the main thread) and
\`/proc/PID/stat\` (the whole server), as % of one core; loopback TCP work done in the server's
system calls counts as the server's; "other processes" is the machine's busy time (\`/proc/stat\`)
less the server's and the bench client's: near 0 when nothing else competed for the cores.
A fresh server's steps/s vary by a few per cent from run to run, and so does the ratio.
MD
echo "bench: server section of bench/RESULTS.md written" >&2
