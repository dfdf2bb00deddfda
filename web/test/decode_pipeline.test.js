// Decoding off the main thread: DecodeService replies, pooled transferable frames, and FrameReceiver with an asynchronous (worker-like) decoding.
import { describe, it, expect } from 'vitest';
import { DecodeService } from '../src/net/decode_service.js';
import { BufferPool, packFrame, frameBuffers } from '../src/net/frame_transfer.js';
import { FrameReceiver } from '../src/net/frame_receiver.js';
import { FrameTimings } from '../src/net/frame_timings.js';
import { FrameDecoder } from '../../protocol/js/frame_decoder.js';
import { encodedStream } from '../../protocol/js/test_support/stream_fixtures.js';

const toBuffer = (bytes) => bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength);

/** Like WorkerDecoding, but the "worker" (a DecodeService) runs only when flush() is called. */
class QueuedDecoding {
  constructor() {
    this.service = new DecodeService({ now: () => 0 });
    this.queue = [];
    this.recycled = [];
    this.onReply = null;
    this.onBroken = null;
    this.kind = 'worker';
  }

  post(message) {
    this.queue.push(message);
  }

  recycle(frame) {
    const buffers = frameBuffers(frame);
    this.recycled.push(...buffers);
    this.queue.push({ type: 'recycle', buffers });
  }

  flush() {
    for (const message of this.queue.splice(0)) {
      const result = this.service.handle(message);
      if (result) this.onReply(structuredClone(result.reply));
    }
  }
}

function harness(decoding) {
  const log = { frames: [], needKey: [], corrupt: [] };
  let clock = 0;
  const timings = new FrameTimings({ performance: null });
  const receiver = new FrameReceiver({
    onFrame: (frame) => { clock += 3; log.frames.push(frame); },
    onNeedKey: (error) => log.needKey.push(error),
    onCorrupt: (error) => log.corrupt.push(error),
    timings,
    decoding,
    now: () => { clock += 1; return clock; },
  });
  return { receiver, log, timings };
}

describe('packFrame and BufferPool', () => {
  it('copies positions and attributes into owned buffers and leaves ids in the worker', () => {
    const stream = encodedStream({ world: 3, frames: 1, count: 100 });
    const decoded = new FrameDecoder().decode(toBuffer(stream.frames[0]));
    const pool = new BufferPool();
    const { frame, transfer } = packFrame(decoded, pool);
    expect(frame.ids).toBeUndefined();
    expect(Array.from(frame.positions)).toEqual(Array.from(decoded.positions));
    expect(frame.positions.buffer).not.toBe(decoded.positions.buffer);
    expect(Object.keys(frame.attributes).sort()).toEqual(Object.keys(decoded.attributes).sort());
    for (const [name, section] of Object.entries(frame.attributes)) {
      expect(Array.from(section.values)).toEqual(Array.from(decoded.attributes[name].values));
      expect(section.lo).toBe(decoded.attributes[name].lo);
    }
    expect(transfer).toHaveLength(1 + Object.keys(frame.attributes).length);
    expect(frameBuffers(frame)).toEqual(transfer);
  });

  it('reuses a returned buffer that is large enough and allocates otherwise', () => {
    const pool = new BufferPool({ keep: 2 });
    const big = new ArrayBuffer(1000);
    pool.give([new ArrayBuffer(10), big, new ArrayBuffer(2000)]); // the third is over the limit
    expect(pool.free).toHaveLength(2);
    expect(pool.take(500)).toBe(big);
    const fresh = pool.take(500);
    expect(fresh.byteLength).toBe(500);
    expect(pool.free).toHaveLength(1);
  });
});

describe('DecodeService', () => {
  it('answers frames with their generation, failures with the decoder\'s code', () => {
    const stream = encodedStream({ world: 3, frames: 3 });
    const service = new DecodeService({ now: () => 5 });
    const delta = service.handle({ type: 'frame', buffer: toBuffer(stream.frames[1]), generation: 1 });
    expect(delta.reply).toMatchObject({ type: 'failed', generation: 1, error: { code: 'need_key' } });
    const key = service.handle({ type: 'frame', buffer: toBuffer(stream.frames[0]), generation: 1 });
    expect(key.reply).toMatchObject({ type: 'frame', generation: 1, decodeMs: 0, frame: { kind: 'key', sequence: stream.snapshots[0].sequence } });
    const bad = new Uint8Array(stream.frames[1]);
    bad[72] ^= 0xff; // checksum
    expect(service.handle({ type: 'frame', buffer: toBuffer(bad), generation: 1 }).reply.error.code).toBe('corrupt');
    expect(service.handle({ type: 'reset', generation: 2 })).toBeNull();
    expect(service.handle({ type: 'frame', buffer: toBuffer(stream.frames[1]), generation: 2 }).reply.error.code).toBe('need_key');
  });
});

describe('FrameReceiver with asynchronous decoding', () => {
  it('shows frames in order once decoded and times only the main thread\'s part', () => {
    const stream = encodedStream({ world: 3, frames: 4, count: 200 });
    const decoding = new QueuedDecoding();
    const { receiver, log, timings } = harness(decoding);
    receiver.expect(3);
    for (const frame of stream.frames) expect(receiver.receive(toBuffer(frame))).toBe(true);
    expect(log.frames).toHaveLength(0); // nothing decoded on this thread
    decoding.flush();
    expect(log.frames.map((f) => f.sequence)).toEqual(stream.snapshots.map((s) => s.sequence));
    expect(receiver.frames).toBe(4);
    // hand-over (1 tick) + reply handler (start tick, 3 in onFrame, end tick)
    expect(timings.list()).toEqual([5, 5, 5, 5]);
    expect(timings.decodeList()).toEqual([0, 0, 0, 0]);
  });

  it('drops frames decoded for a world it left and recycles their buffers', () => {
    const stream = encodedStream({ world: 3, frames: 2 });
    const decoding = new QueuedDecoding();
    const { receiver, log } = harness(decoding);
    receiver.expect(3);
    receiver.receive(toBuffer(stream.frames[0]));
    receiver.expect(3); // e.g. a new subscription: the in-flight frame is stale
    decoding.flush();
    expect(log.frames).toHaveLength(0);
    expect(decoding.recycled.length).toBeGreaterThan(0);
    receiver.receive(toBuffer(stream.frames[1])); // a delta after the reset needs a key frame
    decoding.flush();
    expect(log.needKey).toHaveLength(1);
  });

  it('falls back to decoding inline when the worker breaks, and asks for a key frame', () => {
    const stream = encodedStream({ world: 3, frames: 2 });
    const decoding = new QueuedDecoding();
    const { receiver, log } = harness(decoding);
    receiver.expect(3);
    receiver.receive(toBuffer(stream.frames[0]));
    decoding.onBroken('decode worker failed: test');
    expect(receiver.decoding.kind).toBe('inline');
    expect(log.needKey[0].message).toMatch(/decode worker failed/);
    expect(receiver.receive(toBuffer(stream.frames[0]))).toBe(true);
    expect(receiver.receive(toBuffer(stream.frames[1]))).toBe(true);
    expect(log.frames.map((f) => f.sequence)).toEqual([stream.snapshots[0].sequence, stream.snapshots[1].sequence]);
  });
});
