// The live plots' ring of timed samples: capacity, wrap-around, gaps for absent values and the time window.
import { describe, it, expect } from 'vitest';
import { TimeRing } from '../src/util/time_ring.js';

describe('TimeRing', () => {
  it('refuses a capacity that is not a positive integer and an empty list of series', () => {
    expect(() => new TimeRing(0, ['a'])).toThrow(/capacity/);
    expect(() => new TimeRing(2.5, ['a'])).toThrow(/capacity/);
    expect(() => new TimeRing(4, [])).toThrow(/names/);
  });

  it('keeps samples in order until the capacity is reached', () => {
    const ring = new TimeRing(4, ['a', 'b']);
    ring.push(1, { a: 10, b: 100 });
    ring.push(2, { a: 20, b: 200 });
    expect(ring.length).toBe(2);
    expect(ring.window(2, 10)).toEqual([[1, 2], [10, 20], [100, 200]]);
  });

  it('wraps: the newest `capacity` samples stay, oldest first', () => {
    const ring = new TimeRing(3, ['a']);
    for (let t = 1; t <= 7; t++) ring.push(t, { a: t * 10 });
    expect(ring.length).toBe(3);
    expect(ring.newestTime()).toBe(7);
    expect(ring.window(7, 100)).toEqual([[5, 6, 7], [50, 60, 70]]);
  });

  it('stores absent, null and non-finite values as null (a gap), the others as given', () => {
    const ring = new TimeRing(4, ['a', 'b', 'c']);
    ring.push(1, { a: 1, b: null, c: Number.NaN });
    ring.push(2, { a: 0 });
    ring.push(3, null);
    expect(ring.window(3, 10)).toEqual([[1, 2, 3], [1, 0, null], [null, null, null], [null, null, null]]);
  });

  it('returns only the samples inside [now - seconds, now]', () => {
    const ring = new TimeRing(1000, ['a']);
    for (let t = 0; t <= 600; t += 1) ring.push(t, { a: t });
    const [times, values] = ring.window(600, 300);
    expect(times[0]).toBe(300);
    expect(times.at(-1)).toBe(600);
    expect(times.length).toBe(301);
    expect(values[0]).toBe(300);
    expect(ring.window(100, 5)[0]).toEqual([95, 96, 97, 98, 99, 100]);
  });

  it('drops samples older than the newest and non-finite times; clear empties it', () => {
    const ring = new TimeRing(4, ['a']);
    expect(ring.push(5, { a: 1 })).toBe(true);
    expect(ring.push(4, { a: 2 })).toBe(false);
    expect(ring.push(Number.NaN, { a: 3 })).toBe(false);
    expect(ring.length).toBe(1);
    ring.clear();
    expect(ring.length).toBe(0);
    expect(ring.newestTime()).toBeNull();
    expect(ring.window(10, 10)).toEqual([[], []]);
  });
});
