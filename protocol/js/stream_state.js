// The per-stream state of PROTOCOL.md 4.3: ids, positions, velocities and attributes of one frame.
import { ATTRIBUTE_COUNT, FIRST_ATTRIBUTE_SECTION } from './frame_format.js';

/** Grows typed arrays by at least this factor so that slow growth does not reallocate every frame. */
const GROWTH = 1.25;

export class StreamState {
  constructor() {
    this.valid = false;
    this.capacity = 0;
    this.ids = new Uint32Array(0);
    /** q << (16 - bits), interleaved x, y, z. */
    this.positions = new Uint16Array(0);
    /** v = q - q_prev, interleaved x, y, z. */
    this.velocities = new Int32Array(0);
    /** Per attribute index (section type - 16): values, or null when the frame lacks it. */
    this.attributeValues = new Array(ATTRIBUTE_COUNT).fill(null);
    this.attributePresent = new Array(ATTRIBUTE_COUNT).fill(false);
    this.attributeLo = new Array(ATTRIBUTE_COUNT).fill(0);
    this.attributeHi = new Array(ATTRIBUTE_COUNT).fill(0);
    this.kind = 'key';
    this.world = 0;
    this.epoch = 0;
    this.bits = 0;
    this.tier = 0;
    this.sequence = 0;
    this.reference = 0;
    this.time = 0;
    this.count = 0;
    this.lo = [0, 0, 0];
    this.hi = [0, 0, 0];
  }

  /** Makes room for `count` particles; keeps no content. `limit` caps the growth. */
  reserve(count, limit) {
    if (count <= this.capacity) return;
    const capacity = Math.min(limit, Math.max(count, Math.ceil(this.capacity * GROWTH)));
    this.capacity = capacity;
    this.ids = new Uint32Array(capacity);
    this.positions = new Uint16Array(3 * capacity);
    this.velocities = new Int32Array(3 * capacity);
    for (let a = 0; a < ATTRIBUTE_COUNT; a++) {
      if (this.attributeValues[a]) this.attributeValues[a] = new Uint8Array(capacity);
    }
  }

  /** The values array of attribute `a`, allocated on first use at the current capacity. */
  attributeBuffer(a) {
    if (!this.attributeValues[a]) this.attributeValues[a] = new Uint8Array(this.capacity);
    return this.attributeValues[a];
  }

  /** Copies the stream fields (not the particles) of a checked frame layout. */
  setStreamFields(layout, kind) {
    this.kind = kind;
    this.world = layout.world;
    this.epoch = layout.epoch;
    this.bits = layout.bits;
    this.tier = layout.tier;
    this.sequence = layout.sequence;
    this.reference = layout.reference;
    this.time = layout.time;
    this.count = layout.count;
    this.lo = layout.lo.slice();
    this.hi = layout.hi.slice();
  }
}

/** Marks which attributes a frame carries and records their ranges (PROTOCOL.md 4.6). */
export function setAttributePresence(state, sections) {
  for (let a = 0; a < ATTRIBUTE_COUNT; a++) {
    const section = sections[FIRST_ATTRIBUTE_SECTION + a];
    state.attributePresent[a] = Boolean(section);
    state.attributeLo[a] = section ? section.lo : 0;
    state.attributeHi[a] = section ? section.hi : 0;
  }
}
