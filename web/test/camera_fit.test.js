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

describe('particleBounds', () => {
  it('is the box of the decoded positions', () => {
    const bits = 12;
    const shift = 16 - bits;
    const positions = Uint16Array.from([10, 20, 30, 4000, 5, 300, 100, 4095, 0].map((q) => q << shift));
    const frame = { count: 3, bits, lo: [0, -1, 2], hi: [4.095, 3.095, 6.095], positions };
    const box = particleBounds(frame);
    const step = 4.095 / 4095;
    expect(box.min.map((x) => Number(x.toFixed(9)))).toEqual([10 * step, -1 + 5 * step, 2 + 0].map((x) => Number(x.toFixed(9))));
    expect(box.max.map((x) => Number(x.toFixed(9)))).toEqual([4000 * step, -1 + 4095 * step, 2 + 300 * step].map((x) => Number(x.toFixed(9))));
  });

  it('is null without particles', () => {
    expect(particleBounds(null)).toBeNull();
    expect(particleBounds({ count: 0, bits: 16, lo: [0, 0, 0], hi: [1, 1, 1], positions: new Uint16Array(0) })).toBeNull();
  });
});
