// The live plots read their series from stats messages: density error in percent, absent fields as gaps.
import { describe, it, expect } from 'vitest';
import { PLOT_CAPACITY, PLOT_SERIES, PLOT_WINDOW_S, agoLabel, lastValue, statsSample, yRange } from '../src/ui/plot_series.js';

describe('statsSample', () => {
  it('reads particles, max speed, density error (as %) and real-time factor', () => {
    const sample = statsSample({ particles: 2160, max_speed: 1.25, density_error: 0.0123, realtime_factor: 0.5, steps_per_s: 300 });
    expect(sample.particles).toBe(2160);
    expect(sample.max_speed).toBe(1.25);
    expect(sample.density_error).toBeCloseTo(1.23, 12);
    expect(sample.realtime_factor).toBe(0.5);
    expect(statsSample({ dt: 0.0004 }).dt).toBeCloseTo(0.4, 12); // the time step, in ms
    expect(Object.keys(sample)).toEqual(PLOT_SERIES.map((s) => s.key));
  });

  it('gives null for the fields an older server does not send and for null density error', () => {
    expect(statsSample({ particles: 10 })).toEqual({ particles: 10, max_speed: null, density_error: null, realtime_factor: null, dt: null });
    expect(statsSample({ particles: 10, density_error: null }).density_error).toBeNull();
    expect(statsSample({ particles: 'many', max_speed: Number.POSITIVE_INFINITY }).particles).toBeNull();
    expect(statsSample(null).particles).toBeNull();
  });
});

describe('the plot window', () => {
  it('holds five minutes of stats at 4 per second', () => {
    expect(PLOT_WINDOW_S).toBe(300);
    expect(PLOT_CAPACITY).toBeGreaterThanOrEqual(4 * 300);
  });

  it('lastValue skips trailing gaps', () => {
    expect(lastValue([1, 2, null, null])).toBe(2);
    expect(lastValue([null])).toBeNull();
    expect(lastValue([])).toBeNull();
  });
});

describe('agoLabel', () => {
  it('labels the x axis in seconds or minutes before now', () => {
    expect(agoLabel(0)).toBe('now');
    expect(agoLabel(-0.2)).toBe('now');
    expect(agoLabel(-20)).toBe('-20 s');
    expect(agoLabel(-90)).toBe('-1.5 min');
    expect(agoLabel(-300)).toBe('-5 min');
  });
});

describe('yRange', () => {
  it('pads a varying series by 8 % either side', () => {
    const [lo, hi] = yRange(0, 100);
    expect(lo).toBeCloseTo(-8, 12);
    expect(hi).toBeCloseTo(108, 12);
  });

  it('centres a flat series (a constant particle count) in ±10 %, ±1 around zero', () => {
    expect(yRange(2160, 2160)).toEqual([1944, 2376]);
    expect(yRange(0, 0)).toEqual([-1, 1]);
  });

  it('is [0, 1] without data', () => {
    expect(yRange(null, null)).toEqual([0, 1]);
  });
});
