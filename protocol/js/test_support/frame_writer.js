// TEST SUPPORT ONLY: assembles a frame message (PROTOCOL.md 4.5, 4.6) from a plan a test may tamper with.
import { encodeRiceChannel } from './rice_writer.js';

/**
 * plan.header: { magic = 'FCPF', version = 1, kind (0 key, 1 delta), bits, tier, world, epoch,
 *   sequence, reference, time, count, refCount, born, died, lo: [3], hi: [3], checksum,
 *   sectionCount = sections.length, flags = 0 }
 * plan.sections: [{ type, lo = 0, hi = 0, zeroByte = 0, zeroHalf = 0, length (overrides the
 *   table entry), body (bytes) or channels: [{ values, chooseK }] }] in table order.
 */
export function assembleFrame(plan) {
  const bodies = plan.sections.map(sectionBody);
  const h = plan.header;
  const sectionCount = h.sectionCount ?? plan.sections.length;
  const tableBytes = 16 * plan.sections.length;
  const total = 80 + tableBytes + bodies.reduce((sum, body) => sum + body.length, 0);
  const out = new Uint8Array(total);
  const view = new DataView(out.buffer);
  const magic = h.magic ?? 'FCPF';
  for (let i = 0; i < 4; i++) out[i] = magic.charCodeAt(i);
  out[4] = h.version ?? 1;
  out[5] = h.kind;
  out[6] = h.bits;
  out[7] = h.tier;
  view.setUint32(8, h.world, true);
  view.setUint32(12, h.epoch, true);
  view.setUint32(16, h.sequence, true);
  view.setUint32(20, h.reference, true);
  view.setFloat64(24, h.time, true);
  view.setUint32(32, h.count, true);
  view.setUint32(36, h.refCount, true);
  view.setUint32(40, h.born, true);
  view.setUint32(44, h.died, true);
  for (let axis = 0; axis < 3; axis++) {
    view.setFloat32(48 + 4 * axis, h.lo[axis], true);
    view.setFloat32(60 + 4 * axis, h.hi[axis], true);
  }
  view.setUint32(72, h.checksum, true);
  view.setUint16(76, sectionCount, true);
  view.setUint16(78, h.flags ?? 0, true);
  let offset = 80 + tableBytes;
  plan.sections.forEach((section, i) => {
    const entry = 80 + 16 * i;
    out[entry] = section.type;
    out[entry + 1] = section.zeroByte ?? 0;
    view.setUint16(entry + 2, section.zeroHalf ?? 0, true);
    view.setUint32(entry + 4, section.length ?? bodies[i].length, true);
    view.setFloat32(entry + 8, section.lo ?? 0, true);
    view.setFloat32(entry + 12, section.hi ?? 0, true);
    out.set(bodies[i], offset);
    offset += bodies[i].length;
  });
  return out;
}

function sectionBody(section) {
  if (section.body) return section.body;
  const channels = section.channels.map((c) => encodeRiceChannel(c.values, { chooseK: c.chooseK }));
  const body = new Uint8Array(channels.reduce((sum, c) => sum + c.length, 0));
  let offset = 0;
  for (const channel of channels) {
    body.set(channel, offset);
    offset += channel.length;
  }
  return body;
}
