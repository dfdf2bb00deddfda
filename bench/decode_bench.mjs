// Measures JS frame decode speed: node bench/decode_bench.mjs DIR [repeats=15] on DIR/frame_NNNNNN.bin in stream order.
// Prints one JSON line per category (key, delta): the median over repeats of decode ns/particle.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { FrameDecoder } from '../protocol/js/frame_decoder.js';

function loadFrames(dir) {
  const names = readdirSync(dir).filter((name) => /^frame_\d+\.bin$/.test(name)).sort();
  if (names.length === 0) throw new Error(`no frame_NNNNNN.bin files in ${dir}`);
  return names.map((name) => new Uint8Array(readFileSync(join(dir, name))));
}

/** Decodes the whole stream once; returns per category the summed nanoseconds, particles, bytes. */
function decodeStream(frames) {
  const decoder = new FrameDecoder();
  const totals = { key: { ns: 0n, particles: 0, bytes: 0, frames: 0 }, delta: { ns: 0n, particles: 0, bytes: 0, frames: 0 } };
  for (const bytes of frames) {
    const start = process.hrtime.bigint();
    const frame = decoder.decode(bytes);
    const elapsed = process.hrtime.bigint() - start;
    const total = totals[frame.kind];
    total.ns += elapsed;
    total.particles += frame.count;
    total.bytes += bytes.length;
    total.frames += 1;
  }
  return totals;
}

function median(values) {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

function main() {
  const [dir, repeatsArg = '15'] = process.argv.slice(2);
  if (!dir) {
    console.error('usage: node bench/decode_bench.mjs DIR [repeats]');
    process.exit(2);
  }
  const repeats = Math.max(1, Number.parseInt(repeatsArg, 10));
  const frames = loadFrames(dir);
  for (let i = 0; i < 3; i++) decodeStream(frames); // warm-up: lets the JIT optimize the decoder
  const samples = { key: [], delta: [] };
  let last = null;
  for (let r = 0; r < repeats; r++) {
    last = decodeStream(frames);
    for (const kind of ['key', 'delta']) {
      if (last[kind].particles > 0) samples[kind].push(Number(last[kind].ns) / last[kind].particles);
    }
  }
  for (const kind of ['key', 'delta']) {
    if (samples[kind].length === 0) continue;
    const t = last[kind];
    console.log(JSON.stringify({
      category: kind,
      frames: t.frames,
      particles_per_frame: Math.round(t.particles / t.frames),
      bytes_per_particle: +(t.bytes / t.particles).toFixed(3),
      decode_ns_per_particle: +median(samples[kind]).toFixed(3),
      min_ns_per_particle: +Math.min(...samples[kind]).toFixed(3),
      repeats,
      node: process.version,
    }));
  }
}

main();
