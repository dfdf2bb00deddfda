#!/usr/bin/env node
// Turns the JSON of viewer_bench.mjs into the "viewer" section of bench/RESULTS.md (Markdown on
// stdout): node web/bench/viewer_results.mjs RESULT.json. BENCH_COMMIT, BENCH_DATE, BENCH_LOAD,
// BENCH_COMMAND describe the run.
import { readFileSync } from 'node:fs';
import { cpus } from 'node:os';

const TARGET_MS = 4;
const data = JSON.parse(readFileSync(process.argv[2], 'utf8'));
const fmt = (x, digits = 2) => (Number.isFinite(x) ? x.toFixed(digits) : 'n/a');
const count = (n) => (n >= 1e6 ? `${n / 1e6}M` : `${n / 1e3}k`);
const list = (f) => data.results.map((r) => `${count(r.particles)}: ${f(r)}`).join(', ');

const rows = [];
const verdicts = [];
for (const r of data.results) {
  for (const kind of ['key', 'delta']) {
    const s = r[kind];
    rows.push(`| ${count(r.particles)} | ${kind} | ${s.frames} | ${fmt(s.bytes_per_particle)} | ${fmt(s.median_ms)} `
      + `| ${fmt(s.p90_ms)} | ${fmt(s.max_ms)} | ${fmt((s.median_ms * 1e6) / r.particles, 1)} | ${fmt(s.worker_decode_median_ms)} | ${fmt(s.decode_only_median_ms)} | ${s.uploads_deferred ?? 'n/a'} |`);
  }
  if (r.particles >= 1e6) {
    for (const kind of ['delta', 'key']) {
      const s = r[kind];
      const met = s.median_ms <= TARGET_MS;
      verdicts.push(`- ${count(r.particles)} particles, ${kind} frames: median ${fmt(s.median_ms)} ms (p90 ${fmt(s.p90_ms)} ms) `
        + `against the target of ${TARGET_MS} ms: **${met ? 'met' : 'missed'}**${met && s.p90_ms > TARGET_MS ? ' (the median; the p90 is above it)' : ''}; `
        + `the decoding, in the worker beside it, took ${fmt(s.worker_decode_median_ms)} ms.`);
    }
  }
}
const first = data.results[0] || {};
const viewport = first.viewport ? `${first.viewport.width} x ${first.viewport.height}` : 'n/a';
const renderer = first.webgl ? `${first.webgl.version}, ${first.webgl.renderer}` : 'n/a';
const measured = data.results.every((r) => r.timings_match_measures)
  ? 'one `fluidcast-frame` performance measure per timing, checked'
  : '**the number of `fluidcast-frame` measures differs from the number of timings**';

console.log(`## Viewer: main-thread time per received frame (headless Chromium)

The time the viewer's main thread spends on each received binary frame: handing it to the decode
worker, then copying the decoded positions and attribute into the instanced attributes and
uploading them to WebGL, excluding drawing (the GPU's work cannot be measured on this machine:
WebGL runs on SwiftShader, on the CPU). Taken from the viewer's own timers,
\`window.fluidcast.frameTimings()\` (${measured}). Decoding runs in a Web Worker
(decoding: ${list((r) => r.decoding)}); its own time per frame, \`window.fluidcast.decodeTimings()\`,
is the "worker decode" column: it bounds the frame rate the viewer can follow, not the main thread.
"Uploads deferred": frames whose upload the viewer left to the next render because the GPU had not
finished the previous one (then the upload is not in the frame's time); 0 means every counted
frame's time includes its upload.
Written by \`bench/run_viewer_bench.sh\` (\`cmake --build build --target bench_viewer\`).

Method (\`web/bench/viewer_bench.mjs\`): \`fluidcast serve --fast --set substeps=N\` on the dam
breaks of the solver benchmark (spacing 0.02 m; 100k: a 0.8 x 1.0 x 1.0 m block in a 2.4 x 1.4 x
1.0 m tank; 1M: a 2 m cube in a 6.0 x 2.8 x 2.0 m tank), the world paused, then the built viewer
opened in headless Chromium (${viewport} viewport), which joins with a key frame. Frames are then
requested one at a time, each after the viewer handled and drew the previous one, so the server is
idle while the browser works: first delta frames by \`step\` (one frame of \`substeps\` solver
steps of 0.5 ms; substeps ${list((r) => r.substeps)}), the frames of the running stream, here of the
start of the collapse, then key frames by \`key_request\` (what a joining viewer gets: ids,
positions, velocities; simulated time ${list((r) => `${fmt(r.sim_time_end, 3)} s`)}).
Each frame's kind is read from its header by a listener the benchmark adds beside the viewer's.
The first ${first.warmup ?? 0} frames of each kind are not counted (warm-up); the very first frame after
joining took ${list((r) => `${fmt(r.first_frame?.ms, 1)} ms`)} (JIT compilation, buffer allocation).
"Node decode": the same frames decoded in order by \`protocol/js\` in Node ${data.node || ''} (median
of 5 passes), for comparison with the worker's time.

- Machine: ${cpus()[0]?.model || 'unknown CPU'}, ${cpus().length} cores (load average before the run: ${process.env.BENCH_LOAD || 'n/a'})
- Browser: Chromium ${data.chromium} headless; WebGL: ${renderer}
- Server: ${list((r) => `${r.threads} solver thread${r.threads === 1 ? '' : 's'}`)} (idle while a frame is handled)
- Command: \`${(process.env.BENCH_COMMAND || 'node web/bench/viewer_bench.mjs').trim()}\`
- Commit: ${process.env.BENCH_COMMIT || 'unknown'}, ${process.env.BENCH_DATE || new Date().toISOString().slice(0, 10)}

| particles | frame | frames | bytes/particle | main thread median ms | p90 ms | max ms | median ns/particle | worker decode, median ms | Node decode, median ms | uploads deferred |
|---|---|---|---|---|---|---|---|---|---|---|
${rows.join('\n')}

Target: at most ${TARGET_MS} ms of main-thread time per frame at 1M particles (judged on the median).

${verdicts.join('\n')}`);
