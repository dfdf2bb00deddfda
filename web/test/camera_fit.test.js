// Camera framing: the fit distance, and the bounds of a frame's particles (the F shortcut).
import { describe, it, expect } from 'vitest';
import { fitDistance, particleBounds } from '../src/render/camera_fit.js';

describe('fitDistance', () => {
  it('fits a sphere to the vertical field of view of a wide view, with 5 % to spare', () => {
    // 90° vertical: sin(45°) = √½, so the distance is r / √½ · 0.95.
    expect(fitDistance(1, 90, 2)).toBeCloseTo(Math.SQRT2 * 0.95, 12);
  });

  it('uses the horizontal angle when the view is narrower than tall', () => {
    expect(fitDistance(1, 45, 0.5)).toBeGreaterThan(fitDistance(1, 45, 1));
    expect(fitDistance(2, 45, 1)).toBeCloseTo(2 * fitDistance(1, 45, 1), 12);
  });
});

/** A frame of the given positions (m) quantized to `bits` inside [lo, hi], stored as the decoder does. */
function frameOf(points, bits = 16, lo = [0, 0, 0], hi = [1, 1, 1]) {
  const maxQ = 2 ** bits - 1;
  const positions = new Uint16Array(3 * points.length);
  points.forEach((p, i) => p.forEach((x, k) => {
    positions[3 * i + k] = Math.round(((x - lo[k]) / (hi[k] - lo[k])) * maxQ) << (16 - bits);
  }));
  return { count: points.length, bits, lo, hi, positions };
}

describe('particleBounds', () => {
  it('is the box of the positions, to 1/1024 of the bounds', () => {
    const lo = [0, -1, 2];
    const hi = [1.6, 0, 2.8];
    const points = [];
    for (let i = 0; i <= 100; i++) points.push([0.2 + 0.004 * i, -0.9 + 0.005 * i, 2.1 + 0.002 * i]);
    for (const bits of [16, 12, 10]) {
      const box = particleBounds(frameOf(points, bits, lo, hi), 0);
      const expected = { min: [0.2, -0.9, 2.1], max: [0.6, -0.4, 2.3] };
      for (let k = 0; k < 3; k++) {
        const bin = (hi[k] - lo[k]) / 1024;
        const quantum = (hi[k] - lo[k]) / (2 ** bits - 1) / 2; // a decoded position is this close
        expect(box.min[k]).toBeLessThanOrEqual(expected.min[k] + quantum + 1e-9);
        expect(box.min[k]).toBeGreaterThan(expected.min[k] - bin - quantum - 1e-9);
        expect(box.max[k]).toBeGreaterThanOrEqual(expected.max[k] - quantum - 1e-9);
        expect(box.max[k]).toBeLessThan(expected.max[k] + bin + quantum + 1e-9);
      }
    }
  });

  it('leaves out a few splashes (0.5 % at each end by default)', () => {
    const points = [];
    for (let i = 0; i < 1000; i++) points.push([0.1 + 0.0002 * i, 0.1 + 0.0001 * i, 0.5]);
    points.push([0.95, 0.99, 0.5]); // one drop flying high
    const box = particleBounds(frameOf(points));
    expect(box.max[0]).toBeLessThan(0.31);
    expect(box.max[1]).toBeLessThan(0.21);
    expect(particleBounds(frameOf(points), 0).max[1]).toBeGreaterThan(0.98);
  });

  it('covers a single particle and is null without particles', () => {
    const box = particleBounds(frameOf([[1, 1, 1]]));
    expect(box.max).toEqual([1, 1, 1]);
    expect(box.min[0]).toBeGreaterThan(1 - 1 / 1024 - 1e-9);
    expect(particleBounds(null)).toBeNull();
    expect(particleBounds({ count: 0, bits: 16, lo: [0, 0, 0], hi: [1, 1, 1], positions: new Uint16Array(0) })).toBeNull();
  });
});
