// Colour maps: stop colours at the ends, interpolation between stops, categorical fluids, texel tables, legend labels.
import { describe, it, expect } from 'vitest';
import { COLORMAPS, WATER_BLUE, colorOf, colormapTexels, cssGradient, fluidPalette, hexToRgb, legendLabels } from '../src/colormap.js';

describe('colour maps', () => {
  it('maps byte 0 and 255 to the first and last stop of every continuous map', () => {
    for (const [name, map] of Object.entries(COLORMAPS)) {
      if (map.kind !== 'continuous') continue;
      expect(colorOf(name, 0)).toEqual(hexToRgb(map.stops[0][1]));
      expect(colorOf(name, 255)).toEqual(hexToRgb(map.stops[map.stops.length - 1][1]));
    }
  });

  it('interpolates linearly between stops', () => {
    // density: #3b4cc0 at 0, #dddddd at 0.5: byte 64 is t = 0.251, about halfway to the middle stop.
    const [r, g, b] = colorOf('density', 64);
    const f = (64 / 255) / 0.5;
    expect(r).toBe(Math.round(0x3b + (0xdd - 0x3b) * f));
    expect(g).toBe(Math.round(0x4c + (0xdd - 0x4c) * f));
    expect(b).toBe(Math.round(0xc0 + (0xdd - 0xc0) * f));
  });

  it('grows monotonically brighter with speed (foam is white)', () => {
    const luminance = (a) => colorOf('speed', a).reduce((s, x) => s + x, 0);
    for (let a = 1; a < 256; a++) expect(luminance(a)).toBeGreaterThanOrEqual(luminance(a - 1));
    expect(colorOf('speed', 255)).toEqual([255, 255, 255]);
  });

  it('gives fluid 0 the plain water blue and distinct colours to the next fluids', () => {
    expect(colorOf('fluid', 0)).toEqual(hexToRgb(WATER_BLUE));
    const colours = [0, 1, 2, 3].map((i) => colorOf('fluid', i).join());
    expect(new Set(colours).size).toBe(4);
    expect(colorOf('fluid', 8)).toEqual(colorOf('fluid', 0)); // the palette cycles
  });

  it('fills 256 opaque texels, texel a holding the colour of byte a', () => {
    const texels = colormapTexels('temperature');
    expect(texels.length).toBe(1024);
    for (const a of [0, 17, 128, 255]) {
      expect(Array.from(texels.subarray(4 * a, 4 * a + 3))).toEqual(colorOf('temperature', a));
      expect(texels[4 * a + 3]).toBe(255);
    }
  });

  it('rejects unknown maps', () => {
    expect(() => colorOf('pressure', 3)).toThrow(RangeError);
  });

  it('labels the legend with the section range and unit', () => {
    expect(legendLabels('speed', 0, 5)).toEqual({ min: '0 m/s', max: '5 m/s' });
    expect(legendLabels('density', 800, 1200)).toEqual({ min: '800 kg/m³', max: '1200 kg/m³' });
    expect(legendLabels('temperature', 273.15, 373.15)).toEqual({ min: '0.0 °C (273.2 K)', max: '100.0 °C (373.2 K)' });
    expect(legendLabels('temperature', 100, 500).min).toBe('-173.1 °C (100.0 K)');
    // the example: one decimal each, halves up in both units
    expect(legendLabels('temperature', 287.65, 300).min).toBe('14.5 °C (287.7 K)');
    expect(legendLabels('temperature', 273.15 - 0.01, 300).min).toBe('0.0 °C (273.1 K)'); // not "-0.0"
    expect(cssGradient('density')).toBe('linear-gradient(to right, #3b4cc0 0%, #dddddd 50%, #b40426 100%)');
  });

  it('colours fluids in the own colours of the world (state.fluids), the default palette where it gives none', () => {
    const palette = fluidPalette([{ name: 'water', colour: '#2f7fd0' }, { name: 'honey', colour: '#e0a030' }, { name: 'x', colour: 'red' }]);
    expect(palette).toEqual(['#2f7fd0', '#e0a030', COLORMAPS.fluid.palette[2]]);
    expect(colorOf('fluid', 1, palette)).toEqual([0xe0, 0xa0, 0x30]);
    const texels = colormapTexels('fluid', palette);
    expect(Array.from(texels.subarray(4, 7))).toEqual([0xe0, 0xa0, 0x30]);
    expect(fluidPalette(undefined)).toBe(COLORMAPS.fluid.palette);
  });
});
