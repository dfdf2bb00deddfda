// Decoder of fluidcast binary particle frames (PROTOCOL.md section 4) for the browser viewer and Node.
import { DecodeError, corrupt, needKey } from './decode_error.js';
import {
  DEFAULT_MAX_PARTICLES, KIND_KEY, FIRST_ATTRIBUTE_SECTION, ATTRIBUTE_COUNT, ATTRIBUTE_NAMES,
} from './frame_format.js';
import { readFrameLayout } from './frame_layout.js';
import { RICE_OVERREAD_WORDS } from './rice_reader.js';
import { StreamState } from './stream_state.js';
import { DecodeScratch } from './decode_scratch.js';
import { decodeKeyFrame } from './key_frame.js';
import { decodeDeltaFrame } from './delta_frame.js';

export { DecodeError };

/**
 * Follows one stream (PROTOCOL.md 4.1): decode() each binary message in order. A key frame
 * replaces the held state, a delta frame applies to it. On any error the held state is unchanged.
 *
 * The typed arrays of a returned frame are views of the decoder's buffers (double buffered): they
 * stay valid until the call to decode() after the next one. Copy them to keep them longer.
 */
export class FrameDecoder {
  constructor({ maxParticles = DEFAULT_MAX_PARTICLES } = {}) {
    if (!Number.isInteger(maxParticles) || maxParticles < 0 || maxParticles > 0xffffffff) {
      throw new RangeError('maxParticles must be an integer in [0, 2^32 - 1]');
    }
    this.maxParticles = maxParticles;
    this.held = new StreamState();
    this.spare = new StreamState();
    this.scratch = new DecodeScratch();
    this.messageBuffer = new ArrayBuffer(0);
    this.messageWords = new Uint32Array(0);
    this.messageView = new DataView(this.messageBuffer);
  }

  /** True when a key frame has been decoded since construction or reset(). */
  get hasState() {
    return this.held.valid;
  }

  /** Forgets the held state: the next frame must be a key frame. */
  reset() {
    this.held.valid = false;
  }

  /** Decodes one message (ArrayBuffer or Uint8Array); returns the frame or throws DecodeError. */
  decode(message) {
    const length = this.copyMessage(message);
    const layout = readFrameLayout(this.messageView, length, this.maxParticles);
    const isKey = layout.kindCode === KIND_KEY;
    if (!isKey) checkDeltaApplies(layout, this.held);
    const next = this.spare;
    next.valid = false;
    next.reserve(layout.count, this.maxParticles);
    this.scratch.reserve(Math.max(layout.count, layout.died), this.maxParticles);
    const checksum = isKey
      ? decodeKeyFrame(this.messageWords, layout, next, this.scratch)
      : decodeDeltaFrame(this.messageWords, layout, this.held, next, this.scratch);
    if (checksum !== layout.checksum) {
      throw corrupt(`checksum ${checksum} differs from the header's ${layout.checksum}`);
    }
    next.setStreamFields(layout, isKey ? 'key' : 'delta');
    next.valid = true;
    this.spare = this.held;
    this.held = next;
    return frameView(next, checksum);
  }

  /** Copies the message into an aligned buffer padded for the Rice reader; returns its length. */
  copyMessage(message) {
    let bytes;
    if (message instanceof Uint8Array) bytes = message;
    else if (message instanceof ArrayBuffer) bytes = new Uint8Array(message);
    else if (ArrayBuffer.isView(message)) bytes = new Uint8Array(message.buffer, message.byteOffset, message.byteLength);
    else throw new TypeError('decode() takes an ArrayBuffer or a Uint8Array');
    const length = bytes.length;
    const needed = (Math.ceil(length / 4) + RICE_OVERREAD_WORDS) * 4;
    if (needed > this.messageBuffer.byteLength) {
      this.messageBuffer = new ArrayBuffer(Math.ceil(needed * 1.25 / 4) * 4);
      this.messageWords = new Uint32Array(this.messageBuffer);
      this.messageView = new DataView(this.messageBuffer);
    }
    const target = new Uint8Array(this.messageBuffer, 0, needed);
    target.set(bytes);
    target.fill(0, length);
    return length;
  }
}

/** PROTOCOL.md 4.7: a delta applies only to the frame it references, in the same stream. */
function checkDeltaApplies(layout, held) {
  if (!held.valid) throw needKey('no key frame held');
  if (layout.world !== held.world) throw needKey(`world ${layout.world}, held ${held.world}`);
  if (layout.epoch !== held.epoch) throw needKey(`epoch ${layout.epoch}, held ${held.epoch}`);
  if (layout.bits !== held.bits) throw needKey(`bits ${layout.bits}, held ${held.bits}`);
  if (layout.tier !== held.tier) throw needKey(`tier ${layout.tier}, held ${held.tier}`);
  for (let axis = 0; axis < 3; axis++) {
    if (layout.lo[axis] !== held.lo[axis] || layout.hi[axis] !== held.hi[axis]) {
      throw needKey('bounds differ from the held frame');
    }
  }
  if (layout.reference !== held.sequence) throw needKey(`reference ${layout.reference}, held ${held.sequence}`);
  if (layout.refCount !== held.count) throw needKey(`ref_count ${layout.refCount}, held ${held.count}`);
  for (let a = 0; a < ATTRIBUTE_COUNT; a++) {
    const section = layout.sections[FIRST_ATTRIBUTE_SECTION + a];
    if (!section) continue;
    if (!held.attributePresent[a]) throw needKey(`attribute ${ATTRIBUTE_NAMES[a]} not held`);
    if (section.lo !== held.attributeLo[a] || section.hi !== held.attributeHi[a]) {
      throw needKey(`attribute ${ATTRIBUTE_NAMES[a]} range differs from the held one`);
    }
  }
}

function frameView(state, checksum) {
  const count = state.count;
  const attributes = {};
  for (let a = 0; a < ATTRIBUTE_COUNT; a++) {
    if (!state.attributePresent[a]) continue;
    attributes[ATTRIBUTE_NAMES[a]] = {
      values: state.attributeValues[a].subarray(0, count),
      lo: state.attributeLo[a],
      hi: state.attributeHi[a],
    };
  }
  return {
    kind: state.kind,
    world: state.world,
    epoch: state.epoch,
    sequence: state.sequence,
    reference: state.reference,
    tier: state.tier,
    bits: state.bits,
    time: state.time,
    count,
    lo: state.lo.slice(),
    hi: state.hi.slice(),
    checksum,
    ids: state.ids.subarray(0, count),
    positions: state.positions.subarray(0, 3 * count),
    attributes,
  };
}

/** Position of particle i of a decoded frame in world units: lo + q (hi - lo) / (2^bits - 1). */
export function dequantize(frame, i) {
  const shift = 16 - frame.bits;
  const maxQ = 2 ** frame.bits - 1;
  const result = [0, 0, 0];
  for (let axis = 0; axis < 3; axis++) {
    const q = frame.positions[3 * i + axis] >>> shift;
    result[axis] = frame.lo[axis] + q * (frame.hi[axis] - frame.lo[axis]) / maxQ;
  }
  return result;
}
