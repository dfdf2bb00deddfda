// Colour maps of the 8-bit attributes (sRGB bytes): stops, lookup, 256-texel tables and legend labels.

/** The plain water blue used when no attribute is shown (sRGB hex). */
export const WATER_BLUE = '#2f86d6';

/** Continuous maps are piecewise linear between [t, '#rrggbb'] stops; categorical maps cycle a palette. */
export const COLORMAPS = {
  speed: { kind: 'continuous', stops: [[0, '#0b3d91'], [0.3, '#1f73cf'], [0.6, '#4cc2f0'], [0.85, '#bdeeff'], [1, '#ffffff']] },
  density: { kind: 'continuous', stops: [[0, '#3b4cc0'], [0.5, '#dddddd'], [1, '#b40426']] },
  temperature: { kind: 'continuous', stops: [[0, '#000004'], [0.25, '#57106e'], [0.5, '#bc3754'], [0.75, '#f98e09'], [1, '#fcffa4']] },
  fluid: { kind: 'categorical', palette: [WATER_BLUE, '#e8833a', '#59b36b', '#c2519c', '#f2cf3a', '#8e6bd6', '#3ec7c2', '#d94b4b'] },
};

/** Unit of each attribute for the legend (PROTOCOL.md 4.2). */
export const ATTRIBUTE_UNITS = { speed: 'm/s', density: 'kg/m³', temperature: 'K', fluid: '' };

export function hexToRgb(hex) {
  const n = parseInt(hex.slice(1), 16);
  return [(n >> 16) & 255, (n >> 8) & 255, n & 255];
}

/**
 * The fluid map's palette for a world's fluids (state.fluids, PROTOCOL.md 2.3): fluid i in its own
 * `colour`; the default palette where a fluid gives none or the list is missing.
 */
export function fluidPalette(fluids) {
  const fallback = COLORMAPS.fluid.palette;
  if (!Array.isArray(fluids) || fluids.length === 0) return fallback;
  return fluids.map((fluid, i) => (/^#[0-9a-fA-F]{6}$/.test(fluid?.colour ?? '') ? fluid.colour : fallback[i % fallback.length]));
}

/** Colour of attribute byte a (0-255) in map `name` (a categorical one in `palette`, default its own), as [r, g, b] bytes. */
export function colorOf(name, a, palette = null) {
  const map = COLORMAPS[name];
  if (!map) throw new RangeError(`no colour map ${name}`);
  const index = Math.max(0, Math.min(255, Math.round(a)));
  if (map.kind === 'categorical') {
    const colours = palette ?? map.palette;
    return hexToRgb(colours[index % colours.length]);
  }
  return interpolate(map.stops, index / 255);
}

/** Colour at t in [0, 1] (clamped) of the continuous map `name`, as [r, g, b] bytes. */
export function colorAt(name, t) {
  const map = COLORMAPS[name];
  if (!map || map.kind !== 'continuous') throw new RangeError(`${name} is not a continuous colour map`);
  return interpolate(map.stops, Math.max(0, Math.min(1, t)));
}

function interpolate(stops, t) {
  let i = 1;
  while (i < stops.length - 1 && t > stops[i][0]) i += 1;
  const [t0, c0] = stops[i - 1];
  const [t1, c1] = stops[i];
  const f = Math.max(0, Math.min(1, (t - t0) / (t1 - t0)));
  const a = hexToRgb(c0);
  const b = hexToRgb(c1);
  return a.map((x, k) => Math.round(x + (b[k] - x) * f));
}

/** 256 RGBA texels (sRGB) of a map: texel a is the colour of attribute byte a (a categorical map in `palette`). */
export function colormapTexels(name, palette = null) {
  const texels = new Uint8Array(256 * 4);
  for (let a = 0; a < 256; a++) {
    texels.set(colorOf(name, a, palette), 4 * a);
    texels[4 * a + 3] = 255;
  }
  return texels;
}

/** A CSS linear-gradient of a continuous map, for the legend bar. */
export function cssGradient(name) {
  const map = COLORMAPS[name];
  if (map.kind !== 'continuous') throw new RangeError(`${name} is not continuous`);
  return `linear-gradient(to right, ${map.stops.map(([t, c]) => `${c} ${Math.round(t * 100)}%`).join(', ')})`;
}

/** Legend text of a frame's attribute section range: {min, max} strings with the unit. */
export function legendLabels(name, lo, hi) {
  const unit = ATTRIBUTE_UNITS[name] ? ` ${ATTRIBUTE_UNITS[name]}` : '';
  const format = (x) => String(Number(x.toPrecision(5)));
  if (name === 'temperature') { // degrees Celsius for people, and kelvin as the server sends it, to 0.1 K
    // to 0.1, halves up (287.65 K reads 287.7 K, as 14.5 °C suggests), never "-0.0"
    const tenth = (x) => (Math.round(x * 10 + 1e-6) / 10 || 0).toFixed(1);
    const both = (k) => `${tenth(k - 273.15)} °C (${tenth(k)} K)`;
    return { min: both(lo), max: both(hi) };
  }
  return { min: `${format(lo)}${unit}`, max: `${format(hi)}${unit}` };
}
