// Constants of the binary particle frame format (PROTOCOL.md 4.5 and 4.6).

export const FRAME_MAGIC = [0x46, 0x43, 0x50, 0x46]; // 'F' 'C' 'P' 'F'
export const FRAME_VERSION = 1;
export const KIND_KEY = 0;
export const KIND_DELTA = 1;
export const MIN_POSITION_BITS = 10;
export const MAX_POSITION_BITS = 16;
export const VALID_TIERS = [1, 2, 4, 8];

export const HEADER_BYTES = 80;
export const SECTION_ENTRY_BYTES = 16;
export const MAX_SECTIONS = 16;
export const DEFAULT_MAX_PARTICLES = 16777216;

/** Header field offsets (PROTOCOL.md 4.5). */
export const HEADER = Object.freeze({
  magic: 0, version: 4, kind: 5, bits: 6, tier: 7,
  world: 8, epoch: 12, sequence: 16, reference: 20, time: 24,
  count: 32, refCount: 36, born: 40, died: 44,
  lo: 48, hi: 60, checksum: 72, sections: 76, flags: 78,
});

export const SECTION_IDS = 1;
export const SECTION_POSITIONS = 2;
export const SECTION_VELOCITIES = 3;
export const FIRST_ATTRIBUTE_SECTION = 16;

/** Attribute names by section type - FIRST_ATTRIBUTE_SECTION. */
export const ATTRIBUTE_NAMES = Object.freeze(['speed', 'density', 'temperature', 'fluid']);
export const ATTRIBUTE_COUNT = ATTRIBUTE_NAMES.length;

export function isAttributeSection(type) {
  return type >= FIRST_ATTRIBUTE_SECTION && type < FIRST_ATTRIBUTE_SECTION + ATTRIBUTE_COUNT;
}

export function isKnownSection(type) {
  return type === SECTION_IDS || type === SECTION_POSITIONS || type === SECTION_VELOCITIES ||
    isAttributeSection(type);
}
