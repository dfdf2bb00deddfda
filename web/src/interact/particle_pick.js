// Particle picking: the particle a click points at (nearest along the view ray, in the decoded frame's positions) and the `pick` request for it.
import { vector } from '../net/messages.js';

/**
 * The particle of `frame` ({count, bits, lo, hi, positions: Uint16Array of q << (16 - bits)})
 * that the ray origin + t·direction (direction of unit length) meets first, taking each particle
 * as a sphere of `radius` m. When the ray passes through none, the one seen closest to the ray
 * within `maxAngle` radians (a few pixels). Returns {index, position: [x, y, z] m, distance
 * (along the ray, m), hit (true when the ray passes through its sphere)} or null.
 */
export function nearestOnRay(frame, origin, direction, radius, maxAngle = 0) {
  if (!frame || !frame.count) return null;
  const shift = 16 - frame.bits;
  const maxQ = 2 ** frame.bits - 1;
  const { lo, hi, positions } = frame;
  const step = [0, 1, 2].map((k) => (hi[k] - lo[k]) / maxQ);
  const [ox, oy, oz] = origin;
  const [ux, uy, uz] = direction;
  const r2 = radius * radius;
  let best = -1;
  let bestT = Infinity;
  let near = -1;
  let nearScore = maxAngle * maxAngle;
  let nearT = 0;
  for (let i = 0; i < frame.count; i++) {
    const dx = lo[0] + (positions[3 * i] >>> shift) * step[0] - ox;
    const dy = lo[1] + (positions[3 * i + 1] >>> shift) * step[1] - oy;
    const dz = lo[2] + (positions[3 * i + 2] >>> shift) * step[2] - oz;
    const t = dx * ux + dy * uy + dz * uz;
    if (t <= 0) continue;
    const perp2 = dx * dx + dy * dy + dz * dz - t * t;
    if (perp2 <= r2) {
      const tHit = t - Math.sqrt(r2 - perp2);
      if (tHit < bestT) {
        bestT = tHit;
        best = i;
      }
    } else if (best < 0) {
      const score = perp2 / (t * t); // tan² of the angle between the ray and the particle
      if (score <= nearScore) {
        nearScore = score;
        near = i;
        nearT = t;
      }
    }
  }
  const index = best >= 0 ? best : near;
  if (index < 0) return null;
  const position = [0, 1, 2].map((k) => lo[k] + (positions[3 * index + k] >>> shift) * step[k]);
  return { index, position, distance: best >= 0 ? bestT : nearT, hit: best >= 0 };
}

/** The `pick` request (PROTOCOL.md 2.2): the fluid particle nearest to `position` (m), watchers allowed. */
export function pickMessage(world, position) {
  return { type: 'pick', world, position: vector(position) };
}
