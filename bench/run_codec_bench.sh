#!/usr/bin/env bash
# Frame codec benchmark: records a 100k-particle dam break once (301 frames at 30 fps, cached in
# build/codec_recording), encodes and decodes it in C (one thread) and decodes it in Node, and
# writes the "codec" section of bench/RESULTS.md. Run: cmake --build build --target bench_codec
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(dirname "$here")
bench=${CODEC_BENCH:-$root/build/codec_bench}
recording=${CODEC_RECORDING:-$root/build/codec_recording}
[ -f "$recording/.complete" ] || bash "$here/record_dam_break.sh" "$recording"
encoded=$(mktemp -d)
trap 'rm -rf "$encoded"' EXIT
c_table=$("$bench" "$recording" 0 0 0 2.4 1.4 1.0 "$encoded")
js=$(node "$here/decode_bench.mjs" "$encoded")
js_delta=$(grep '"category":"delta"' <<<"$js" | sed -E 's/.*"decode_ns_per_particle":([0-9.]+).*/\1/')
js_key=$(grep '"category":"key"' <<<"$js" | sed -E 's/.*"decode_ns_per_particle":([0-9.]+).*/\1/')
. "$(dirname "${BASH_SOURCE[0]}")/machine.sh" # cpu, commit, dirty
python3 "$here/put_section.py" codec <<MD
## Frame codec: 100k-particle dam break, 300 frames at 30 fps

Input: \`bench/record_dam_break.sh\` (the headless runner, WCSPH, 100,000 particles in a
2.4 x 1.4 x 1.0 m tank, 10 s at 30 fps). Positions are quantized in the tank's bounds; each
frame after the first is a delta against the previous one (tier 1). Encode and decode are timed
per frame on one thread (median over the frames); key frames are the ones a joining client gets
(at frames 0, 100, 200, 300). Written by \`bench/run_codec_bench.sh\`
(\`cmake --build build --target bench_codec\`).

- Machine: ${cpu:-unknown CPU}, one thread; Node $(node --version)
- Commit: $commit, $(date -u +%Y-%m-%d)

$c_table

JavaScript decoder (\`protocol/js\`, \`bench/decode_bench.mjs\`, Node, 16 bits, positions only):
delta frames $js_delta ns/particle, key frame $js_key ns/particle (median of repeats).

Baselines: float32 positions 12 B/particle, uint16 positions 6 B/particle (Cesium), meshoptimizer
coloured points 4.5-5 B/particle. Targets: delta frames <= 3.0 B/particle at 16 bits and
<= 1.5 at 12 bits; encode <= 5 ns/particle; JS decode <= 10 ns/particle.
MD
echo "bench: codec section of bench/RESULTS.md written" >&2
