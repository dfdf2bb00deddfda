// Attribute byte ranges: computed where frames are decoded (the decode worker) and carried to the main thread for the colour scale.
import { describe, it, expect } from 'vitest';
import { addByteRanges, byteRange } from '../src/util/byte_range.js';
import { DecodeService } from '../src/net/decode_service.js';
import { FrameDecoder } from '../../protocol/js/frame_decoder.js';
import { encodedStream } from '../../protocol/js/test_support/stream_fixtures.js';

const toBuffer = (bytes) => bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength);

describe('byteRange', () => {
  it('is the smallest and largest of the first count bytes, null for none', () => {
    expect(byteRange(Uint8Array.from([7, 3, 200, 9]))).toEqual({ min: 3, max: 200 });
    expect(byteRange(Uint8Array.from([7, 3, 200, 9]), 2)).toEqual({ min: 3, max: 7 });
    expect(byteRange(Uint8Array.from([255, 0]))).toEqual({ min: 0, max: 255 });
    expect(byteRange(new Uint8Array(0))).toBeNull();
  });

  it('addByteRanges annotates every attribute section of a frame', () => {
    const frame = { count: 2, attributes: { speed: { values: Uint8Array.from([4, 9, 100]) }, density: { values: Uint8Array.from([1, 1]) } } };
    addByteRanges(frame);
    expect(frame.attributes.speed.bytes).toEqual({ min: 4, max: 9 });
    expect(frame.attributes.density.bytes).toEqual({ min: 1, max: 1 });
  });
});

describe('DecodeService', () => {
  it('sends each attribute section with its byte range', () => {
    const stream = encodedStream({ world: 3, frames: 2, count: 300 });
    const service = new DecodeService({ now: () => 0 });
    const reference = new FrameDecoder();
    for (const bytes of stream.frames) {
      const { reply } = service.handle({ type: 'frame', buffer: toBuffer(bytes), generation: 1 });
      const decoded = reference.decode(toBuffer(bytes));
      expect(reply.type).toBe('frame');
      const names = Object.keys(decoded.attributes);
      expect(names.length).toBeGreaterThan(0);
      for (const name of names) {
        expect(reply.frame.attributes[name].bytes).toEqual(byteRange(decoded.attributes[name].values, decoded.count));
        expect(structuredClone(reply.frame.attributes[name]).bytes).toEqual(reply.frame.attributes[name].bytes);
      }
    }
  });
});
