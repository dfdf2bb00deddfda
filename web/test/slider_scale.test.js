// Log slider scales and the risky part of a range: which ranges are logarithmic, position <-> value, the acoustic and CFL limits.
import { describe, it, expect } from 'vitest';
import { SLIDER_POSITIONS, logScale, positionOf, roundSignificant, trackShare, valueAt } from '../src/ui/slider_scale.js';
import { adaptiveOffWarning, riskyFrom, smoothingRadius } from '../src/ui/stable_region.js';

const TIME_STEP = { min: 1e-6, max: 0.02, defaultValue: 5e-4, integer: false };

describe('logScale', () => {
  it('is logarithmic only for ranges wider than two decades', () => {
    expect(logScale(TIME_STEP)).toEqual({ lo: 1e-6, hi: 0.02, zero: false, integer: false });
    expect(logScale({ min: 1, max: 1000, defaultValue: 20, integer: true })).toMatchObject({ lo: 1, hi: 1000, integer: true });
    expect(logScale({ min: 0.01, max: 0.9, defaultValue: 0.2 })).toBeNull(); // 90: under two decades
    expect(logScale({ min: -100, max: 100, defaultValue: -9.81 })).toBeNull();
  });

  it('takes a range from 0 logarithmically from default/100 when the maximum is two decades above the default', () => {
    expect(logScale({ min: 0, max: 1e6, defaultValue: 600 })).toEqual({ lo: 6, hi: 1e6, zero: true, integer: false });
    expect(logScale({ min: 0, max: 100, defaultValue: 2 })).toBeNull(); // viscosity: 50x
    expect(logScale({ min: 0, max: 1, defaultValue: 0 })).toBeNull(); // cfl_number: default 0
  });
});

describe('positions and values', () => {
  const scale = logScale(TIME_STEP);

  it('maps the ends to the ends and round-trips values within one position', () => {
    expect(valueAt(scale, 0)).toBe(1e-6);
    expect(valueAt(scale, SLIDER_POSITIONS)).toBe(0.02);
    expect(positionOf(scale, 1e-6)).toBe(0);
    expect(positionOf(scale, 0.02)).toBe(SLIDER_POSITIONS);
    const p = positionOf(scale, 5e-4);
    expect(valueAt(scale, p) / 5e-4).toBeCloseTo(1, 2);
  });

  it('moves Time step by a small factor per nudge: 1 position about 1%, 12 px of a 200 px track under 2x', () => {
    const p = positionOf(scale, 5e-4);
    expect(valueAt(scale, p + 1) / valueAt(scale, p)).toBeLessThan(1.02);
    const twelvePixels = Math.round((12 / 200) * SLIDER_POSITIONS);
    expect(valueAt(scale, p + twelvePixels) / valueAt(scale, p)).toBeLessThan(2);
    expect(valueAt(scale, p + twelvePixels) / valueAt(scale, p)).toBeGreaterThan(1.2);
  });

  it('gives 0 at position 0 of a range from 0, and the floor just after', () => {
    const relax = logScale({ min: 0, max: 1e6, defaultValue: 600 });
    expect(valueAt(relax, 0)).toBe(0);
    expect(valueAt(relax, 1)).toBe(6);
    expect(positionOf(relax, 0)).toBe(0);
    expect(positionOf(relax, 3)).toBe(1); // between 0 and the floor: the floor's position
  });

  it('rounds slid values to 3 significant digits, whole numbers for ints', () => {
    expect(roundSignificant(0.000512345)).toBe(0.000512);
    const ints = logScale({ min: 1, max: 5e7, defaultValue: 2e6, integer: true });
    for (const p of [0, 1, 137, 500, 999]) expect(Number.isInteger(valueAt(ints, p))).toBe(true);
  });

  it('puts a mark at its share of the track', () => {
    expect(trackShare(scale, 1e-6)).toBe(0);
    expect(trackShare(scale, Math.sqrt(1e-6 * 0.02))).toBeCloseTo(0.5, 2);
  });
});

describe('riskyFrom', () => {
  const sph = { smoothing_radius: 0.04, speed_of_sound: 20, time_step: 5e-4, equation_of_state: 'tait', stiffness: 400 };

  it('marks time_step above 0.4 h / c for Tait SPH', () => {
    expect(riskyFrom('time_step', sph, 'sph').from).toBeCloseTo(0.0008, 10);
    expect(riskyFrom('speed_of_sound', sph, 'sph').from).toBeCloseTo(32, 10); // 0.4 h / dt
  });

  it('uses sqrt(stiffness) as c for the linear law, and marks stiffness instead of the speed of sound', () => {
    const linear = { ...sph, equation_of_state: 'linear' };
    expect(riskyFrom('time_step', linear, 'sph').from).toBeCloseTo(0.0008, 10); // sqrt(400) = 20
    expect(riskyFrom('stiffness', linear, 'sph').from).toBeCloseTo(1024, 6);
    expect(riskyFrom('speed_of_sound', linear, 'sph')).toBeNull();
  });

  it('marks cfl_number above its default 0.4 for any solver, and nothing acoustic for PBF or an adaptive step', () => {
    expect(riskyFrom('cfl_number', sph, 'pbf').from).toBeGreaterThan(0.4);
    expect(riskyFrom('time_step', sph, 'pbf')).toBeNull();
    expect(riskyFrom('time_step', { ...sph, adaptive_time_step: true }, 'sph')).toBeNull();
    expect(riskyFrom('gravity_y', sph, 'sph')).toBeNull();
  });

  it('takes h from smoothing_ratio x particle_spacing when the table has no smoothing_radius', () => {
    expect(smoothingRadius({ smoothing_ratio: 2, particle_spacing: 0.02 })).toBeCloseTo(0.04, 12);
    expect(smoothingRadius({})).toBeNull();
  });
});

describe('adaptiveOffWarning', () => {
  const values = { time_step: 0.002, speed_of_sound: 20, smoothing_radius: 0.04, adaptive_time_step: true, equation_of_state: 'tait' };
  const labels = { time_step: 'Time step', adaptive_time_step: 'Adaptive time step' };

  it('warns when the maximum step is above 0.4 h / c, in the panel\'s words', () => {
    const text = adaptiveOffWarning(values, 'sph', labels);
    expect(text).toMatch(/^Time step 0.002 s is above the acoustic limit 0.0008 s/); // 0.4 · 0.04 / 20
    expect(text).toMatch(/Adaptive time step off/);
    expect(text).not.toMatch(/time_step/);
  });

  it('says nothing at or below the limit, or for PBF', () => {
    expect(adaptiveOffWarning({ ...values, time_step: 0.0008 }, 'sph', labels)).toBeNull();
    expect(adaptiveOffWarning(values, 'pbf', labels)).toBeNull();
  });
});
