// Frames of the subscribed world are decoded and timed; other worlds, other magics, need_key and corrupt frames are handled.
import { describe, it, expect } from 'vitest';
import { FrameReceiver } from '../src/net/frame_receiver.js';
import { FrameTimings, MEASURE_NAME } from '../src/net/frame_timings.js';
import { encodedStream } from '../../protocol/js/test_support/stream_fixtures.js';

const toBuffer = (bytes) => bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength);

function harness() {
  const log = { frames: [], needKey: 0, corrupt: 0 };
  let clock = 0;
  const timings = new FrameTimings({ performance: null });
  const receiver = new FrameReceiver({
    onFrame: (frame) => { clock += 2; log.frames.push(frame.sequence); },
    onNeedKey: () => { log.needKey += 1; },
    onCorrupt: () => { log.corrupt += 1; },
    timings,
    now: () => clock,
  });
  return { receiver, log, timings };
}

describe('FrameReceiver', () => {
  it('decodes the chain of the expected world and times each frame', () => {
    const stream = encodedStream({ world: 3, frames: 4, count: 200 });
    const { receiver, log, timings } = harness();
    receiver.expect(3);
    for (const frame of stream.frames) expect(receiver.receive(toBuffer(frame))).toBe(true);
    expect(log.frames).toEqual(stream.snapshots.map((s) => s.sequence));
    expect(receiver.frames).toBe(4);
    expect(timings.list()).toEqual([2, 2, 2, 2]);
  });

  it('ignores frames of another world and messages with another magic', () => {
    const stream = encodedStream({ world: 3, frames: 2 });
    const { receiver, log } = harness();
    receiver.expect(4);
    expect(receiver.receive(toBuffer(stream.frames[0]))).toBe(false);
    const mesh = new Uint8Array(stream.frames[0]);
    mesh.set([0x46, 0x43, 0x4d, 0x46]); // 'FCMF'
    receiver.expect(3);
    expect(receiver.receive(toBuffer(mesh))).toBe(false);
    expect(receiver.receive(new ArrayBuffer(4))).toBe(false);
    expect(log).toMatchObject({ frames: [], needKey: 0, corrupt: 0 });
  });

  it('reports need_key for a delta without its key frame, then recovers on the next key frame', () => {
    const stream = encodedStream({ world: 3, frames: 6, keyEvery: 3 });
    const { receiver, log } = harness();
    receiver.expect(3);
    expect(receiver.receive(toBuffer(stream.frames[1]))).toBe(false);
    expect(log.needKey).toBe(1);
    expect(receiver.receive(toBuffer(stream.frames[3]))).toBe(true); // key frame
    expect(receiver.receive(toBuffer(stream.frames[4]))).toBe(true);
    expect(log.frames).toEqual([stream.snapshots[3].sequence, stream.snapshots[4].sequence]);
  });

  it('reports a corrupt frame and keeps the last good one', () => {
    const stream = encodedStream({ world: 3, frames: 3 });
    const { receiver, log } = harness();
    receiver.expect(3);
    receiver.receive(toBuffer(stream.frames[0]));
    const bad = new Uint8Array(stream.frames[1]);
    bad[72] ^= 0xff; // checksum
    expect(receiver.receive(toBuffer(bad))).toBe(false);
    expect(log.corrupt).toBe(1);
    expect(receiver.receive(toBuffer(stream.frames[1]))).toBe(true); // the held state is intact
  });

  it('starts again from a key frame after expect()', () => {
    const stream = encodedStream({ world: 3, frames: 3 });
    const { receiver, log } = harness();
    receiver.expect(3);
    receiver.receive(toBuffer(stream.frames[0]));
    receiver.expect(3);
    expect(receiver.receive(toBuffer(stream.frames[1]))).toBe(false);
    expect(log.needKey).toBe(1);
  });
});

describe('FrameTimings', () => {
  it('records performance measures named fluidcast-frame and bounds what it keeps', () => {
    const measures = [];
    let cleared = 0;
    const perf = { measure: (name, o) => measures.push([name, o.start, o.end]), clearMeasures: () => { cleared += 1; } };
    const timings = new FrameTimings({ keep: 3, performance: perf });
    for (let i = 0; i < 7; i++) timings.record(10 * i, 10 * i + i);
    expect(timings.list()).toEqual([4, 5, 6]);
    expect(measures[2]).toEqual([MEASURE_NAME, 20, 22]);
    expect(measures.length).toBe(7);
    expect(cleared).toBe(2);
  });
});
