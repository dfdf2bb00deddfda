// One particle's term of the frame checksum (PROTOCOL.md 4.8), in u32 arithmetic.

/** Callers sum terms with `(sum + term) | 0` and read the checksum as `sum >>> 0`. The multipliers
 *  are literals on purpose: V8 folds them, it does not fold imported constants. */
export function checksumTerm(id, qx, qy, qz) {
  return Math.imul(id, 0x9e3779b1) ^ Math.imul(qx, 0x85ebca77) ^
    Math.imul(qy, 0xc2b2ae3d) ^ Math.imul(qz, 0x27d4eb2f);
}
