// Checks a frame's header and section table (PROTOCOL.md 4.5, 4.6) and locates its channels.
import { corrupt } from './decode_error.js';
import {
  FRAME_MAGIC, FRAME_VERSION, KIND_KEY, KIND_DELTA, MIN_POSITION_BITS, MAX_POSITION_BITS,
  VALID_TIERS, HEADER_BYTES, SECTION_ENTRY_BYTES, MAX_SECTIONS, HEADER,
  SECTION_IDS, SECTION_POSITIONS, SECTION_VELOCITIES, FIRST_ATTRIBUTE_SECTION, ATTRIBUTE_COUNT,
  isAttributeSection, isKnownSection,
} from './frame_format.js';
import { minimumChannelBits } from './rice_reader.js';

/** Longest message accepted: keeps every bit index below 2^32. */
export const MAX_MESSAGE_BYTES = 0x1fffffff;

/**
 * Reads and checks everything that does not depend on the held state: header fields, counts,
 * bounds, the section table, which sections are present, and that every channel fits its section
 * with at least one bit per value. `view` is a DataView over the message of `length` bytes.
 * Returns { header fields..., sections: [type] -> { type, offset, length, lo, hi, channels } }.
 */
export function readFrameLayout(view, length, maxParticles) {
  if (length < HEADER_BYTES) throw corrupt(`message of ${length} bytes is shorter than the header`);
  if (length > MAX_MESSAGE_BYTES) throw corrupt(`message of ${length} bytes is too long`);
  for (let i = 0; i < 4; i++) {
    if (view.getUint8(HEADER.magic + i) !== FRAME_MAGIC[i]) throw corrupt('wrong magic');
  }
  const layout = readHeaderFields(view);
  checkHeaderFields(layout, maxParticles);
  layout.sections = readSectionTable(view, length, layout.sectionCount);
  checkSectionPresence(layout);
  locateAllChannels(view, layout);
  return layout;
}

function readHeaderFields(view) {
  const lo = [0, 1, 2].map((axis) => view.getFloat32(HEADER.lo + 4 * axis, true));
  const hi = [0, 1, 2].map((axis) => view.getFloat32(HEADER.hi + 4 * axis, true));
  return {
    version: view.getUint8(HEADER.version),
    kindCode: view.getUint8(HEADER.kind),
    bits: view.getUint8(HEADER.bits),
    tier: view.getUint8(HEADER.tier),
    world: view.getUint32(HEADER.world, true),
    epoch: view.getUint32(HEADER.epoch, true),
    sequence: view.getUint32(HEADER.sequence, true),
    reference: view.getUint32(HEADER.reference, true),
    time: view.getFloat64(HEADER.time, true),
    count: view.getUint32(HEADER.count, true),
    refCount: view.getUint32(HEADER.refCount, true),
    born: view.getUint32(HEADER.born, true),
    died: view.getUint32(HEADER.died, true),
    lo,
    hi,
    checksum: view.getUint32(HEADER.checksum, true),
    sectionCount: view.getUint16(HEADER.sections, true),
    flags: view.getUint16(HEADER.flags, true),
  };
}

function checkHeaderFields(h, maxParticles) {
  if (h.version !== FRAME_VERSION) throw corrupt(`unsupported version ${h.version}`);
  if (h.kindCode !== KIND_KEY && h.kindCode !== KIND_DELTA) throw corrupt(`unknown kind ${h.kindCode}`);
  if (h.bits < MIN_POSITION_BITS || h.bits > MAX_POSITION_BITS) throw corrupt(`position bits ${h.bits} outside 10..16`);
  if (!VALID_TIERS.includes(h.tier)) throw corrupt(`tier ${h.tier} is not 1, 2, 4 or 8`);
  if (h.flags !== 0) throw corrupt(`flags ${h.flags} not zero`);
  if (h.sectionCount < 1 || h.sectionCount > MAX_SECTIONS) throw corrupt(`section count ${h.sectionCount} outside 1..16`);
  for (let axis = 0; axis < 3; axis++) {
    const lo = h.lo[axis];
    const hi = h.hi[axis];
    if (!Number.isFinite(lo) || !Number.isFinite(hi) || !(hi >= lo)) {
      throw corrupt(`bounds on axis ${axis} not finite with hi >= lo`);
    }
  }
  // a flat axis (hi == lo: a 2D world's z) has no values in its channels (PROTOCOL.md 4.2)
  h.flat = [0, 1, 2].map((axis) => !(h.hi[axis] > h.lo[axis]));
  if (h.flat[0] && h.flat[1] && h.flat[2]) throw corrupt('bounds flat (hi == lo) on every axis');
  if (h.count > maxParticles) throw corrupt(`count ${h.count} above the limit ${maxParticles}`);
  if (h.kindCode === KIND_KEY) {
    if (h.reference !== h.sequence) throw corrupt('key frame whose reference differs from its sequence');
    if (h.refCount !== 0 || h.born !== 0 || h.died !== 0) throw corrupt('key frame with non-zero ref_count, born or died');
  } else {
    if (h.refCount > maxParticles) throw corrupt(`ref_count ${h.refCount} above the limit ${maxParticles}`);
    if (h.died > h.refCount || h.born > h.count || h.count !== h.refCount - h.died + h.born) {
      throw corrupt('counts disagree: count != ref_count - died + born');
    }
  }
}

