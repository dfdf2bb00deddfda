// Slider scales of the parameter panel: linear for narrow ranges, logarithmic for ranges wider than two decades, so that a nudge changes a value by a small factor.

/** Positions of a log slider (0..SLIDER_POSITIONS): one arrow-key nudge is a factor of (max/min)^(1/1000). */
export const SLIDER_POSITIONS = 1000;
/** A range is logarithmic when max / (smallest positive value shown) exceeds this: more than two decades. */
const LOG_DECADES_RATIO = 100;
/** A range from 0 shows its positive part from default / ZERO_FLOOR_RATIO (the default is then two decades in). */
const ZERO_FLOOR_RATIO = 100;
const SIGNIFICANT_DIGITS = 3;

/**
 * The log scale of a number entry ({min, max, defaultValue, integer}), or null when a linear
 * slider suits it. A range from 0 is logarithmic when its maximum is more than two decades above
 * its default: the slider's leftmost position is 0 and the rest run from default/100 to the
 * maximum (a default of 0, or a negative minimum, keeps the linear slider).
 * Returns {lo, hi, zero (position 0 is the value 0), integer}.
 */
export function logScale(entry) {
  const { min, max, defaultValue, integer } = entry;
  if (!(Number.isFinite(min) && Number.isFinite(max) && max > 0)) return null;
  if (min > 0) return max / min > LOG_DECADES_RATIO ? { lo: min, hi: max, zero: false, integer: Boolean(integer) } : null;
  if (min < 0 || !(defaultValue > 0) || max / defaultValue <= LOG_DECADES_RATIO) return null;
  return { lo: defaultValue / ZERO_FLOOR_RATIO, hi: max, zero: true, integer: Boolean(integer) };
}

/** First position of the logarithmic part (1 when position 0 stands for the value 0). */
const firstLogPosition = (scale) => (scale.zero ? 1 : 0);

/** The slider position (0..SLIDER_POSITIONS, a whole number) that shows value. */
export function positionOf(scale, value) {
  const first = firstLogPosition(scale);
  if (scale.zero && !(value > 0)) return 0;
  if (!(value > scale.lo)) return first;
  if (value >= scale.hi) return SLIDER_POSITIONS;
  const share = Math.log(value / scale.lo) / Math.log(scale.hi / scale.lo);
  return first + Math.round(share * (SLIDER_POSITIONS - first));
}

/** round(x) to a few significant digits, so that slid values read 0.000512, not 0.00051234. */
export function roundSignificant(x, digits = SIGNIFICANT_DIGITS) {
  if (x === 0 || !Number.isFinite(x)) return x;
  return Number(x.toPrecision(digits));
}

/** The value a slider position stands for, rounded to 3 significant digits (whole for ints), inside [lo, hi]. */
export function valueAt(scale, position) {
  const first = firstLogPosition(scale);
  if (scale.zero && position <= 0) return 0;
  const share = Math.min(1, Math.max(0, (position - first) / (SLIDER_POSITIONS - first)));
  const exact = scale.lo * (scale.hi / scale.lo) ** share;
  const rounded = scale.integer ? Math.round(exact) : roundSignificant(exact);
  return Math.min(scale.hi, Math.max(scale.lo, rounded));
}

/** Share (0..1) of the slider's track left of value: where a mark at that value is drawn. */
export function trackShare(scale, value) {
  return positionOf(scale, value) / SLIDER_POSITIONS;
}
