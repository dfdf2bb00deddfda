// TEST SUPPORT ONLY (not shipped to the viewer): Rice channel writer written from PROTOCOL.md 4.4.

/** Appends bit fields least-significant bit first into 32-bit little-endian words. */
export class BitWriter {
  constructor() {
    this.words = new Uint32Array(64);
    this.bitLength = 0;
  }

  /** Appends the low `width` bits (0 to 32) of `value`. */
  write(value, width) {
    if (width === 0) return;
    const masked = width === 32 ? value >>> 0 : (value & (2 ** width - 1)) >>> 0;
    const index = this.bitLength >>> 5;
    const shift = this.bitLength & 31;
    if (index + 2 > this.words.length) {
      const grown = new Uint32Array(this.words.length * 2);
      grown.set(this.words);
      this.words = grown;
    }
    this.words[index] |= masked << shift;
    if (shift + width > 32) this.words[index + 1] = masked >>> (32 - shift);
    this.bitLength += width;
  }

  /** The stream padded with zero bits to a multiple of 32 bits, as little-endian bytes. */
  bytes() {
    const wordCount = Math.ceil(this.bitLength / 32);
    const out = new Uint8Array(4 * wordCount);
    const view = new DataView(out.buffer);
    for (let i = 0; i < wordCount; i++) view.setUint32(4 * i, this.words[i], true);
    return out;
  }
}

export function zigzag(r) {
  return ((r << 1) ^ (r >> 31)) >>> 0;
}

/** Bits of one value coded with parameter k. */
export function riceBits(z, k) {
  const m = (z >>> 0) / 2 ** k;
  return m < 16 ? Math.floor(m) + 1 + k : 48;
}

export function writeRiceValue(writer, z, k) {
  const value = z >>> 0;
  const m = Math.floor(value / 2 ** k);
  if (m < 16) {
    writer.write(0, m);
    writer.write(1, 1);
    writer.write(value, k);
  } else {
    writer.write(0, 16);
    writer.write(value, 32);
  }
}

/** The k in 0..16 that makes a block shortest (the smallest such k). */
export function bestRiceK(values, start, end) {
  let bestK = 0;
  let bestBits = Infinity;
  for (let k = 0; k <= 16; k++) {
    let bits = 0;
    for (let i = start; i < end; i++) bits += riceBits(values[i], k);
    if (bits < bestBits) {
      bestBits = bits;
      bestK = k;
    }
  }
  return bestK;
}

/**
 * One channel: u32 byte length, then the bit stream of `values` (unsigned 32-bit, already
 * zigzagged where signed), each block with the k that makes it shortest.
 * options.chooseK(blockIndex, bestK) may override k (hostile tests: values 17..31 are written
 * as given, and the block's values are then coded with bestK).
 */
export function encodeRiceChannel(values, options = {}) {
  const writer = new BitWriter();
  for (let start = 0, block = 0; start < values.length; start += 64, block++) {
    const end = Math.min(start + 64, values.length);
    const bestK = bestRiceK(values, start, end);
    const k = options.chooseK ? options.chooseK(block, bestK) : bestK;
    writer.write(k, 5);
    const codingK = k <= 16 ? k : bestK;
    for (let i = start; i < end; i++) writeRiceValue(writer, values[i], codingK);
  }
  const stream = writer.bytes();
  const channel = new Uint8Array(4 + stream.length);
  new DataView(channel.buffer).setUint32(0, stream.length, true);
  channel.set(stream, 4);
  return channel;
}
