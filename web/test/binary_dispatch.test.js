// Binary messages by magic: frames to the receiver, a census decoded and emitted by the session, unknown magics and short buffers dropped and counted.
import { describe, it, expect } from 'vitest';
import { BinaryDispatch, MAGIC, decodeCensus } from '../src/net/binary_dispatch.js';
import { Session } from '../src/net/session.js';
import { Emitter } from '../src/util/emitter.js';

function withMagic(magic, bytes = 16) {
  const buffer = new ArrayBuffer(bytes);
  new Uint8Array(buffer).set([...magic].map((c) => c.charCodeAt(0)));
  return buffer;
}

/** A census as server/host/census.c writes it: two fluids. */
function census({ world = 1, fluids = [{ count: 10, centre: [1, 2, 3], lo: [0, 0, 0], hi: [2, 4, 6] }, { count: 5, centre: [0.5, 0.25, 0], lo: [0, 0, 0], hi: [1, 0.5, 0] }] } = {}) {
  const buffer = withMagic('FCCS', 32 + 40 * fluids.length);
  const v = new DataView(buffer);
  v.setUint8(4, 1);
  v.setUint8(5, 3);
  v.setUint16(6, fluids.length, true);
  v.setUint32(8, world, true);
  v.setUint32(12, 2, true);
  v.setUint32(16, 77, true);
  v.setUint32(20, fluids.reduce((n, f) => n + f.count, 0), true);
  v.setFloat64(24, 1.25, true);
  fluids.forEach((f, i) => {
    const at = 32 + 40 * i;
    v.setUint32(at, f.count, true);
    [f.centre, f.lo, f.hi].forEach((vec, k) => vec.forEach((x, a) => v.setFloat32(at + 4 + 12 * k + 4 * a, x, true)));
  });
  return buffer;
}

describe('BinaryDispatch', () => {
  it('hands each message to the handler of its magic and drops the others', () => {
    const got = [];
    const d = new BinaryDispatch().on(MAGIC.particles, (b) => got.push(['frame', b.byteLength])).on(MAGIC.census, (b) => got.push(['census', b.byteLength]));
    d.dispatch(withMagic('FCPF', 20));
    d.dispatch(withMagic('FCCS', 72));
    expect(d.dispatch(withMagic('FCMF', 30))).toBe(false); // reserved for meshes: nobody handles it yet
    expect(d.dispatch(new ArrayBuffer(3))).toBe(false);
    expect(got).toEqual([['frame', 20], ['census', 72]]);
    expect(d.ignored).toBe(2);
  });

  it('refuses a magic that is not four characters', () => {
    expect(() => new BinaryDispatch().on('FCP', () => {})).toThrow(/four characters/);
  });
});

describe('decodeCensus', () => {
  it('reads every field as the server writes it', () => {
    const c = decodeCensus(census());
    expect(c).toMatchObject({ version: 1, dimensions: 3, world: 1, epoch: 2, sequence: 77, particles: 15, time: 1.25 });
    expect(c.fluids).toEqual([
      { count: 10, centre: [1, 2, 3], lo: [0, 0, 0], hi: [2, 4, 6] },
      { count: 5, centre: [0.5, 0.25, 0], lo: [0, 0, 0], hi: [1, 0.5, 0] },
    ]);
  });

  it('is null for a cut message, another version or another magic', () => {
    expect(decodeCensus(census().slice(0, 50))).toBeNull();
    const other = census();
    new DataView(other).setUint8(4, 2);
    expect(decodeCensus(other)).toBeNull();
    expect(decodeCensus(withMagic('FCPF', 72))).toBeNull();
  });
});

describe('Session binary messages', () => {
  it('sends frames to the receiver and emits the census of its own world only', () => {
    const socket = new Emitter();
    socket.state = 'closed';
    socket.send = () => true;
    const session = new Session({ socket, products: ['particles', 'census'] });
    const frames = [];
    session.receiver = { receive: (b) => frames.push(b.byteLength), expect() {}, reset() {} };
    session.world = 1;
    const seen = [];
    session.on('census', (c) => seen.push(c.sequence));
    socket.emit('binary', withMagic('FCPF', 40));
    socket.emit('binary', census({ world: 1 }));
    socket.emit('binary', census({ world: 2 }));
    socket.emit('binary', withMagic('ABCD'));
    expect(frames).toEqual([40]);
    expect(seen).toEqual([77]);
    expect(session.binary.ignored).toBe(1);
  });
});
