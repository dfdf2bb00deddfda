// Tests of the Rice channel reader on hand-built bit streams and on streams from the test encoder.
import { describe, it, expect } from 'vitest';
import {
  readRiceChannel, readRiceChannels3, minimumChannelBits, RICE_OVERREAD_WORDS,
} from './rice_reader.js';
import { DecodeError } from './decode_error.js';
import { BitWriter, encodeRiceChannel, zigzag } from './test_support/rice_writer.js';
import { makeRandom } from './test_support/prng.js';

/** Words of a stream written as '0'/'1' characters in stream order (bit 0 first); spaces ignored. */
function wordsFromBits(bitString, padWords = RICE_OVERREAD_WORDS) {
  const bits = bitString.replace(/\s+/g, '');
  const words = new Uint32Array(Math.ceil(bits.length / 32) + padWords);
  for (let i = 0; i < bits.length; i++) {
    if (bits[i] === '1') words[i >>> 5] |= 1 << (i & 31);
  }
  return { words, bitLength: bits.length };
}

/** `value` as `width` characters, least significant bit first (stream order). */
function lsbFirst(value, width) {
  let out = '';
  for (let i = 0; i < width; i++) out += Math.floor(value / 2 ** i) % 2 ? '1' : '0';
  return out;
}

function decode(bitString, count, { endBit } = {}) {
  const { words, bitLength } = wordsFromBits(bitString);
  const out = new Int32Array(count);
  const end = readRiceChannel(words, { startBit: 0, endBit: endBit ?? bitLength, count }, out);
  return { values: Array.from(out, (v) => v >>> 0), end };
}

function expectCorrupt(fn, pattern) {
  let error;
  try {
    fn();
  } catch (e) {
    error = e;
  }
  expect(error).toBeInstanceOf(DecodeError);
  expect(error.code).toBe('corrupt');
  expect(error.message).toMatch(pattern);
}

describe('readRiceChannel on hand-built streams', () => {
  it('decodes k = 0 values as unary codes', () => {
    const stream = lsbFirst(0, 5) + '1' + '01' + '001' + '0000000000000001';
    expect(decode(stream, 4)).toEqual({ values: [0, 1, 2, 15], end: stream.length });
  });

  it('decodes k = 3: m zeros, a one, then the 3 low bits', () => {
    // 13 = 0b1101: m = 1, low = 0b101; 7: m = 0, low = 0b111; 128 = 16 << 3 escapes
    const stream = lsbFirst(3, 5) + '01' + lsbFirst(5, 3) + '1' + lsbFirst(7, 3) +
      '0'.repeat(16) + lsbFirst(128, 32);
    expect(decode(stream, 3).values).toEqual([13, 7, 128]);
  });

  it('decodes k = 16 with m = 15, a 32-bit code, across a word boundary', () => {
    const z = (15 * 65536 + 0xabcd) >>> 0;
    for (let lead = 0; lead < 32; lead++) {
      // `lead` zeros (17 bits each at k = 16) first: the long code starts at every bit offset
      const block = lsbFirst(16, 5) + ('1' + lsbFirst(0, 16)).repeat(lead) +
        '0'.repeat(15) + '1' + lsbFirst(0xabcd, 16);
      expect(decode(block, lead + 1).values).toEqual([...Array(lead).fill(0), z]);
    }
  });

  it('decodes escapes: 16 zero bits then all 32 bits, at k = 0 and at k = 16', () => {
    const atK0 = lsbFirst(0, 5) + '0'.repeat(16) + lsbFirst(16, 32) + '0'.repeat(16) + lsbFirst(0xdeadbeef, 32);
    expect(decode(atK0, 2).values).toEqual([16, 0xdeadbeef]);
    const atK16 = lsbFirst(16, 5) + '0'.repeat(16) + lsbFirst(0xffffffff, 32) + '1' + lsbFirst(0x1234, 16);
    expect(decode(atK16, 2).values).toEqual([0xffffffff, 0x1234]);
  });

  it('reads a new k at each block of 64 values', () => {
    const first = lsbFirst(0, 5) + '1'.repeat(64); // 64 zeros at k = 0
    const second = lsbFirst(2, 5) + '1' + lsbFirst(3, 2) + '01' + lsbFirst(1, 2); // 3 and 5 at k = 2
    expect(decode(first + second, 66).values).toEqual([...Array(64).fill(0), 3, 5]);
  });

  it('rejects k = 17 to 31 in any block', () => {
    for (let k = 17; k <= 31; k++) {
      expectCorrupt(() => decode(lsbFirst(k, 5) + '1'.repeat(8), 1), new RegExp(`k = ${k} `));
      const secondBlock = lsbFirst(0, 5) + '1'.repeat(64) + lsbFirst(k, 5) + '1';
      expectCorrupt(() => decode(secondBlock, 65), new RegExp(`k = ${k} `));
    }
  });

  it('rejects a channel whose bits run out, and accepts one that ends exactly', () => {
    const stream = lsbFirst(4, 5) + '1' + lsbFirst(9, 4) + '001' + lsbFirst(1, 4);
    expect(decode(stream, 2)).toEqual({ values: [9, 2 * 16 + 1], end: stream.length });
    expectCorrupt(() => decode(stream, 2, { endBit: stream.length - 1 }), /runs out of bits/);
    expectCorrupt(() => decode(stream, 3), /runs out of bits/);
    const escapeCutShort = lsbFirst(0, 5) + '0'.repeat(16) + lsbFirst(7, 31);
    expectCorrupt(() => decode(escapeCutShort, 1), /runs out of bits/);
  });

  it('reads nothing for an empty channel', () => {
    expect(decode('', 0)).toEqual({ values: [], end: 0 });
  });

  it('refuses a word array without the read-ahead padding', () => {
    const { words } = wordsFromBits('1'.repeat(64), 0);
    expect(() => readRiceChannel(words, { startBit: 0, endBit: 64, count: 1 }, new Int32Array(1)))
      .toThrow(RangeError);
  });
});

