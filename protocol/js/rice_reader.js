// Reads Rice-coded integer channels (PROTOCOL.md 4.4) from a Uint32Array of little-endian words.
import { corrupt } from './decode_error.js';

export const RICE_BLOCK_VALUES = 64;
export const RICE_MAX_K = 16;
/** Words a reader may look at past a channel's end before it notices the end: one whole block of
 *  escapes (5 + 64 * 48 bits) plus a two-word peek. Callers pad their word array by this much. */
export const RICE_OVERREAD_WORDS = 128;

// Hot loops use literals (64, 16, 31, 0xffff) rather than imported constants: V8 folds literals.

/**
 * Decodes channel = { startBit, endBit, count } of `words` into out[0 .. count) as raw (still
 * zigzagged) 32-bit values: read them with `>>> 0` when unsigned. `words` must hold
 * RICE_OVERREAD_WORDS readable words past endBit (never used for a value that is kept). Throws
 * DecodeError 'corrupt' on a k of 17..31 or when the bits run out (checked once per block).
 */
export function readRiceChannel(words, channel, out) {
  const { startBit, endBit, count } = channel;
  checkArguments(words, channel, out);
  let pos = startBit;
  for (let blockStart = 0; blockStart < count; blockStart += 64) {
    const k = readK(words, pos);
    pos += 5;
    const lowMask = (1 << k) - 1;
    const blockEnd = blockStart + 64 < count ? blockStart + 64 : count;
    for (let i = blockStart; i < blockEnd; i++) pos = readValue(words, pos, k, lowMask, out, i);
    if (pos > endBit) throw runOut(channel);
  }
  return pos;
}

/**
 * Decodes three channels of the same count together (positions x, y, z, or three attributes):
 * their decodes are independent, so the CPU overlaps them. Same contract as readRiceChannel.
 */
export function readRiceChannels3(words, channelA, channelB, channelC, outA, outB, outC) {
  const count = channelA.count;
  if (channelB.count !== count || channelC.count !== count) throw new RangeError('channel counts differ');
  checkArguments(words, channelA, outA);
  checkArguments(words, channelB, outB);
  checkArguments(words, channelC, outC);
  let pa = channelA.startBit;
  let pb = channelB.startBit;
  let pc = channelC.startBit;
  for (let blockStart = 0; blockStart < count; blockStart += 64) {
    const ka = readK(words, pa);
    const kb = readK(words, pb);
    const kc = readK(words, pc);
    pa += 5;
    pb += 5;
    pc += 5;
    const maskA = (1 << ka) - 1;
    const maskB = (1 << kb) - 1;
    const maskC = (1 << kc) - 1;
    // pos advances by m + 1 + k = (31 - clz) + 1 + k = (k + 32) - clz
    const biasA = ka + 32;
    const biasB = kb + 32;
    const biasC = kc + 32;
    const blockEnd = blockStart + 64 < count ? blockStart + 64 : count;
    for (let i = blockStart; i < blockEnd; i++) {
      const ia = pa >>> 5;
      const sa = pa & 31;
      const ib = pb >>> 5;
      const sb = pb & 31;
      const ic = pc >>> 5;
      const sc = pc & 31;
      const wa = (words[ia] >>> sa) | ((words[ia + 1] << 1) << (31 - sa));
      const wb = (words[ib] >>> sb) | ((words[ib + 1] << 1) << (31 - sb));
      const wc = (words[ic] >>> sc) | ((words[ic + 1] << 1) << (31 - sc));
      if ((wa & 0xffff) !== 0 && (wb & 0xffff) !== 0 && (wc & 0xffff) !== 0) {
        const ca = Math.clz32(wa & -wa);
        const cb = Math.clz32(wb & -wb);
        const cc = Math.clz32(wc & -wc);
        outA[i] = ((31 - ca) << ka) | ((wa >>> (32 - ca)) & maskA);
        outB[i] = ((31 - cb) << kb) | ((wb >>> (32 - cb)) & maskB);
        outC[i] = ((31 - cc) << kc) | ((wc >>> (32 - cc)) & maskC);
        pa += biasA - ca;
        pb += biasB - cb;
        pc += biasC - cc;
      } else {
        pa = readValue(words, pa, ka, maskA, outA, i);
        pb = readValue(words, pb, kb, maskB, outB, i);
        pc = readValue(words, pc, kc, maskC, outC, i);
      }
    }
    if (pa > channelA.endBit) throw runOut(channelA);
    if (pb > channelB.endBit) throw runOut(channelB);
    if (pc > channelC.endBit) throw runOut(channelC);
  }
}

/**
 * Decodes the three per-axis channels of a positions or velocities section into outX, outY, outZ
 * (`count` values each). A flat axis's channel holds no values (PROTOCOL.md 4.2): its output is
 * zeros. Without a flat axis this is readRiceChannels3.
 */
export function readAxisChannels(words, channels, count, outX, outY, outZ) {
  const outs = [outX, outY, outZ];
  if (channels[0].count === count && channels[1].count === count && channels[2].count === count) {
    readRiceChannels3(words, channels[0], channels[1], channels[2], outX, outY, outZ);
    return;
  }
  for (let axis = 0; axis < 3; axis++) {
    if (channels[axis].count === count) readRiceChannel(words, channels[axis], outs[axis]);
    else outs[axis].fill(0, 0, count);
  }
}

/** The 5-bit k at `pos`, checked to be at most 16. */
export function readK(words, pos) {
  const index = pos >>> 5;
  const shift = pos & 31;
  // Peek 32 bits: (w1 << 1) << (31 - shift) is 0 when shift is 0 (w1 << 32 would be w1).
  const k = ((words[index] >>> shift) | ((words[index + 1] << 1) << (31 - shift))) & 31;
  if (k > 16) throw corrupt(`Rice parameter k = ${k} above 16 at bit ${pos}`);
  return k;
}

/** Decodes one value at `pos` into out[i]; returns the position after it. */
export function readValue(words, pos, k, lowMask, out, i) {
  let index = pos >>> 5;
  let shift = pos & 31;
  const peek = (words[index] >>> shift) | ((words[index + 1] << 1) << (31 - shift));
  if ((peek & 0xffff) !== 0) {
    // m zero bits then a one: m = trailing zeros (< 16); m + 1 + k <= 32 bits are in `peek`.
    const m = 31 - Math.clz32(peek & -peek);
    out[i] = (m << k) | ((peek >>> (m + 1)) & lowMask);
    return pos + m + 1 + k;
  }
  // Escape: 16 zero bits, then all 32 bits of the value.
  index = (pos + 16) >>> 5;
  shift = (pos + 16) & 31;
  out[i] = (words[index] >>> shift) | ((words[index + 1] << 1) << (31 - shift));
  return pos + 48;
}

export function checkArguments(words, channel, out) {
  if ((channel.endBit >>> 5) + RICE_OVERREAD_WORDS > words.length || channel.startBit > channel.endBit ||
      channel.count > out.length) {
    throw new RangeError('Rice reader: word array not padded or output too small');
  }
}

export function runOut(channel) {
  return corrupt(`channel of ${channel.count} values runs out of bits`);
}

/** Fewest bits a channel of `count` values can take: one bit per value plus 5 per block. */
export function minimumChannelBits(count) {
  return count + 5 * Math.ceil(count / RICE_BLOCK_VALUES);
}
