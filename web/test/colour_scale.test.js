// Colour scales: the auto range from a frame's bytes, user ranges (checked), the rescaled colour map and when it is rebuilt.
import { describe, it, expect } from 'vitest';
import { ColourScales, MIN_AUTO_SPAN, autoRange, byteRange, byteValue, checkUserRange, scaledTexels } from '../src/colour_scale.js';
import { colorAt, colormapTexels } from '../src/colormap.js';

const section = (bytes, lo = 0, hi = 5) => ({ values: Uint8Array.from(bytes), lo, hi });
const texel = (texels, a) => [...texels.slice(4 * a, 4 * a + 3)];

describe('byteRange and autoRange', () => {
  it('finds the smallest and largest byte of the first count values', () => {
    expect(byteRange(Uint8Array.from([7, 3, 200, 9]))).toEqual({ min: 3, max: 200 });
    expect(byteRange(Uint8Array.from([7, 3, 200, 9]), 2)).toEqual({ min: 3, max: 7 });
    expect(byteRange(new Uint8Array(0))).toBeNull();
  });

  it('maps bytes back to values over the section range (PROTOCOL.md 4.2)', () => {
    expect(byteValue(0, 0, 5)).toBe(0);
    expect(byteValue(255, 0, 5)).toBe(5);
    expect(byteValue(51, 0, 5)).toBeCloseTo(1, 12);
    expect(autoRange({ min: 0, max: 51 }, 0, 5)).toEqual({ min: 0, max: byteValue(51, 0, 5) });
  });

  it('widens a single byte by one step either side, within the section', () => {
    const r = autoRange({ min: 10, max: 10 }, 0, 255);
    expect(r).toEqual({ min: 9, max: 11 });
    expect(autoRange({ min: 0, max: 0 }, 0, 255)).toEqual({ min: 0, max: 1 });
    expect(autoRange(null, 800, 1200)).toEqual({ min: 800, max: 1200 });
  });
});

describe('scaledTexels', () => {
  it('over the full section range equals the plain colour map', () => {
    expect([...scaledTexels('speed', 0, 5, 0, 5)]).toEqual([...colormapTexels('speed')]);
  });

  it('stretches the map over [min, max] and clamps outside it', () => {
    const texels = scaledTexels('speed', 0, 5, 1, 2); // bytes 51..102 are 1..2 m/s
    expect(texel(texels, 0)).toEqual(colorAt('speed', 0));
    expect(texel(texels, 51)).toEqual(colorAt('speed', 0));
    expect(texel(texels, 102)).toEqual(colorAt('speed', 1));
    expect(texel(texels, 255)).toEqual(colorAt('speed', 1));
    expect(texel(texels, 76)).toEqual(colorAt('speed', (byteValue(76, 0, 5) - 1) / 1));
    expect(texels[4 * 76 + 3]).toBe(255);
  });
});

describe('checkUserRange', () => {
  it('accepts numbers and numeric text with max > min', () => {
    expect(checkUserRange('speed', 0, 2)).toEqual({ min: 0, max: 2 });
    expect(checkUserRange('density', '950', ' 1050 ')).toEqual({ min: 950, max: 1050 });
  });

  it('refuses empty, non-numeric and inverted ranges, naming the field', () => {
    const error = (f) => { try { f(); } catch (e) { return { code: e.code, field: e.field, message: e.message }; } return null; };
    expect(error(() => checkUserRange('speed', '', 2))).toMatchObject({ code: 'bad_value', field: 'colour_scale.speed.min' });
    expect(error(() => checkUserRange('speed', 0, 'fast'))).toMatchObject({ field: 'colour_scale.speed.max', message: 'colour scale max: "fast" is not a number' });
    expect(error(() => checkUserRange('speed', 2, 2))).toMatchObject({ field: 'colour_scale.speed.max', message: 'colour scale max (2) must be greater than min (2)' });
    expect(error(() => checkUserRange('speed', 0, Number.POSITIVE_INFINITY))).toMatchObject({ field: 'colour_scale.speed.max' });
    expect(error(() => checkUserRange('fluid', 0, 3))).toMatchObject({ field: 'colour_scale.fluid.min' });
  });
});

