// Maps the normalized uint16 positions (q << (16 - bits)) / 65535 back to metres: x = lo + n * scale.

/**
 * The frame stores q << (16 - bits) and WebGL reads it normalized as n = (q << s) / 65535, while
 * x = lo + q (hi - lo) / (2^bits - 1) (PROTOCOL.md 4.2). So x = lo + n * scale with
 * scale = (hi - lo) * 65535 / (2^s (2^bits - 1)), exactly (for bits = 16 it is hi - lo).
 * Returns {position: lo, scale} for the mesh's model matrix.
 */
export function boundsTransform(lo, hi, bits) {
  if (!(bits >= 1 && bits <= 16)) throw new RangeError(`bits ${bits} outside 1..16`);
  const shift = 16 - bits;
  const factor = 65535 / (2 ** shift * (2 ** bits - 1));
  // a flat axis (hi == lo, a 2D world's z) has every q = 0: any scale maps it to lo, and 1 keeps
  // the model matrix invertible
  return {
    position: [lo[0], lo[1], lo[2]],
    scale: [0, 1, 2].map((axis) => (hi[axis] > lo[axis] ? (hi[axis] - lo[axis]) * factor : 1)),
  };
}

/** The metres of a normalized position n (0..1) on one axis: the inverse check of boundsTransform. */
export function positionOf(transform, axis, n) {
  return transform.position[axis] + n * transform.scale[axis];
}
