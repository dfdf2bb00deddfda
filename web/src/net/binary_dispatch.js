// Binary messages by their magic (PROTOCOL.md 6): particle frames to the frame receiver, each other product to its handler, unknown magics counted and dropped.

/** The four-byte magics of the products (server/host/products.c names the same). */
export const MAGIC = Object.freeze({ particles: 'FCPF', census: 'FCCS', mesh: 'FCMF' });

function magicOf(buffer) {
  const b = new Uint8Array(buffer, 0, 4);
  return String.fromCharCode(b[0], b[1], b[2], b[3]);
}

export class BinaryDispatch {
  constructor() {
    this.handlers = new Map();
    this.ignored = 0; // messages too short for a magic, or with a magic nobody handles
  }

  /** handler(buffer) gets every message that starts with `magic`; returns what it returns. */
  on(magic, handler) {
    if (typeof magic !== 'string' || magic.length !== 4) throw new TypeError(`a magic is four characters, got ${magic}`);
    this.handlers.set(magic, handler);
    return this;
  }

  dispatch(buffer) {
    if (!(buffer instanceof ArrayBuffer) || buffer.byteLength < 4) {
      this.ignored += 1;
      return false;
    }
    const handler = this.handlers.get(magicOf(buffer));
    if (!handler) {
      this.ignored += 1;
      return false;
    }
    return handler(buffer);
  }
}

const CENSUS_HEADER = 32;
const CENSUS_FLUID = 40;

/**
 * A census message (PROTOCOL.md 6.1): {version, dimensions, world, epoch, sequence, particles, time,
 * fluids: [{count, centre, lo, hi}]}, or null when it is not a whole census of version 1.
 */
export function decodeCensus(buffer) {
  if (!(buffer instanceof ArrayBuffer) || buffer.byteLength < CENSUS_HEADER || magicOf(buffer) !== MAGIC.census) return null;
  const v = new DataView(buffer);
  const version = v.getUint8(4);
  const fluidCount = v.getUint16(6, true);
  if (version !== 1 || fluidCount < 1 || buffer.byteLength !== CENSUS_HEADER + CENSUS_FLUID * fluidCount) return null;
  const vec = (at) => [v.getFloat32(at, true), v.getFloat32(at + 4, true), v.getFloat32(at + 8, true)];
  const fluids = [];
  for (let f = 0; f < fluidCount; f++) {
    const at = CENSUS_HEADER + CENSUS_FLUID * f;
    fluids.push({ count: v.getUint32(at, true), centre: vec(at + 4), lo: vec(at + 16), hi: vec(at + 28) });
  }
  return {
    version,
    dimensions: v.getUint8(5),
    world: v.getUint32(8, true),
    epoch: v.getUint32(12, true),
    sequence: v.getUint32(16, true),
    particles: v.getUint32(20, true),
    time: v.getFloat64(24, true),
    fluids,
  };
}