describe('minimumChannelBits', () => {
  it('counts one bit per value and five per block', () => {
    expect(minimumChannelBits(0)).toBe(0);
    expect(minimumChannelBits(1)).toBe(6);
    expect(minimumChannelBits(64)).toBe(69);
    expect(minimumChannelBits(65)).toBe(75);
  });
});

/** A channel from the test encoder, as padded words plus its bit range. */
function encodedChannel(values, chooseK) {
  const bytes = encodeRiceChannel(values, { chooseK });
  const words = new Uint32Array(bytes.length / 4 + RICE_OVERREAD_WORDS);
  new Uint8Array(words.buffer).set(bytes);
  return { words, channel: { startBit: 32, endBit: 8 * bytes.length, count: values.length } };
}

function randomValues(random, count) {
  return Array.from({ length: count }, () => {
    const kind = random.int(10);
    if (kind === 0) return random.int(2 ** 32); // forces escapes
    if (kind === 1) return zigzag(random.int(2 ** 16) - 2 ** 15);
    return zigzag(random.int(64) - 32);
  });
}

describe('readRiceChannel against the test encoder', () => {
  it('returns what was written, for every k from 0 to 16 and random block lengths', () => {
    const random = makeRandom(11);
    for (let trial = 0; trial < 200; trial++) {
      const values = randomValues(random, random.int(300));
      const forcedK = trial < 17 ? trial : -1;
      const { words, channel } = encodedChannel(values, forcedK >= 0 ? () => forcedK : undefined);
      const out = new Int32Array(values.length);
      const end = readRiceChannel(words, channel, out);
      expect(Array.from(out, (v) => v >>> 0)).toEqual(values);
      expect(channel.endBit - end).toBeLessThan(32); // only the zero padding is left
    }
  });
});

/** Three channels back to back in one padded word array, as in a positions section. */
function packChannels(lists, chooseKs = []) {
  const writer = new BitWriter();
  const channels = lists.map((values, c) => {
    const bytes = encodeRiceChannel(values, { chooseK: chooseKs[c] });
    const startBit = writer.bitLength + 32;
    for (const byte of bytes) writer.write(byte, 8);
    return { startBit, endBit: writer.bitLength, count: values.length };
  });
  const used = Math.ceil(writer.bitLength / 32);
  const words = new Uint32Array(used + RICE_OVERREAD_WORDS);
  words.set(writer.words.subarray(0, used));
  return { words, channels };
}

describe('readRiceChannels3', () => {
  it('equals three single-channel reads, with escapes in one channel only', () => {
    const random = makeRandom(12);
    for (let trial = 0; trial < 50; trial++) {
      const count = random.int(400);
      const lists = [0, 1, 2].map((c) => (c === trial % 3 ? randomValues(random, count)
        : Array.from({ length: count }, () => zigzag(random.int(16) - 8))));
      const { words, channels } = packChannels(lists);
      const outs = [0, 1, 2].map(() => new Int32Array(count));
      readRiceChannels3(words, ...channels, ...outs);
      outs.forEach((out, c) => expect(Array.from(out, (v) => v >>> 0)).toEqual(lists[c]));
      const single = new Int32Array(count);
      channels.forEach((channel, c) => {
        readRiceChannel(words, channel, single);
        expect(single).toEqual(outs[c]);
      });
    }
  });

  it('rejects a bad k or a short stream in any of the three channels', () => {
    const values = Array.from({ length: 70 }, (_, i) => i % 7);
    const lists = [values, values, values];
    const outs = [0, 1, 2].map(() => new Int32Array(70));
    for (let bad = 0; bad < 3; bad++) {
      const chooseKs = [];
      chooseKs[bad] = (block, best) => (block === 1 ? 20 : best);
      const withBadK = packChannels(lists, chooseKs);
      expectCorrupt(() => readRiceChannels3(withBadK.words, ...withBadK.channels, ...outs), /k = 20 /);
      const { words, channels } = packChannels(lists);
      channels[bad] = { ...channels[bad], endBit: channels[bad].endBit - 64 };
      expectCorrupt(() => readRiceChannels3(words, ...channels, ...outs), /runs out of bits/);
    }
  });
});
