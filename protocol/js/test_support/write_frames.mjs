// TEST SUPPORT ONLY: writes a synthetic encoded stream as DIR/frame_NNNNNN.bin (input of bench/decode_bench.mjs).
// Usage: node protocol/js/test_support/write_frames.mjs DIR [particles=100000] [frames=30] [bits=16]
//        [churn=0.001 (fraction born and dying per frame)] [attributes=speed,density,temperature,fluid or none]
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { StreamEncoder } from './stream_encoder.js';
import { syntheticSnapshots, SYNTHETIC_ATTRIBUTE_RANGES } from './synthetic_particles.js';

export function writeSyntheticFrames(dir, {
  particles = 100000, frames = 30, bits = 16, keyEvery = 0, churn = 0.001,
  attributes = Object.keys(SYNTHETIC_ATTRIBUTE_RANGES),
} = {}) {
  mkdirSync(dir, { recursive: true });
  const changes = Math.ceil(particles * churn);
  const snapshots = syntheticSnapshots({ seed: 7, count: particles, frames, births: changes, deaths: changes });
  for (const snapshot of snapshots) {
    snapshot.attributes = Object.fromEntries(attributes.map((name) => [name, snapshot.attributes[name]]));
  }
  const encoder = new StreamEncoder({ bits, attributeRanges: SYNTHETIC_ATTRIBUTE_RANGES });
  let bytes = 0;
  snapshots.forEach((snapshot, f) => {
    let frame;
    if (f === 0) frame = encoder.encodeKey(snapshot);
    else if (keyEvery > 0 && f % keyEvery === 0) frame = encoder.encodeKeyContinuing(snapshot);
    else frame = encoder.encodeDelta(snapshot);
    bytes += frame.length;
    writeFileSync(join(dir, `frame_${String(f).padStart(6, '0')}.bin`), frame);
  });
  return { frames: snapshots.length, bytes };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const [dir, particles = '100000', frames = '30', bits = '16', churn = '0.001', attributes = 'speed,density,temperature,fluid'] = process.argv.slice(2);
  if (!dir) {
    console.error('usage: write_frames.mjs DIR [particles] [frames] [bits]');
    process.exit(2);
  }
  const result = writeSyntheticFrames(dir, {
    particles: +particles, frames: +frames, bits: +bits, keyEvery: 10, churn: +churn,
    attributes: attributes === 'none' ? [] : attributes.split(','),
  });
  console.log(JSON.stringify({ dir, ...result }));
}
