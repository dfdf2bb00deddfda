// Decodes the sections of a delta frame (PROTOCOL.md 4.3, 4.6) against the held StreamState.
import { corrupt } from './decode_error.js';
import { SECTION_IDS, SECTION_POSITIONS, ATTRIBUTE_NAMES } from './frame_format.js';
import { readRiceChannel, readAxisChannels } from './rice_reader.js';
import { checksumTerm } from './checksum.js';
import { decodePositionsSameParticles } from './delta_positions_fused.js';
import { forEachAttributeChannel } from './attribute_channels.js';
import { setAttributePresence } from './stream_state.js';
import { checkPositionsInRange, checkAttributeInRange } from './range_checks.js';

/**
 * Fills `next` (capacity >= count) from a checked delta frame layout that applies to `held`
 * (the need_key checks are done); returns the checksum of the decoded particles; throws
 * DecodeError 'corrupt'. Reads `held`, never writes it.
 */
export function decodeDeltaFrame(words, layout, held, next, scratch) {
  const sections = layout.sections;
  const idsSection = sections[SECTION_IDS];
  const merged = Boolean(idsSection);
  if (merged) {
    const [diedChannel, bornChannel] = idsSection.channels;
    readDiedIndices(words, diedChannel, layout.refCount, scratch);
    readBornIds(words, bornChannel, scratch);
    mergeIds(held.ids, layout.refCount, scratch, layout.died, layout.born, next.ids);
  } else {
    next.ids.set(held.ids.subarray(0, layout.count));
  }
  const positionChannels = sections[SECTION_POSITIONS].channels;
  const flat = layout.flat[0] || layout.flat[1] || layout.flat[2];
  let checksum;
  if (merged || flat) {
    if (!merged) for (let i = 0; i < layout.count; i++) scratch.source[i] = i; // the same particles, in order
    readAxisChannels(words, positionChannels, layout.count, scratch.x, scratch.y, scratch.z);
    checksum = applyPositionsMerged(layout, held, next, scratch);
  } else {
    checksum = decodePositionsSameParticles(words, positionChannels, layout, held, next, scratch.oneValue);
  }
  setAttributePresence(next, sections);
  forEachAttributeChannel(words, sections, scratch, (a, section, raw) => {
    const values = next.attributeBuffer(a);
    if (merged) applyAttributeMerged(held.attributeValues[a], values, raw, layout, scratch.source, ATTRIBUTE_NAMES[a]);
    else applyAttributeSameParticles(held.attributeValues[a], values, raw, layout.count, ATTRIBUTE_NAMES[a]);
  });
  return checksum;
}

function readDiedIndices(words, channel, refCount, scratch) {
  const count = channel.count;
  const raw = scratch.x;
  const indices = scratch.diedIndices;
  readRiceChannel(words, channel, raw);
  let index = -1;
  for (let i = 0; i < count; i++) {
    index += 1 + (raw[i] >>> 0);
    if (index >= refCount) throw corrupt(`died index ${index} past the reference count ${refCount}`);
    indices[i] = index;
  }
}

function readBornIds(words, channel, scratch) {
  const count = channel.count;
  const raw = scratch.x;
  const ids = scratch.bornIds;
  readRiceChannel(words, channel, raw);
  let id = -1;
  for (let i = 0; i < count; i++) {
    id += 1 + (raw[i] >>> 0);
    if (id > 0xffffffff) throw corrupt(`born id ${i} overflows 32 bits`);
    ids[i] = id;
  }
}

/** Survivors (reference minus died) and born, merged in id order into `ids`; fills scratch.source. */
function mergeIds(refIds, refCount, scratch, diedCount, bornCount, ids) {
  const died = scratch.diedIndices;
  const bornIds = scratch.bornIds;
  const source = scratch.source;
  let d = 0;
  let nextDied = diedCount > 0 ? died[0] : -1;
  let b = 0;
  let out = 0;
  for (let j = 0; j < refCount; j++) {
    if (j === nextDied) {
      d++;
      nextDied = d < diedCount ? died[d] : -1;
      continue;
    }
    const id = refIds[j];
    while (b < bornCount && bornIds[b] < id) {
      ids[out] = bornIds[b];
      source[out++] = ~b;
      b++;
    }
    if (b < bornCount && bornIds[b] === id) throw corrupt(`born id ${id} equals a surviving id`);
    ids[out] = id;
    source[out++] = j;
  }
  while (b < bornCount) {
    ids[out] = bornIds[b];
    source[out++] = ~b;
    b++;
  }
}

