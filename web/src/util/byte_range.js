// The smallest and largest byte of an attribute section (for the colour scale's auto range), computed where frames are decoded.

/** {min, max} of values[0 .. count), or null for none. */
export function byteRange(values, count = values.length) {
  const n = Math.min(count, values.length);
  if (n === 0) return null;
  let min = 255;
  let max = 0;
  for (let i = 0; i < n; i++) {
    const a = values[i];
    if (a < min) min = a;
    if (a > max) max = a;
  }
  return { min, max };
}

/** Adds `bytes` (byteRange of its values) to every attribute section of a decoded frame. */
export function addByteRanges(frame) {
  for (const section of Object.values(frame.attributes)) section.bytes = byteRange(section.values, frame.count);
  return frame;
}
