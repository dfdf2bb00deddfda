// Range checks done once after a loop that OR-ed every decoded value into one accumulator.
import { corrupt } from './decode_error.js';

/**
 * Every q was OR-ed into `outOfRange`: a q outside [0, maxQ] sets a bit above maxQ (a negative
 * one sets the sign bit). q = (q_ref + v_ref + r) | 0 with |q_ref + v_ref| < 2^18: a sum that
 * wraps past +-2^31 lands outside [0, maxQ] as well, so the wrap never hides a fault.
 */
export function checkPositionsInRange(outOfRange, maxQ) {
  if ((outOfRange & ~maxQ) !== 0) throw corrupt(`a position outside [0, ${maxQ}]`);
}

/** Same for 8-bit attributes: a = (a_ref + r) | 0 with a_ref in [0, 255]. */
export function checkAttributeInRange(outOfRange, name) {
  if ((outOfRange & ~255) !== 0) throw corrupt(`attribute ${name} outside [0, 255]`);
}
