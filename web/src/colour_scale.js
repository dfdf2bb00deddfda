// Colour scales of the continuous attributes: the auto range (the values present in the frame) or a user-set min/max, as 256-texel colour maps.
import { COLORMAPS, colorAt } from './colormap.js';
import { byteRange } from './util/byte_range.js';

export { byteRange };

const RESCAN_MS = 500; // the auto range follows the frames at most twice a second, so colours do not flicker

/** The value of attribute byte a in a section quantized over [lo, hi] (PROTOCOL.md 4.2). */
export function byteValue(a, lo, hi) {
  return lo + (a * (hi - lo)) / 255;
}

/** The narrowest auto range of an attribute, in its unit: a temperature range is at least 1 K wide,
 *  so that a nearly uniform temperature is not painted over the whole map. */
export const MIN_AUTO_SPAN = { temperature: 1 };

/**
 * The auto range of a section: the values of its smallest and largest byte; when every particle
 * has the same byte, one quantization step either side (within [lo, hi]) so the range is not empty.
 * A range narrower than minSpan is widened to minSpan about its middle.
 */
export function autoRange(bytes, lo, hi, minSpan = 0) {
  if (!bytes) return { min: lo, max: hi };
  let { min, max } = bytes;
  if (min === max) {
    min = Math.max(0, min - 1);
    max = Math.min(255, max + 1);
  }
  const range = { min: byteValue(min, lo, hi), max: byteValue(max, lo, hi) };
  if (range.max - range.min < minSpan) {
    const middle = (range.min + range.max) / 2;
    return { min: middle - minSpan / 2, max: middle + minSpan / 2 };
  }
  return range;
}

/**
 * 256 RGBA texels (sRGB) for a section quantized over [lo, hi] shown with the scale [min, max]:
 * texel a is the map's colour at (value(a) - min) / (max - min), clamped to the ends.
 */
export function scaledTexels(name, lo, hi, min, max) {
  const texels = new Uint8Array(256 * 4);
  for (let a = 0; a < 256; a++) {
    texels.set(colorAt(name, (byteValue(a, lo, hi) - min) / (max - min)), 4 * a);
    texels[4 * a + 3] = 255;
  }
  return texels;
}

/** A user's min/max for `name` (numbers or text from the legend's fields); throws {field, message} when invalid. */
export function checkUserRange(name, min, max) {
  const field = (which) => `colour_scale.${name}.${which}`;
  const fail = (which, message) => { throw Object.assign(new RangeError(message), { code: 'bad_value', field: field(which) }); };
  if (!isContinuous(name)) fail('min', `colour scale: ${name} has no range to set`);
  const lo = toNumber(min);
  const hi = toNumber(max);
  if (lo === null) fail('min', `colour scale min: "${min}" is not a number`);
  if (hi === null) fail('max', `colour scale max: "${max}" is not a number`);
  if (!(hi > lo)) fail('max', `colour scale max (${hi}) must be greater than min (${lo})`);
  return { min: lo, max: hi };
}

function toNumber(x) {
  const value = typeof x === 'string' && x.trim() !== '' ? Number(x) : x;
  return typeof value === 'number' && Number.isFinite(value) ? value : null;
}

export function isContinuous(name) {
  return COLORMAPS[name]?.kind === 'continuous';
}

/**
 * The scale of each continuous attribute: auto (default) or a user range. observe() is called for
 * every shown frame; it takes the frame's byte range at most every RESCAN_MS (and at once when the
 * attribute or its section range changes) and returns the texels to upload when the scale changed.
 */
export class ColourScales {
  constructor({ now = () => performance.now() } = {}) {
    this.now = now;
    this.user = new Map(); // name -> {min, max}
    this.shown = null; // {name, lo, hi, bytes, min, max, auto}
    this.scannedAt = -Infinity;
  }

  isAuto(name) {
    return !this.user.has(name);
  }

  /** Sets a user range (checked: throws {code, field, message}); returns the texels to upload, or null. */
  setUser(name, min, max) {
    this.user.set(name, checkUserRange(name, min, max));
    return this.refresh();
  }

  setAuto(name) {
    this.user.delete(name);
    return this.refresh();
  }

  /** The shown frame's attribute: name, its section (values, lo, hi) and the particle count. */
  observe(name, section, count) {
    if (!isContinuous(name) || !section) {
      this.shown = null;
      return null;
    }
    const now = this.now();
    const same = this.shown && this.shown.name === name && this.shown.lo === section.lo && this.shown.hi === section.hi;
    if (same && now - this.scannedAt < RESCAN_MS) return null;
    this.scannedAt = now;
    // The decode worker adds the section's byte range (util/byte_range.js); scan here only without it.
    const bytes = section.bytes !== undefined ? section.bytes : byteRange(section.values, count);
    const previous = same ? this.shown : null;
    this.shown = { name, lo: section.lo, hi: section.hi, bytes };
    return this.refresh(previous);
  }

  /** Recomputes the shown scale; texels when it differs from `previous` (or always without one). */
  refresh(previous = null) {
    const shown = this.shown;
    if (!shown) return null;
    const user = this.user.get(shown.name);
    const range = user ?? autoRange(shown.bytes, shown.lo, shown.hi, MIN_AUTO_SPAN[shown.name] ?? 0);
    Object.assign(shown, range, { auto: !user });
    if (previous && previous.min === range.min && previous.max === range.max && previous.auto === shown.auto && previous.texels) {
      shown.texels = previous.texels;
      return null;
    }
    shown.texels = scaledTexels(shown.name, shown.lo, shown.hi, range.min, range.max);
    return shown.texels;
  }

  /** What the legend shows for the drawn attribute ({name, lo, hi} from the particle layer, or null). */
  view(drawn) {
    if (!drawn) return null;
    const shown = this.shown;
    if (!isContinuous(drawn.name) || !shown || shown.name !== drawn.name) return { ...drawn, min: drawn.lo, max: drawn.hi, auto: null };
    return { name: drawn.name, lo: drawn.lo, hi: drawn.hi, min: shown.min, max: shown.max, auto: shown.auto };
  }
}
