// Camera framing: the fit distance, and the bounds of a frame's particles (the F shortcut).
import { describe, it, expect } from 'vitest';
import { Vector3 } from 'three';
import { VIEW_DIRECTION, fitBoxDistance, fitDistance, freeFov, freeInsets, particleBounds, projectedExtent, viewOffset } from '../src/render/camera_fit.js';

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

const rect = (left, top, right, bottom) => ({ left, top, right, bottom });

describe('freeInsets', () => {
  it('is the whole view without obstacles', () => {
    expect(freeInsets(1400, 900, [])).toEqual({ top: 0, right: 0, bottom: 0, left: 0 });
  });

  it('leaves out a toolbar above and a side panel on the right', () => {
    expect(freeInsets(1400, 900, [rect(10, 10, 1030, 140), rect(1040, 10, 1390, 890)])).toEqual({ top: 140, right: 360, bottom: 0, left: 0 });
  });

  it('goes beside a tall overlay in a corner when that shows a square tank larger', () => {
    // toolbar on top, overlay bottom left (380 × 200), side panel right
    const obstacles = [rect(10, 10, 870, 180), rect(10, 510, 390, 710), rect(920, 10, 1270, 710)];
    const insets = freeInsets(1280, 720, obstacles);
    expect(insets).toEqual({ top: 180, right: 360, bottom: 0, left: 390 }); // 530 × 540 beats 920 × 330
    // a wide tank is shown larger above the overlay
    const wide = freeInsets(1280, 720, obstacles, (w, h) => Math.min(w / 3, h));
    expect(wide).toEqual({ top: 180, right: 360, bottom: 210, left: 0 });
  });

  it('never keeps a free part that overlaps an obstacle', () => {
    const obstacles = [rect(0, 0, 390, 56), rect(6, 620, 300, 790), rect(240, 700, 384, 790), rect(0, 794, 390, 844)];
    const { top, right, bottom, left } = freeInsets(390, 844, obstacles);
    const free = rect(left, top, 390 - right, 844 - bottom);
    for (const r of obstacles) {
      const overlaps = free.left < r.right && free.right > r.left && free.top < r.bottom && free.bottom > r.top;
      expect(overlaps).toBe(false);
    }
    expect(free.bottom - free.top).toBeGreaterThan(500);
  });
});

describe('viewOffset and freeFov', () => {
  it('centres the projection on the free part', () => {
    const o = viewOffset(1400, 900, { top: 140, right: 360, bottom: 0, left: 0 });
    // free part 1040 × 760 centred at (520, 520): the virtual image is 1040 + 2·(700-520) wide
    expect(o.fullWidth).toBe(1760);
    expect(o.x).toBe(1760 / 2 - 520);
    expect(o.fullHeight).toBe(900 + 140);
    expect(o.y).toBe(0);
    expect([o.freeWidth, o.freeHeight]).toEqual([1040, 760]);
    const f = freeFov(45, o);
    expect(Math.tan((f.fov * Math.PI) / 360)).toBeCloseTo(Math.tan(Math.PI / 8) * (760 / 1040), 12);
    expect(f.aspect).toBeCloseTo(1040 / 760, 12);
  });

  it('is the canvas itself without insets', () => {
    expect(viewOffset(800, 600, { top: 0, right: 0, bottom: 0, left: 0 })).toMatchObject({ fullWidth: 800, fullHeight: 600, x: 0, y: 0 });
  });
});

describe('fitBoxDistance', () => {
  it('puts every corner inside the field of view', () => {
    const min = [0, 0, 0];
    const max = [1.6, 0.7, 0.6];
    for (const [fov, aspect] of [[45, 1.6], [30, 0.5], [60, 3]]) {
      const d = fitBoxDistance(min, max, fov, aspect);
      const centre = new Vector3(0.8, 0.35, 0.3);
      const eye = centre.clone().addScaledVector(VIEW_DIRECTION, d);
      const forward = centre.clone().sub(eye).normalize();
      const right = new Vector3().crossVectors(forward, new Vector3(0, 1, 0)).normalize();
      const up = new Vector3().crossVectors(right, forward);
      const tanV = Math.tan((fov * Math.PI) / 360);
      let tightest = 0;
      for (const x of [0, 1.6]) for (const y of [0, 0.7]) for (const z of [0, 0.6]) {
        const o = new Vector3(x, y, z).sub(eye);
        const depth = o.dot(forward);
        tightest = Math.max(tightest, Math.abs(o.dot(up)) / depth / tanV, Math.abs(o.dot(right)) / depth / (tanV * aspect));
      }
      expect(tightest).toBeLessThanOrEqual(0.951); // 5 % to spare
      expect(tightest).toBeGreaterThan(0.9); // and not much more
    }
  });

  it('sees a long box wider than tall from the framing direction', () => {
    const e = projectedExtent([0, 0, 0], [1.6, 0.7, 0.6]);
    expect(e.across).toBeGreaterThan(e.upward);
  });
});
