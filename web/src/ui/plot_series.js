// What the live plots show: the series read from a `stats` message (absent fields become gaps), their labels and units.

/** Five minutes of samples; stats arrive at most 4 per second (PROTOCOL.md 2.3). */
export const PLOT_WINDOW_S = 300;
export const PLOT_CAPACITY = 4 * PLOT_WINDOW_S + 16;

/** One chart per series: key in the ring, title, unit, and how a stats message gives its value. */
export const PLOT_SERIES = [
  { key: 'particles', title: 'Particles', unit: '', read: (s) => s.particles },
  { key: 'max_speed', title: 'Max speed', unit: 'm/s', read: (s) => s.max_speed },
  { key: 'density_error', title: 'Density error', unit: '%', read: (s) => (isNumber(s.density_error) ? 100 * s.density_error : null) },
  { key: 'realtime_factor', title: 'Real-time factor', unit: '×', read: (s) => s.realtime_factor },
  { key: 'dt', title: 'Time step', unit: 'ms', read: (s) => (isNumber(s.dt) ? 1e3 * s.dt : null) },
];

function isNumber(x) {
  return typeof x === 'number' && Number.isFinite(x);
}

/** The values of one stats message by series key; a field the server did not send is null. */
export function statsSample(stats) {
  const sample = {};
  for (const series of PLOT_SERIES) {
    const value = stats ? series.read(stats) : null;
    sample[series.key] = isNumber(value) ? value : null;
  }
  return sample;
}

/** The newest non-null value of a column, or null (the number shown next to a chart's title). */
export function lastValue(column) {
  for (let i = column.length - 1; i >= 0; i--) if (column[i] !== null) return column[i];
  return null;
}

/** Axis label of x seconds before now: "now", "-20 s", "-2 min". */
export function agoLabel(x) {
  if (Math.abs(x) < 0.5) return 'now';
  return Math.abs(x) >= 60 ? `${Number((x / 60).toFixed(1))} min` : `${Math.round(x)} s`;
}

/** A chart's y range for data in [min, max]: 8 % padding, a flat series centred in ±10 % (or ±1), [0, 1] for none. */
export function yRange(min, max) {
  if (min === null || max === null || !Number.isFinite(min) || !Number.isFinite(max)) return [0, 1];
  if (min === max) {
    const half = Math.max(1e-9, Math.abs(min) * 0.1) || 1;
    return [min - (min === 0 ? 1 : half), max + (max === 0 ? 1 : half)];
  }
  const pad = (max - min) * 0.08;
  return [min - pad, max + pad];
}
