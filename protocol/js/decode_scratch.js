// Decoder-owned scratch buffers (raw channel values, died indices, born ids, merge map), reused between frames.

export class DecodeScratch {
  constructor() {
    this.capacity = 0;
    /** Raw channel values of the x, y, z channels (or of one channel, in `x`). */
    this.x = new Int32Array(0);
    this.y = new Int32Array(0);
    this.z = new Int32Array(0);
    /** Delta frames: indices into the reference's id list of the particles that died. */
    this.diedIndices = new Int32Array(0);
    /** Delta frames: ids of the particles born. */
    this.bornIds = new Uint32Array(0);
    /** Delta frames: for each particle of the new frame, its index in the reference (>= 0)
     *  or ~b for the b-th born particle. */
    this.source = new Int32Array(0);
    /** One value read outside the fast path of a fused decode. */
    this.oneValue = new Int32Array(1);
  }

  /** Makes room for channels of `count` values; `limit` caps the growth. */
  reserve(count, limit) {
    if (count <= this.capacity) return;
    const capacity = Math.min(limit, Math.max(count, Math.ceil(this.capacity * 1.25)));
    this.capacity = capacity;
    this.x = new Int32Array(capacity);
    this.y = new Int32Array(capacity);
    this.z = new Int32Array(capacity);
    this.diedIndices = new Int32Array(capacity);
    this.bornIds = new Uint32Array(capacity);
    this.source = new Int32Array(capacity);
  }
}