/** Survivors: predicted from the reference; born: absolute q (listed after all survivors). */
function applyPositionsMerged(layout, held, next, scratch) {
  const count = layout.count;
  const shift = 16 - layout.bits;
  const maxQ = (1 << layout.bits) - 1;
  const refPositions = held.positions;
  const refVelocities = held.velocities;
  const { ids, positions, velocities } = next;
  const { x: rx, y: ry, z: rz, source } = scratch;
  let checksum = 0;
  let outOfRange = 0;
  let survivor = 0;
  let born = count - layout.born;
  for (let i = 0, p = 0; i < count; i++, p += 3) {
    const j = source[i];
    let qx, qy, qz, vx, vy, vz;
    if (j >= 0) {
      const r = 3 * j;
      const qx0 = refPositions[r] >>> shift;
      const qy0 = refPositions[r + 1] >>> shift;
      const qz0 = refPositions[r + 2] >>> shift;
      const zx = rx[survivor];
      const zy = ry[survivor];
      const zz = rz[survivor];
      survivor++;
      qx = (qx0 + refVelocities[r] + ((zx >>> 1) ^ -(zx & 1))) | 0;
      qy = (qy0 + refVelocities[r + 1] + ((zy >>> 1) ^ -(zy & 1))) | 0;
      qz = (qz0 + refVelocities[r + 2] + ((zz >>> 1) ^ -(zz & 1))) | 0;
      vx = qx - qx0;
      vy = qy - qy0;
      vz = qz - qz0;
    } else {
      // Kept as int32 (no >>> 0 here, which would turn the loop to doubles): raw values of
      // 2^31 and above read back negative and fail the range check.
      qx = rx[born];
      qy = ry[born];
      qz = rz[born];
      born++;
      vx = 0;
      vy = 0;
      vz = 0;
    }
    outOfRange |= qx | qy | qz;
    positions[p] = qx << shift;
    positions[p + 1] = qy << shift;
    positions[p + 2] = qz << shift;
    velocities[p] = vx;
    velocities[p + 1] = vy;
    velocities[p + 2] = vz;
    checksum = (checksum + checksumTerm(ids[i], qx, qy, qz)) | 0;
  }
  checkPositionsInRange(outOfRange, maxQ);
  return checksum >>> 0;
}

/** No births or deaths: a_i = a_ref_i + zigzag^-1(raw_i). */
function applyAttributeSameParticles(refValues, values, raw, count, name) {
  let outOfRange = 0;
  for (let i = 0; i < count; i++) {
    const z = raw[i];
    const a = (refValues[i] + ((z >>> 1) ^ -(z & 1))) | 0;
    outOfRange |= a;
    values[i] = a;
  }
  checkAttributeInRange(outOfRange, name);
}

/** Survivors: a_ref + zigzag^-1(raw); born: raw itself, listed after all survivors. */
function applyAttributeMerged(refValues, values, raw, layout, source, name) {
  const count = layout.count;
  let survivor = 0;
  let born = count - layout.born;
  let outOfRange = 0;
  for (let i = 0; i < count; i++) {
    const j = source[i];
    let a;
    if (j >= 0) {
      const z = raw[survivor++];
      a = (refValues[j] + ((z >>> 1) ^ -(z & 1))) | 0;
    } else {
      a = raw[born++]; // int32: a raw value of 2^31 or above reads back negative and is rejected
    }
    outOfRange |= a;
    values[i] = a;
  }
  checkAttributeInRange(outOfRange, name);
}
