// Moves decoded frames between the decode worker and the main thread: copies into pooled, transferable buffers.

/**
 * Buffers the main thread has handed back after uploading a frame, reused for later frames so that
 * a running stream allocates nothing. take(bytes) returns one of at least `bytes` bytes.
 */
export class BufferPool {
  constructor({ keep = 8 } = {}) {
    this.keep = keep;
    this.free = [];
  }

  take(bytes) {
    const index = this.free.findIndex((buffer) => buffer.byteLength >= bytes);
    if (index >= 0) return this.free.splice(index, 1)[0];
    return new ArrayBuffer(bytes);
  }

  give(buffers) {
    for (const buffer of buffers) {
      if (buffer instanceof ArrayBuffer && buffer.byteLength > 0 && this.free.length < this.keep) this.free.push(buffer);
    }
  }
}

function copyInto(pool, source) {
  const Type = source.constructor;
  const target = new Type(pool.take(source.byteLength), 0, source.length);
  target.set(source);
  return target;
}

/**
 * A decoded frame (FrameDecoder.decode's views into the decoder's buffers) as a message that owns
 * its arrays: positions and attribute values copied into pooled buffers. Ids and velocities stay in
 * the worker (the viewer draws positions and one attribute). Returns {frame, transfer}.
 */
export function packFrame(frame, pool) {
  const positions = copyInto(pool, frame.positions);
  const attributes = {};
  const transfer = [positions.buffer];
  for (const [name, section] of Object.entries(frame.attributes)) {
    const values = copyInto(pool, section.values);
    attributes[name] = { values, lo: section.lo, hi: section.hi, bytes: section.bytes }; // bytes: util/byte_range.js
    transfer.push(values.buffer);
  }
  const { ids, ...fields } = frame; // eslint-disable-line no-unused-vars
  return { frame: { ...fields, positions, attributes }, transfer };
}

/** The buffers of a packed frame, to hand back to the worker's pool once it is no longer shown. */
export function frameBuffers(frame) {
  if (!frame || !frame.positions) return [];
  return [frame.positions.buffer, ...Object.values(frame.attributes).map((section) => section.values.buffer)]
    .filter((buffer) => buffer instanceof ArrayBuffer && buffer.byteLength > 0);
}
