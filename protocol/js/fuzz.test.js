// Randomized hostile input (seeded): random bytes and mutated valid frames must decode or throw DecodeError.
import { describe, it, expect, beforeAll } from 'vitest';
import { FrameDecoder, DecodeError } from './frame_decoder.js';
import { encodedStream } from './test_support/stream_fixtures.js';
import { makeRandom } from './test_support/prng.js';

const CASES_PER_TEST = 3000;
const MAX_MS_PER_DECODE = 200;

let streams;
beforeAll(() => {
  streams = [
    encodedStream({ seed: 21, count: 150, frames: 4, births: 3, deaths: 3, bits: 12 }),
    encodedStream({ seed: 22, count: 90, frames: 4, births: 0, deaths: 0, bits: 16, attributes: ['density'] }),
  ];
});

/** Fingerprint of the held state, to check that a rejected frame changed nothing. */
function fingerprint(decoder) {
  const h = decoder.held;
  let sum = 0;
  const mix = (v) => { sum = (Math.imul(sum, 31) + v) | 0; };
  for (let i = 0; i < h.count; i++) mix(h.ids[i]);
  for (let i = 0; i < 3 * h.count; i++) mix(h.positions[i]), mix(h.velocities[i]);
  h.attributeValues.forEach((values, a) => {
    if (h.attributePresent[a]) for (let i = 0; i < h.count; i++) mix(values[i]);
  });
  return [h.valid, h.sequence, h.count, h.world, h.epoch, h.bits, sum].join(',');
}

/** Decodes; returns 'ok' or the DecodeError code; fails the test on any other throw, on a
 *  slow decode, on a changed state after an error, or on an inconsistent frame. */
function decodeChecked(decoder, bytes, label) {
  const before = fingerprint(decoder);
  const start = performance.now();
  let outcome;
  try {
    const frame = decoder.decode(bytes);
    expect(frame.ids.length, label).toBe(frame.count);
    expect(frame.positions.length, label).toBe(3 * frame.count);
    for (let i = 1; i < frame.count; i++) if (frame.ids[i] <= frame.ids[i - 1]) throw new Error(`${label}: ids not increasing`);
    outcome = 'ok';
  } catch (error) {
    if (!(error instanceof DecodeError)) throw new Error(`${label}: threw ${error?.name}: ${error?.message}`);
    expect(['corrupt', 'need_key'], label).toContain(error.code);
    expect(fingerprint(decoder), `${label}: state changed by a rejected frame`).toBe(before);
    outcome = error.code;
  }
  const elapsed = performance.now() - start;
  if (elapsed > MAX_MS_PER_DECODE) throw new Error(`${label}: decode took ${elapsed.toFixed(1)} ms`);
  return outcome;
}

const INTERESTING_WORDS = [0, 1, 3, 4, 0x7fffffff, 0x80000000, 0xfffffffc, 0xffffffff, 16777216, 16777217];

function mutate(random, bytes, donors) {
  const out = bytes.slice();
  const view = new DataView(out.buffer);
  const kind = random.int(6);
  if (kind === 0 || out.length < 8) { // bit flips
    const flips = 1 + random.int(8);
    for (let i = 0; i < flips && out.length; i++) out[random.int(out.length)] ^= 1 << random.int(8);
    return { bytes: out, how: `flip x${flips}` };
  }
  if (kind === 1) return { bytes: out.subarray(0, random.int(out.length)), how: 'truncate' };
  if (kind === 2) { // interesting u32 at an aligned offset, often in the header or table
    const limit = random.next() < 0.7 ? Math.min(out.length, 80 + 16 * 8) : out.length;
    const offset = 4 * random.int(limit >> 2);
    view.setUint32(offset, INTERESTING_WORDS[random.int(INTERESTING_WORDS.length)], true);
    return { bytes: out, how: `word at ${offset}` };
  }
  if (kind === 3) { // splice a chunk of another frame over this one
    const donor = donors[random.int(donors.length)];
    const length = 1 + random.int(Math.min(64, donor.length));
    const from = random.int(donor.length - length + 1);
    const to = random.int(Math.max(1, out.length - length + 1));
    out.set(donor.subarray(from, from + length).subarray(0, out.length - to), to);
    return { bytes: out, how: `splice ${length} at ${to}` };
  }
  if (kind === 4) { // delete or duplicate a chunk (shifts everything after it)
    const at = random.int(out.length);
    const length = 1 + random.int(32);
    const joined = random.next() < 0.5
      ? [...out.subarray(0, at), ...out.subarray(at + length)]
      : [...out.subarray(0, at + length), ...out.subarray(at)];
    return { bytes: Uint8Array.from(joined), how: `reshape ${length} at ${at}` };
  }
  for (let i = 0; i < 4; i++) out[random.int(out.length)] = random.int(256); // random bytes
  return { bytes: out, how: 'bytes' };
}

describe('randomized hostile input', () => {
  it('random byte strings, with and without a valid-looking header, never escape as other errors', () => {
    const random = makeRandom(1001);
    const outcomes = {};
    for (let c = 0; c < CASES_PER_TEST; c++) {
      const length = random.int(c % 2 ? 600 : 120);
      const bytes = Uint8Array.from({ length }, () => random.int(256));
      if (c % 3 !== 0 && length >= 80) {
        bytes.set([0x46, 0x43, 0x50, 0x46, 1, random.int(2), 10 + random.int(7), [1, 2, 4, 8][random.int(4)]]);
        new DataView(bytes.buffer).setUint16(76, 1 + random.int(16), true);
        new DataView(bytes.buffer).setUint16(78, 0, true);
      }
      const decoder = new FrameDecoder({ maxParticles: random.next() < 0.5 ? 1000 : undefined });
      const outcome = decodeChecked(decoder, bytes, `random case ${c}`);
      outcomes[outcome] = (outcomes[outcome] ?? 0) + 1;
    }
    expect(outcomes.corrupt).toBeGreaterThan(CASES_PER_TEST / 2);
  });

  it('mutated key frames and deltas are decoded or rejected, and a rejection keeps the state', () => {
    const random = makeRandom(2002);
    const outcomes = {};
    for (let c = 0; c < CASES_PER_TEST; c++) {
      const stream = streams[c % streams.length];
      const f = random.int(stream.frames.length);
      const decoder = new FrameDecoder();
      for (let g = 0; g < f; g++) decoder.decode(stream.frames[g]);
      const { bytes, how } = mutate(random, stream.frames[f], stream.frames);
      const outcome = decodeChecked(decoder, bytes, `mutation case ${c} (frame ${f}, ${how})`);
      outcomes[outcome] = (outcomes[outcome] ?? 0) + 1;
      if (outcome !== 'ok' && f + 1 < stream.frames.length) {
        expect(decodeChecked(decoder, stream.frames[f + 1], `frame after case ${c}`)).not.toBe('corrupt');
      }
    }
    expect(outcomes.corrupt).toBeGreaterThan(CASES_PER_TEST / 2);
  });

  it('a long run on one decoder: random frames of a stream interleaved with mutations', () => {
    const random = makeRandom(3003);
    const stream = streams[0];
    const decoder = new FrameDecoder();
    let decoded = 0;
    for (let c = 0; c < CASES_PER_TEST; c++) {
      const f = random.int(stream.frames.length);
      const bytes = random.next() < 0.5 ? stream.frames[f] : mutate(random, stream.frames[f], stream.frames).bytes;
      if (decodeChecked(decoder, bytes, `run case ${c}`) === 'ok') decoded++;
    }
    expect(decoded).toBeGreaterThan(0);
  });
});
