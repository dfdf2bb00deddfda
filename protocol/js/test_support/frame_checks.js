// TEST SUPPORT ONLY: assertions that a decoded frame reproduces its input snapshot within quantization error.
import { expect } from 'vitest';
import { dequantize } from '../frame_decoder.js';

/** Half a quantization step plus a few f32 rounding errors of the coordinates' magnitude. */
export function positionTolerance(lo, hi, bits) {
  const halfStep = (hi - lo) / (2 ** bits - 1) / 2;
  return halfStep * (1 + 1e-6) + 4 * 2 ** -24 * Math.max(Math.abs(lo), Math.abs(hi), hi - lo);
}

/** Same ids in order, each coordinate within half a step, each attribute within half an 8-bit step. */
export function expectFrameMatchesSnapshot(frame, snapshot, attributeRanges = {}) {
  expect(frame.count).toBe(snapshot.ids.length);
  expect(Array.from(frame.ids)).toEqual(Array.from(snapshot.ids));
  const tolerances = [0, 1, 2].map((a) => positionTolerance(frame.lo[a], frame.hi[a], frame.bits));
  let worst = 0;
  for (let i = 0; i < frame.count; i++) {
    const decoded = dequantize(frame, i);
    for (let a = 0; a < 3; a++) {
      const input = Math.min(frame.hi[a], Math.max(frame.lo[a], snapshot.positions[3 * i + a]));
      worst = Math.max(worst, Math.abs(decoded[a] - input) / tolerances[a]);
    }
  }
  expect(worst).toBeLessThanOrEqual(1);
  for (const [name, values] of Object.entries(frame.attributes)) {
    const [lo, hi] = attributeRanges[name] ?? [frame.attributes[name].lo, frame.attributes[name].hi];
    const tolerance = (hi - lo) / 255 / 2 * (1 + 1e-5) + 4 * 2 ** -24 * Math.max(Math.abs(lo), Math.abs(hi));
    const input = snapshot.attributes[name];
    let worstAttribute = 0;
    for (let i = 0; i < frame.count; i++) {
      const decoded = lo + values.values[i] * (hi - lo) / 255;
      const clamped = Math.min(hi, Math.max(lo, input[i]));
      worstAttribute = Math.max(worstAttribute, Math.abs(decoded - clamped) / tolerance);
    }
    expect(worstAttribute, `attribute ${name}`).toBeLessThanOrEqual(1);
  }
}

/** Copies the arrays of a frame, which the decoder reuses two decodes later. */
export function snapshotOfFrame(frame) {
  return {
    ...frame,
    ids: frame.ids.slice(),
    positions: frame.positions.slice(),
    attributes: Object.fromEntries(Object.entries(frame.attributes).map(
      ([name, a]) => [name, { ...a, values: a.values.slice() }])),
  };
}
