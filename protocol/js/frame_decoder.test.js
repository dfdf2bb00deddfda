// Round-trip tests of FrameDecoder against the test-support encoder: key and delta chains, births and deaths.
import { describe, it, expect } from 'vitest';
import { FrameDecoder, DecodeError, dequantize } from './frame_decoder.js';
import { encodedStream } from './test_support/stream_fixtures.js';
import { expectFrameMatchesSnapshot, snapshotOfFrame } from './test_support/frame_checks.js';
import { SYNTHETIC_ATTRIBUTE_RANGES } from './test_support/synthetic_particles.js';
import { StreamEncoder } from './test_support/stream_encoder.js';
import { catchError } from './test_support/errors.js';

function decodeAll(frames, decoder = new FrameDecoder()) {
  return frames.map((bytes) => snapshotOfFrame(decoder.decode(bytes)));
}

describe('FrameDecoder round trip', () => {
  it('reproduces every snapshot of a chain with births and deaths, at every bit depth', () => {
    for (let bits = 10; bits <= 16; bits++) {
      const stream = encodedStream({ seed: bits, bits, count: 400, frames: 8, births: 9, deaths: 7 });
      const decoded = decodeAll(stream.frames);
      decoded.forEach((frame, f) => {
        expect(frame.kind).toBe(f === 0 ? 'key' : 'delta');
        expect(frame.bits).toBe(bits);
        expect(frame.sequence).toBe(stream.snapshots[f].sequence);
        expect(frame.reference).toBe(f === 0 ? 0 : stream.snapshots[f - 1].sequence);
        expect(frame.time).toBe(stream.snapshots[f].time);
        expect(new Set(frame.ids).size).toBe(frame.count); // every particle exactly once
        expectFrameMatchesSnapshot(frame, stream.snapshots[f], SYNTHETIC_ATTRIBUTE_RANGES);
      });
    }
  });

  it('carries the stream fields, bounds and attribute ranges of the header', () => {
    const lo = [-2.5, 0, 10];
    const hi = [2.5, 3, 10.5];
    const stream = encodedStream({ lo, hi, tier: 4, world: 77, epoch: 9, frames: 3, attributes: ['speed', 'fluid'] });
    const [key, delta] = decodeAll(stream.frames);
    expect(key).toMatchObject({ world: 77, epoch: 9, tier: 4, sequence: 0, reference: 0, lo, hi });
    expect(delta).toMatchObject({ kind: 'delta', sequence: 4, reference: 0 });
    expect(Object.keys(delta.attributes)).toEqual(['speed', 'fluid']);
    expect(delta.attributes.speed).toMatchObject({ lo: 0, hi: 5 });
    expect(delta.attributes.fluid).toMatchObject({ lo: 0, hi: 255 });
    expectFrameMatchesSnapshot(delta, stream.snapshots[1]);
  });

  it('holds positions as q << (16 - bits) and dequantizes them with the unshifted q', () => {
    const stream = encodedStream({ bits: 12, frames: 1, count: 50 });
    const frame = new FrameDecoder().decode(stream.frames[0]);
    const q = stream.encoder.state.q;
    for (let i = 0; i < 3 * frame.count; i++) expect(frame.positions[i]).toBe(q[i] << 4);
    const step = 1 / 4095;
    expect(dequantize(frame, 3)).toEqual([0, 1, 2].map((a) => q[9 + a] * step));
  });

  it('clamps positions outside the bounds to the nearest face', () => {
    const stream = encodedStream({ outsideBounds: true, frames: 4, bits: 11 });
    decodeAll(stream.frames).forEach((frame, f) => expectFrameMatchesSnapshot(frame, stream.snapshots[f]));
  });

  it('handles frames that empty the world and refill it', () => {
    const encoder = new StreamEncoder({ bits: 14 });
    const point = (ids) => ({ sequence: 0, ids, positions: ids.flatMap((id) => [id / 100, 0.5, 0.25]) });
    const snapshots = [point([1, 2, 3]), point([]), point([]), point([0, 5, 4000000000])];
    snapshots.forEach((s, i) => { s.sequence = i; });
    const frames = snapshots.map((s, i) => (i === 0 ? encoder.encodeKey(s) : encoder.encodeDelta(s)));
    const decoded = decodeAll(frames);
    expect(decoded.map((f) => f.count)).toEqual([3, 0, 0, 3]);
    expect(Array.from(decoded[3].ids)).toEqual([0, 5, 4000000000]);
    expect(new FrameDecoder().decode(new StreamEncoder().encodeKey(point([]))).count).toBe(0);
  });

  it('continues a chain after a mid-stream key frame, and a joining client decodes from it', () => {
    const stream = encodedStream({ frames: 12, keyEvery: 5 });
    const kinds = decodeAll(stream.frames).map((f) => f.kind);
    expect(kinds).toEqual(['key', 'delta', 'delta', 'delta', 'delta', 'key', 'delta', 'delta', 'delta', 'delta', 'key', 'delta']);
    const joiner = new FrameDecoder();
    expect(() => joiner.decode(stream.frames[3])).toThrow(DecodeError);
    const late = decodeAll(stream.frames.slice(5), joiner);
    late.forEach((frame, f) => expectFrameMatchesSnapshot(frame, stream.snapshots[f + 5]));
  });

  it('drops an attribute that a delta omits, and then refuses a delta that carries it', () => {
    const encoder = new StreamEncoder({ attributeRanges: SYNTHETIC_ATTRIBUTE_RANGES });
    const stream = encodedStream({ frames: 3, attributes: ['speed', 'density'] });
    const [s0, s1, s2] = stream.snapshots;
    const decoder = new FrameDecoder();
    decoder.decode(encoder.encodeKey(s0));
    const withoutDensity = { ...s1, attributes: { speed: s1.attributes.speed } };
    expect(Object.keys(decoder.decode(encoder.encodeDelta(withoutDensity)).attributes)).toEqual(['speed']);
    // an encoder that still believes density is held:
    const stale = new StreamEncoder({ attributeRanges: SYNTHETIC_ATTRIBUTE_RANGES });
    stale.state = { ...encoder.state, attributes: { ...encoder.state.attributes, density: new Uint8Array(s1.ids.length) } };
    const error = catchError(() => decoder.decode(stale.encodeDelta(s2)));
    expect(error.code).toBe('need_key');
    expect(error.message).toMatch(/density/);
  });

  it('accepts an ArrayBuffer, a Uint8Array at an unaligned offset, and a DataView', () => {
    const stream = encodedStream({ frames: 2 });
    for (const wrap of [
      (b) => b.buffer.slice(b.byteOffset, b.byteOffset + b.length),
      (b) => { const big = new Uint8Array(b.length + 3); big.set(b, 1); return big.subarray(1, 1 + b.length); },
      (b) => new DataView(b.buffer, b.byteOffset, b.length),
    ]) {
      const decoder = new FrameDecoder();
      const decoded = stream.frames.map((b) => snapshotOfFrame(decoder.decode(wrap(b))));
      decoded.forEach((frame, f) => expectFrameMatchesSnapshot(frame, stream.snapshots[f]));
    }
    expect(() => new FrameDecoder().decode('FCPF')).toThrow(TypeError);
  });

  it('keeps a returned frame intact until the decode after the next one (double buffering)', () => {
    const stream = encodedStream({ frames: 4, births: 0, deaths: 0 });
    const decoder = new FrameDecoder();
    const first = decoder.decode(stream.frames[0]);
    const firstCopy = snapshotOfFrame(first);
    decoder.decode(stream.frames[1]);
    expect(first.positions).toEqual(firstCopy.positions);
    decoder.decode(stream.frames[2]);
    expect(first.positions).not.toEqual(firstCopy.positions); // reused, as documented
  });

  it('needs a key frame again after reset()', () => {
    const stream = encodedStream({ frames: 3 });
    const decoder = new FrameDecoder();
    decoder.decode(stream.frames[0]);
    decoder.decode(stream.frames[1]);
    expect(decoder.hasState).toBe(true);
    decoder.reset();
    expect(decoder.hasState).toBe(false);
    expect(catchError(() => decoder.decode(stream.frames[2])).code).toBe('need_key');
  });

  it('grows its buffers when the particle count grows', () => {
    const stream = encodedStream({ count: 50, frames: 10, births: 40, deaths: 0 });
    decodeAll(stream.frames).forEach((frame, f) => expectFrameMatchesSnapshot(frame, stream.snapshots[f]));
  });
});

describe('FrameDecoder options', () => {
  it('rejects a maxParticles that is not a u32', () => {
    expect(() => new FrameDecoder({ maxParticles: -1 })).toThrow(RangeError);
    expect(() => new FrameDecoder({ maxParticles: 1.5 })).toThrow(RangeError);
  });
});
