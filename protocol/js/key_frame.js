// Decodes the sections of a key frame (PROTOCOL.md 4.6) into a StreamState.
import { corrupt } from './decode_error.js';
import {
  SECTION_IDS, SECTION_POSITIONS, SECTION_VELOCITIES, ATTRIBUTE_NAMES,
} from './frame_format.js';
import { readRiceChannel, readAxisChannels } from './rice_reader.js';
import { checksumTerm } from './checksum.js';
import { forEachAttributeChannel } from './attribute_channels.js';
import { setAttributePresence } from './stream_state.js';
import { checkPositionsInRange, checkAttributeInRange } from './range_checks.js';

/** Fills `next` (capacity >= count) from a checked key frame layout; returns the checksum of
 *  the decoded particles; throws DecodeError. */
export function decodeKeyFrame(words, layout, next, scratch) {
  const sections = layout.sections;
  decodeKeyIds(words, sections[SECTION_IDS].channels[0], next.ids, scratch.x);
  readAxisChannels(words, sections[SECTION_POSITIONS].channels, layout.count, scratch.x, scratch.y, scratch.z);
  const checksum = applyKeyPositions(layout, next, scratch);
  readAxisChannels(words, sections[SECTION_VELOCITIES].channels, layout.count, scratch.x, scratch.y, scratch.z);
  applyKeyVelocities(layout, next, scratch);
  setAttributePresence(next, sections);
  forEachAttributeChannel(words, sections, scratch, (a, section, raw) => {
    applyKeyAttribute(raw, next.attributeBuffer(a), layout.count, ATTRIBUTE_NAMES[a]);
  });
  return checksum;
}

function decodeKeyIds(words, channel, ids, raw) {
  const count = channel.count;
  readRiceChannel(words, channel, raw);
  let id = -1; // id_0 = first value; id_i = id_(i-1) + 1 + gap
  for (let i = 0; i < count; i++) {
    id += 1 + (raw[i] >>> 0);
    if (id > 0xffffffff) throw corrupt(`id ${i} overflows 32 bits`);
    ids[i] = id;
  }
}

/** q_i = q_(i-1) + zigzag^-1(raw_i) per axis with q_(-1) = 0; returns the checksum. A q that
 *  is out of range is caught after the loop (see checkPositionsInRange), wherever the next ones go. */
function applyKeyPositions(layout, next, scratch) {
  const count = layout.count;
  const maxQ = (1 << layout.bits) - 1;
  const shift = 16 - layout.bits;
  const { ids, positions } = next;
  const { x: rx, y: ry, z: rz } = scratch;
  let qx = 0;
  let qy = 0;
  let qz = 0;
  let checksum = 0;
  let outOfRange = 0;
  for (let i = 0, p = 0; i < count; i++, p += 3) {
    const zx = rx[i];
    const zy = ry[i];
    const zz = rz[i];
    qx = (qx + ((zx >>> 1) ^ -(zx & 1))) | 0;
    qy = (qy + ((zy >>> 1) ^ -(zy & 1))) | 0;
    qz = (qz + ((zz >>> 1) ^ -(zz & 1))) | 0;
    outOfRange |= qx | qy | qz;
    positions[p] = qx << shift;
    positions[p + 1] = qy << shift;
    positions[p + 2] = qz << shift;
    checksum = (checksum + checksumTerm(ids[i], qx, qy, qz)) | 0;
  }
  checkPositionsInRange(outOfRange, maxQ);
  return checksum >>> 0;
}

function applyKeyVelocities(layout, next, scratch) {
  const count = layout.count;
  const maxQ = (1 << layout.bits) - 1;
  const velocities = next.velocities;
  const { x: rx, y: ry, z: rz } = scratch;
  for (let i = 0, p = 0; i < count; i++, p += 3) {
    const zx = rx[i];
    const zy = ry[i];
    const zz = rz[i];
    const vx = (zx >>> 1) ^ -(zx & 1);
    const vy = (zy >>> 1) ^ -(zy & 1);
    const vz = (zz >>> 1) ^ -(zz & 1);
    // |v| <= maxQ  <=>  v + maxQ in [0, 2 maxQ]
    if (((vx + maxQ) >>> 0) > 2 * maxQ || ((vy + maxQ) >>> 0) > 2 * maxQ || ((vz + maxQ) >>> 0) > 2 * maxQ) {
      throw corrupt(`velocity of particle ${i} outside +-${maxQ}`);
    }
    velocities[p] = vx;
    velocities[p + 1] = vy;
    velocities[p + 2] = vz;
  }
}

function applyKeyAttribute(raw, values, count, name) {
  let outOfRange = 0;
  for (let i = 0; i < count; i++) {
    const a = raw[i]; // a raw value of 2^31 or above reads back negative and is rejected
    outOfRange |= a;
    values[i] = a;
  }
  checkAttributeInRange(outOfRange, name);
}
