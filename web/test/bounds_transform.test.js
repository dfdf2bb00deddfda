// The model matrix of the particles: normalized q << (16 - bits) maps back to metres exactly as the protocol dequantizes.
import { describe, it, expect } from 'vitest';
import { boundsTransform, positionOf } from '../src/render/bounds_transform.js';

describe('boundsTransform', () => {
  it('is lo and hi - lo at 16 bits', () => {
    expect(boundsTransform([0, -1, 2], [1.6, 0.9, 2.6], 16)).toEqual({ position: [0, -1, 2], scale: [1.6, 1.9, 0.6000000000000001] });
  });

  it('keeps a flat axis (a 2D world\'s z, hi == lo) at lo with an invertible scale', () => {
    const t = boundsTransform([0, 0, 0], [1.6, 0.9, 0], 12);
    expect(t.scale[2]).toBe(1);
    expect(positionOf(t, 2, 0)).toBe(0); // every q on a flat axis is 0
  });

  it('maps every stored q of every bit depth to lo + q (hi - lo) / (2^bits - 1)', () => {
    const lo = [-0.5, 0, 10];
    const hi = [1.1, 0.9, 10.6];
    for (let bits = 10; bits <= 16; bits++) {
      const t = boundsTransform(lo, hi, bits);
      const maxQ = 2 ** bits - 1;
      for (const q of [0, 1, 7, maxQ >> 1, maxQ - 1, maxQ]) {
        const n = (q << (16 - bits)) / 65535; // what WebGL reads from a normalized uint16
        for (let axis = 0; axis < 3; axis++) {
          const expected = lo[axis] + (q * (hi[axis] - lo[axis])) / maxQ;
          expect(positionOf(t, axis, n)).toBeCloseTo(expected, 12);
        }
      }
    }
  });

  it('differs from the naive hi - lo scale below 16 bits (the top value would fall short)', () => {
    const t = boundsTransform([0, 0, 0], [1, 1, 1], 10);
    const top = (1023 << 6) / 65535;
    expect(top).toBeLessThan(0.9991); // naive: 0.999 m instead of 1 m
    expect(positionOf(t, 0, top)).toBeCloseTo(1, 12);
  });

  it('refuses bit depths outside 1..16', () => {
    expect(() => boundsTransform([0, 0, 0], [1, 1, 1], 17)).toThrow(RangeError);
    expect(() => boundsTransform([0, 0, 0], [1, 1, 1], 0)).toThrow(RangeError);
  });
});
