// Reads the attribute channels of a frame (section types 16-19), three at a time where possible.
import { FIRST_ATTRIBUTE_SECTION, ATTRIBUTE_COUNT } from './frame_format.js';
import { readRiceChannel, readRiceChannels3 } from './rice_reader.js';

/**
 * For each attribute section present, in type order, decodes its channel into a scratch array
 * and calls apply(attributeIndex, section, raw) before that scratch array is reused.
 */
export function forEachAttributeChannel(words, sections, scratch, apply) {
  const present = [];
  for (let a = 0; a < ATTRIBUTE_COUNT; a++) {
    if (sections[FIRST_ATTRIBUTE_SECTION + a]) present.push(a);
  }
  let next = 0;
  while (present.length - next >= 3) {
    const [a, b, c] = present.slice(next, next + 3);
    const [sa, sb, sc] = [a, b, c].map((index) => sections[FIRST_ATTRIBUTE_SECTION + index]);
    readRiceChannels3(words, sa.channels[0], sb.channels[0], sc.channels[0], scratch.x, scratch.y, scratch.z);
    apply(a, sa, scratch.x);
    apply(b, sb, scratch.y);
    apply(c, sc, scratch.z);
    next += 3;
  }
  for (; next < present.length; next++) {
    const section = sections[FIRST_ATTRIBUTE_SECTION + present[next]];
    readRiceChannel(words, section.channels[0], scratch.x);
    apply(present[next], section, scratch.x);
  }
}