function readSectionTable(view, length, sectionCount) {
  const tableEnd = HEADER_BYTES + SECTION_ENTRY_BYTES * sectionCount;
  if (tableEnd > length) throw corrupt('section table runs past the message');
  const sections = [];
  let bodyOffset = tableEnd;
  let previousType = 0;
  for (let i = 0; i < sectionCount; i++) {
    const entry = HEADER_BYTES + SECTION_ENTRY_BYTES * i;
    const type = view.getUint8(entry);
    if (view.getUint8(entry + 1) !== 0 || view.getUint16(entry + 2, true) !== 0) {
      throw corrupt(`section ${i}: zero fields not zero`);
    }
    if (!isKnownSection(type)) throw corrupt(`section ${i}: unknown type ${type}`);
    if (type <= previousType) throw corrupt(`section ${i}: type ${type} duplicate or out of order`);
    previousType = type;
    const bodyLength = view.getUint32(entry + 4, true);
    if (bodyLength % 4 !== 0) throw corrupt(`section type ${type}: length ${bodyLength} not a multiple of 4`);
    if (bodyLength > length - bodyOffset) throw corrupt(`section type ${type}: body runs past the message`);
    let lo = 0;
    let hi = 0;
    if (isAttributeSection(type)) {
      lo = view.getFloat32(entry + 8, true);
      hi = view.getFloat32(entry + 12, true);
      if (!Number.isFinite(lo) || !Number.isFinite(hi) || !(hi > lo)) {
        throw corrupt(`attribute section type ${type}: range not finite with hi > lo`);
      }
    } else if (view.getFloat32(entry + 8, true) !== 0 || view.getFloat32(entry + 12, true) !== 0) {
      // compared as floats, as the C decoder does: -0 passes, NaN does not
      throw corrupt(`section type ${type}: lo/hi fields not zero`);
    }
    sections[type] = { type, offset: bodyOffset, length: bodyLength, lo, hi, channels: null };
    bodyOffset += bodyLength;
  }
  if (bodyOffset !== length) {
    throw corrupt(`message is ${length} bytes, its section table says ${bodyOffset}`);
  }
  return sections;
}

function checkSectionPresence(h) {
  const s = h.sections;
  if (!s[SECTION_POSITIONS]) throw corrupt('positions section missing');
  if (h.kindCode === KIND_KEY) {
    if (!s[SECTION_IDS]) throw corrupt('key frame without ids section');
    if (!s[SECTION_VELOCITIES]) throw corrupt('key frame without velocities section');
  } else {
    if (s[SECTION_VELOCITIES]) throw corrupt('delta frame with a velocities section');
    const changed = h.born + h.died > 0;
    if (changed && !s[SECTION_IDS]) throw corrupt('delta frame with born or died but no ids section');
    if (!changed && s[SECTION_IDS]) throw corrupt('delta frame with an ids section but no born or died');
  }
}

function locateAllChannels(view, h) {
  const s = h.sections;
  const n = h.count;
  if (s[SECTION_IDS]) {
    const counts = h.kindCode === KIND_KEY ? [n] : [h.died, h.born];
    s[SECTION_IDS].channels = locateChannels(view, s[SECTION_IDS], counts);
  }
  const axisCounts = h.flat.map((flat) => (flat ? 0 : n));
  s[SECTION_POSITIONS].channels = locateChannels(view, s[SECTION_POSITIONS], axisCounts, h.flat);
  if (s[SECTION_VELOCITIES]) {
    s[SECTION_VELOCITIES].channels = locateChannels(view, s[SECTION_VELOCITIES], axisCounts, h.flat);
  }
  for (let a = 0; a < ATTRIBUTE_COUNT; a++) {
    const section = s[FIRST_ATTRIBUTE_SECTION + a];
    if (section) section.channels = locateChannels(view, section, [n]);
  }
}

/** Splits a section body into channels of the given value counts; the body must hold exactly them.
 *  empty[index]: that channel must have no bytes (a flat axis). */
function locateChannels(view, section, valueCounts, empty = []) {
  const end = section.offset + section.length;
  const channels = [];
  let cursor = section.offset;
  for (let index = 0; index < valueCounts.length; index++) {
    const count = valueCounts[index];
    const where = `section type ${section.type}, channel ${index}`;
    if (end - cursor < 4) throw corrupt(`${where}: missing`);
    const byteLength = view.getUint32(cursor, true);
    if (byteLength % 4 !== 0) throw corrupt(`${where}: length not a multiple of 4`);
    if (byteLength > end - cursor - 4) throw corrupt(`${where}: runs past its section`);
    if (empty[index] && byteLength !== 0) throw corrupt(`${where}: the channel of a flat axis is not empty`);
    if (minimumChannelBits(count) > 8 * byteLength) throw corrupt(`${where}: too short for ${count} values`);
    channels.push({ startBit: 8 * (cursor + 4), endBit: 8 * (cursor + 4 + byteLength), count });
    cursor += 4 + byteLength;
  }
  if (cursor !== end) throw corrupt(`section type ${section.type}: ${end - cursor} bytes after its channels`);
  return channels;
}
