// Picking: the first particle along the view ray in a quantized frame, the near miss within the angle, and the pick message.
import { describe, it, expect } from 'vitest';
import { nearestOnRay, pickMessage } from '../src/interact/particle_pick.js';

/** A frame with the given positions (m) quantized to `bits` in the unit cube, stored as the decoder does (q << (16 - bits)). */
function frameOf(points, bits = 16, lo = [0, 0, 0], hi = [1, 1, 1]) {
  const maxQ = 2 ** bits - 1;
  const positions = new Uint16Array(3 * points.length);
  points.forEach((p, i) => p.forEach((x, k) => {
    positions[3 * i + k] = Math.round(((x - lo[k]) / (hi[k] - lo[k])) * maxQ) << (16 - bits);
  }));
  return { count: points.length, bits, lo, hi, positions };
}

const down = [0, 0, -1];

describe('nearestOnRay', () => {
  it('picks the particle the ray meets first, not the one closest to the ray', () => {
    const frame = frameOf([[0.5, 0.5, 0.2], [0.5, 0.5, 0.8], [0.505, 0.5, 0.5]]);
    const pick = nearestOnRay(frame, [0.5, 0.5, 2], down, 0.01);
    expect(pick.index).toBe(1);
    expect(pick.hit).toBe(true);
    expect(pick.distance).toBeCloseTo(2 - 0.8 - 0.01, 4);
    pick.position.forEach((x, k) => expect(x).toBeCloseTo([0.5, 0.5, 0.8][k], 4));
  });

  it('meets a particle off the ray axis when its sphere reaches the ray', () => {
    const frame = frameOf([[0.508, 0.5, 0.9], [0.5, 0.5, 0.1]]);
    expect(nearestOnRay(frame, [0.5, 0.5, 2], down, 0.01).index).toBe(0);
    expect(nearestOnRay(frame, [0.5, 0.5, 2], down, 0.005).index).toBe(1); // the small sphere is missed
  });

  it('ignores particles behind the origin', () => {
    const frame = frameOf([[0.5, 0.5, 0.9], [0.5, 0.5, 0.3]]);
    expect(nearestOnRay(frame, [0.5, 0.5, 0.6], down, 0.01).index).toBe(1);
  });

  it('falls back to the particle seen closest to the ray within maxAngle, else null', () => {
    const frame = frameOf([[0.6, 0.5, 0.0], [0.55, 0.5, 0.5]]); // 0.1 off at 2 m and 0.05 off at 1.5 m
    expect(nearestOnRay(frame, [0.5, 0.5, 2], down, 0.01)).toBeNull();
    const near = nearestOnRay(frame, [0.5, 0.5, 2], down, 0.01, 0.05);
    expect(near.index).toBe(1);
    expect(near.hit).toBe(false);
    expect(near.distance).toBeCloseTo(1.5, 4);
  });

  it('decodes positions at fewer bits and within other bounds', () => {
    const lo = [-1, 0, 2];
    const hi = [1, 0.5, 4];
    const frame = frameOf([[0.25, 0.25, 3]], 10, lo, hi);
    const pick = nearestOnRay(frame, [0.25, 3, 3], [0, -1, 0], 0.02);
    expect(pick.index).toBe(0);
    const halfStep = (2 / 1023) / 2;
    pick.position.forEach((x, k) => expect(Math.abs(x - [0.25, 0.25, 3][k])).toBeLessThanOrEqual(halfStep + 1e-9));
  });

  it('gives null for no frame or an empty one', () => {
    expect(nearestOnRay(null, [0, 0, 0], down, 0.01)).toBeNull();
    expect(nearestOnRay(frameOf([]), [0, 0, 0], down, 0.01)).toBeNull();
  });
});

describe('pickMessage', () => {
  it('is {type: pick, world, position} with the position rounded to micrometres', () => {
    expect(pickMessage(3, [0.1234567, 0.5, -0])).toEqual({ type: 'pick', world: 3, position: [0.123457, 0.5, 0] });
    expect(() => pickMessage(1, [0, Number.NaN, 0])).toThrow(/finite/);
  });
});
