// Decodes the shared test vectors (protocol/vectors, written by the C encoder) and checks them against their text input.
import { describe, it, expect } from 'vitest';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { join } from 'node:path';
import { FrameDecoder, dequantize } from './frame_decoder.js';
import { parseVectorText } from './test_support/vector_text.js';

const VECTORS_DIR = fileURLToPath(new URL('../vectors', import.meta.url));
const vectorNames = existsSync(VECTORS_DIR)
  ? readdirSync(VECTORS_DIR).filter((name) => name.endsWith('.txt')).map((name) => name.slice(0, -4)).sort()
  : [];

/** Within half a step of the input clamped to [lo, hi], as the C vector test checks. */
function expectWithinHalfStep(decoded, input, lo, hi, steps, what) {
  const step = (hi - lo) / steps;
  const clamped = Math.min(hi, Math.max(lo, input));
  if (!(Math.abs(decoded - clamped) <= 0.5 * step * (1 + 1e-9))) {
    expect.fail(`${what}: decoded ${decoded}, input ${input} (step ${step})`);
  }
}

function expectFrameMatchesText(frame, expected, vector, label) {
  const { stream, attributes } = vector;
  expect(frame.kind, label).toBe(expected.kind === 'delta' ? 'delta' : 'key');
  expect(frame, label).toMatchObject({
    world: stream.world, epoch: stream.epoch, bits: stream.bits, tier: stream.tier,
    sequence: expected.sequence, time: expected.time, count: expected.particles.length,
    lo: stream.lo, hi: stream.hi,
  });
  expect(Array.from(frame.ids), `${label} ids`).toEqual(expected.particles.map((p) => p.id));
  expect(Object.keys(frame.attributes).sort(), `${label} attributes`).toEqual(attributes.map((a) => a.name).sort());
  expected.particles.forEach((particle, i) => {
    const position = dequantize(frame, i);
    for (let axis = 0; axis < 3; axis++) {
      expectWithinHalfStep(position[axis], particle.position[axis], stream.lo[axis], stream.hi[axis],
        2 ** stream.bits - 1, `${label} particle ${particle.id} axis ${axis}`);
    }
    attributes.forEach(({ name, lo, hi }, column) => {
      const decoded = frame.attributes[name];
      expect(decoded.lo, `${label} ${name} lo`).toBe(lo);
      expect(decoded.hi, `${label} ${name} hi`).toBe(hi);
      const value = lo + decoded.values[i] * (hi - lo) / 255;
      expectWithinHalfStep(value, particle.attributes[column], lo, hi, 255, `${label} particle ${particle.id} ${name}`);
    });
  });
}

describe('protocol/vectors', () => {
  it('finds the vectors (NAME.txt with its NAME.NNN.bin files)', () => {
    expect(vectorNames.length).toBeGreaterThan(0);
  });

  for (const name of vectorNames) {
    it(`decodes ${name} frame by frame to its text input`, () => {
      const vector = parseVectorText(readFileSync(join(VECTORS_DIR, `${name}.txt`), 'utf8'));
      expect(vector.frames.length).toBeGreaterThan(0);
      const binaries = readdirSync(VECTORS_DIR).filter((file) => file.startsWith(`${name}.`) && file.endsWith('.bin'));
      expect(binaries.sort(), 'every .bin of the vector is listed in its text').toEqual(vector.frames.map((f) => f.file).sort());
      // The main decoder follows the stream; a resync (a key frame of the current state) starts a
      // late joiner, which then follows the deltas too.
      const main = new FrameDecoder();
      let late = null;
      vector.frames.forEach((expected, f) => {
        const bytes = new Uint8Array(readFileSync(join(VECTORS_DIR, expected.file)));
        const label = `${name} frame ${f} (${expected.kind}, ${expected.file})`;
        const resync = expected.kind === 'resync';
        if (resync) late ??= new FrameDecoder();
        const decoders = resync ? [late] : [main, late].filter(Boolean);
        for (const decoder of decoders) expectFrameMatchesText(decoder.decode(bytes), expected, vector, label);
      });
    });
  }
});