describe('ColourScales', () => {
  it('is auto by default: the range of the bytes present, texels on the first frame only', () => {
    let now = 0;
    const scales = new ColourScales({ now: () => now });
    const first = scales.observe('speed', section([51, 102, 60]), 3);
    expect(first).toBeInstanceOf(Uint8Array);
    expect(scales.view({ name: 'speed', lo: 0, hi: 5 })).toMatchObject({ min: byteValue(51, 0, 5), max: byteValue(102, 0, 5), auto: true });
    now = 100;
    expect(scales.observe('speed', section([0, 255]), 2)).toBeNull(); // no rescan within 500 ms
    now = 600;
    expect(scales.observe('speed', section([51, 102]), 2)).toBeNull(); // rescanned, same range: nothing to upload
    now = 1200;
    expect(scales.observe('speed', section([0, 255]), 2)).toBeInstanceOf(Uint8Array);
    expect(scales.view({ name: 'speed', lo: 0, hi: 5 })).toMatchObject({ min: 0, max: 5, auto: true });
  });

  it('rescans at once when the attribute or its section range changes', () => {
    const now = 0;
    const scales = new ColourScales({ now: () => now });
    scales.observe('speed', section([10, 20]), 2);
    expect(scales.observe('density', section([10, 20], 800, 1200), 2)).toBeInstanceOf(Uint8Array);
    expect(scales.view({ name: 'density', lo: 800, hi: 1200 }).min).toBeCloseTo(byteValue(10, 800, 1200), 9);
    expect(scales.observe('density', section([10, 20], 790, 1200), 2)).toBeInstanceOf(Uint8Array);
  });

  it('keeps a user range per attribute until set back to auto; a refused range changes nothing', () => {
    const scales = new ColourScales({ now: () => 0 });
    scales.observe('speed', section([10, 20]), 2);
    const texels = scales.setUser('speed', 0, 1);
    expect([...texels]).toEqual([...scaledTexels('speed', 0, 5, 0, 1)]);
    expect(scales.view({ name: 'speed', lo: 0, hi: 5 })).toMatchObject({ min: 0, max: 1, auto: false });
    expect(() => scales.setUser('speed', 3, 1)).toThrow(/greater/);
    expect(scales.view({ name: 'speed', lo: 0, hi: 5 })).toMatchObject({ min: 0, max: 1, auto: false });
    expect(scales.isAuto('speed')).toBe(false);
    expect(scales.isAuto('density')).toBe(true);
    scales.setAuto('speed');
    expect(scales.view({ name: 'speed', lo: 0, hi: 5 })).toMatchObject({ min: byteValue(10, 0, 5), auto: true });
  });

  it('leaves fluid (categorical) and frames without the section alone', () => {
    const scales = new ColourScales({ now: () => 0 });
    expect(scales.observe('fluid', section([0, 1], 0, 255), 2)).toBeNull();
    expect(scales.view({ name: 'fluid', lo: 0, hi: 255 })).toEqual({ name: 'fluid', lo: 0, hi: 255, min: 0, max: 255, auto: null });
    expect(scales.observe('speed', undefined, 0)).toBeNull();
    expect(scales.view(null)).toBeNull();
  });
});

describe('ColourScales with the decode worker\'s byte range', () => {
  it('takes section.bytes instead of scanning the values', () => {
    const scales = new ColourScales({ now: () => 0 });
    scales.observe('speed', { values: Uint8Array.from([0, 255]), lo: 0, hi: 5, bytes: { min: 51, max: 102 } }, 2);
    expect(scales.view({ name: 'speed', lo: 0, hi: 5 })).toMatchObject({ min: byteValue(51, 0, 5), max: byteValue(102, 0, 5) });
  });
});

describe('the auto range of temperatures', () => {
  it('is never narrower than 1 K: a nearly uniform temperature is widened about its middle', () => {
    // section 273-373 K: one byte is 0.39 K; every particle at one byte gives two steps, 0.78 K
    const r = autoRange({ min: 60, max: 60 }, 273, 373, MIN_AUTO_SPAN.temperature);
    expect(r.max - r.min).toBeCloseTo(1, 12);
    expect((r.min + r.max) / 2).toBeCloseTo(byteValue(60, 273, 373), 12);
    const wide = autoRange({ min: 10, max: 200 }, 273, 373, 1);
    expect(wide).toEqual({ min: byteValue(10, 273, 373), max: byteValue(200, 273, 373) });
  });

  it('is applied by the scales of temperature only', () => {
    const scales = new ColourScales();
    const values = new Uint8Array([60, 60, 61]);
    scales.observe('temperature', { values, lo: 273, hi: 373, bytes: { min: 60, max: 61 } }, 3, 0);
    const t = scales.view({ name: 'temperature', lo: 273, hi: 373 });
    expect(t.max - t.min).toBeGreaterThanOrEqual(1 - 1e-9);
    expect(MIN_AUTO_SPAN.speed).toBeUndefined();
  });
});
