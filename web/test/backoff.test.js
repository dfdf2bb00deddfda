// The reconnect schedule: 0.5 s doubling to a 10 s cap, jitter within its spread, reset after a welcome.
import { describe, it, expect } from 'vitest';
import { Backoff } from '../src/net/backoff.js';

describe('Backoff', () => {
  it('doubles from 0.5 s and stops at 10 s without jitter', () => {
    const backoff = new Backoff({ jitter: 0 });
    const delays = Array.from({ length: 8 }, () => backoff.delay());
    expect(delays).toEqual([500, 1000, 2000, 4000, 8000, 10000, 10000, 10000]);
  });

  it('spreads each delay by the jitter around its base and never exceeds the cap', () => {
    const low = new Backoff({ jitter: 0.25 }, () => 0);
    const high = new Backoff({ jitter: 0.25 }, () => 0.999999);
    expect(low.delay()).toBe(375);
    expect(high.delay()).toBe(625);
    for (let i = 0; i < 10; i++) {
      expect(low.delay()).toBeLessThanOrEqual(10000);
      expect(high.delay()).toBeLessThanOrEqual(10000);
    }
    expect(low.delay()).toBe(7500); // the cap times (1 - jitter)
  });

  it('starts again from the first delay after reset()', () => {
    const backoff = new Backoff({ jitter: 0 });
    backoff.delay();
    backoff.delay();
    backoff.delay();
    backoff.reset();
    expect(backoff.delay()).toBe(500);
  });
});
