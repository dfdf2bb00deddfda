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

const rows = [];
const verdicts = [];
for (const r of data.results) {
  for (const kind of ['key', 'delta']) {
    const s = r[kind];
    rows.push(`| ${count(r.particles)} | ${kind} | ${s.frames} | ${fmt(s.bytes_per_particle)} | ${fmt(s.median_ms)} | ${fmt(s.p90_ms)} | ${fmt(s.max_ms)} | ${fmt((s.median_ms * 1e6) / r.particles, 1)} |`);
  }
  if (r.particles >= 1e6) {
    for (const kind of ['delta', 'key']) {
      const s = r[kind];
      const met = s.median_ms <= TARGET_MS;
      verdicts.push(`- ${count(r.particles)} particles, ${kind} frames: median ${fmt(s.median_ms)} ms, p90 ${fmt(s.p90_ms)} ms against the target of ${TARGET_MS} ms: **${met ? 'met' : 'missed'}**${met && s.p90_ms > TARGET_MS ? ' (the median; the p90 is above it)' : ''}.`);
    }
  }
}
const first = data.results[0] || {};
const viewport = first.viewport ? `${first.viewport.width} x ${first.viewport.height}` : 'n/a';
const renderer = first.webgl ? `${first.webgl.version}, ${first.webgl.renderer}` : 'n/a';
const firsts = data.results.map((r) => `${count(r.particles)}: ${fmt(r.first_frame?.ms)} ms`).join(', ');
const substeps = data.results.map((r) => `${count(r.particles)}: ${r.substeps}`).join(', ');
const ends = data.results.map((r) => `${count(r.particles)}: ${fmt(r.sim_time_end, 3)}`).join(', ');
const measured = data.results.every((r) => r.timings_match_measures)
  ? 'as many `fluidcast-frame` performance measures as frame timings (checked)'
  : '**the count of `fluidcast-frame` measures differs from the count of frame timings**';

console.log(`## Viewer: main-thread time per received frame (headless Chromium)

The time the viewer's main thread spends on each received binary frame: decoding it and uploading
the particle attributes to WebGL, excluding drawing (the GPU's work cannot be measured on this
machine: WebGL runs on SwiftShader, the CPU). Taken from the viewer's own timers,
\`window.fluidcast.frameTimings()\` (the same spans as the \`fluidcast-frame\` performance measures;
${measured}). Written by \`bench/run_viewer_bench.sh\` (\`cmake --build build --target bench_viewer\`).

Method: \`web/bench/viewer_bench.mjs\` starts \`fluidcast serve --fast --set substeps=N\` on the dam
breaks of the solver benchmark (spacing 0.02 m; 100k: a 0.8 x 1.0 x 1.0 m block in a 2.4 x 1.4 x
1.0 m tank; 1M: a 2 m cube in a 6.0 x 2.8 x 2.0 m tank), opens the built viewer in headless
Chromium (${viewport} viewport), pauses the world, then requests one frame at a time and waits
until the viewer handled it, so the server is idle while the browser works: key frames by
\`key_request\` (what a joining viewer gets; positions, velocities and ids), delta frames by
\`step\` (1 frame: \`substeps\` solver steps of 0.5 ms, ${substeps}), the frames of a running
stream, here of the start of the collapse (simulated time at the end: ${ends} s). Each frame's kind is read from its header by a listener
the benchmark adds beside the viewer's. The first ${first.warmup ?? 0} frames of each kind are not counted
(warm-up); the very first key frame after joining took ${firsts} (the JIT and buffer allocation).

- Machine: ${cpus()[0]?.model || 'unknown CPU'}, ${cpus().length} cores (load average before the run: ${process.env.BENCH_LOAD || 'n/a'})
- Browser: Chromium ${data.chromium} headless; WebGL: ${renderer}
- Command: \`${process.env.BENCH_COMMAND || 'node web/bench/viewer_bench.mjs'}\`
- Commit: ${process.env.BENCH_COMMIT || 'unknown'}, ${process.env.BENCH_DATE || new Date().toISOString().slice(0, 10)}

| particles | frame | frames | bytes/particle | median ms | p90 ms | max ms | median ns/particle |
|---|---|---|---|---|---|---|---|
${rows.join('\n')}

Target: at most ${TARGET_MS} ms of main-thread time per frame at 1M particles (judged on the median).

${verdicts.join('\n')}`);
