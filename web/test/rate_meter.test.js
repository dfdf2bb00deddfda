// The sliding-window rate of render fps and received bytes per second.
import { describe, it, expect } from 'vitest';
import { RateMeter } from '../src/util/rate_meter.js';

describe('RateMeter', () => {
  it('counts the amounts of the last window per second', () => {
    const meter = new RateMeter(1000);
    for (let t = 0; t < 1000; t += 100) meter.add(t, 500); // 10 x 500 bytes in a second
    expect(meter.rate(999)).toBe(5000);
    expect(meter.rate(1450)).toBe(2500); // 500..900 remain
    expect(meter.rate(5000)).toBe(0);
  });

  it('gives frames per second with the default amount of 1', () => {
    const meter = new RateMeter(1000);
    for (let i = 0; i < 60; i++) meter.add(i * (1000 / 60));
    expect(meter.rate(999)).toBe(60);
  });

  it('stays bounded over a long run', () => {
    const meter = new RateMeter(1000);
    for (let i = 0; i < 100000; i++) meter.add(i, 1);
    expect(meter.times.length).toBeLessThan(5000);
    expect(meter.rate(99999)).toBe(1000);
  });
});
