// Delta positions when no particle was born or died: Rice decoding and prediction in one pass.
import { readK, readValue, runOut, checkArguments } from './rice_reader.js';
import { checksumTerm } from './checksum.js';
import { checkPositionsInRange } from './range_checks.js';

/**
 * Particle i of the new frame is particle i of the reference: decodes the x, y, z residual
 * channels together (as readRiceChannels3 does) and applies q = q_ref + v_ref + r at once,
 * without storing the residuals (a third faster than two passes). Returns the checksum.
 */
export function decodePositionsSameParticles(words, channels, layout, held, next, slowPathValue) {
  const [channelX, channelY, channelZ] = channels;
  const count = layout.count;
  checkArguments(words, channelX, { length: count });
  checkArguments(words, channelY, { length: count });
  checkArguments(words, channelZ, { length: count });
  const shift = 16 - layout.bits;
  const refPositions = held.positions;
  const refVelocities = held.velocities;
  const { ids, positions, velocities } = next;
  let checksum = 0;
  let outOfRange = 0;
  let px = channelX.startBit;
  let py = channelY.startBit;
  let pz = channelZ.startBit;
  for (let blockStart = 0; blockStart < count; blockStart += 64) {
    const kx = readK(words, px);
    const ky = readK(words, py);
    const kz = readK(words, pz);
    px += 5;
    py += 5;
    pz += 5;
    const maskX = (1 << kx) - 1;
    const maskY = (1 << ky) - 1;
    const maskZ = (1 << kz) - 1;
    const biasX = kx + 32; // a code takes m + 1 + k = (k + 32) - clz bits
    const biasY = ky + 32;
    const biasZ = kz + 32;
    const blockEnd = blockStart + 64 < count ? blockStart + 64 : count;
    for (let i = blockStart, p = 3 * blockStart; i < blockEnd; i++, p += 3) {
      const ix = px >>> 5;
      const sx = px & 31;
      const iy = py >>> 5;
      const sy = py & 31;
      const iz = pz >>> 5;
      const sz = pz & 31;
      const wx = (words[ix] >>> sx) | ((words[ix + 1] << 1) << (31 - sx));
      const wy = (words[iy] >>> sy) | ((words[iy + 1] << 1) << (31 - sy));
      const wz = (words[iz] >>> sz) | ((words[iz + 1] << 1) << (31 - sz));
      let zx;
      let zy;
      let zz;
      if ((wx & 0xffff) !== 0 && (wy & 0xffff) !== 0 && (wz & 0xffff) !== 0) {
        const cx = Math.clz32(wx & -wx);
        const cy = Math.clz32(wy & -wy);
        const cz = Math.clz32(wz & -wz);
        zx = ((31 - cx) << kx) | ((wx >>> (32 - cx)) & maskX);
        zy = ((31 - cy) << ky) | ((wy >>> (32 - cy)) & maskY);
        zz = ((31 - cz) << kz) | ((wz >>> (32 - cz)) & maskZ);
        px += biasX - cx;
        py += biasY - cy;
        pz += biasZ - cz;
      } else {
        // an escape in at least one channel: read each value on its own
        px = readValue(words, px, kx, maskX, slowPathValue, 0);
        zx = slowPathValue[0];
        py = readValue(words, py, ky, maskY, slowPathValue, 0);
        zy = slowPathValue[0];
        pz = readValue(words, pz, kz, maskZ, slowPathValue, 0);
        zz = slowPathValue[0];
      }
      const qx0 = refPositions[p] >>> shift;
      const qy0 = refPositions[p + 1] >>> shift;
      const qz0 = refPositions[p + 2] >>> shift;
      const qx = (qx0 + refVelocities[p] + ((zx >>> 1) ^ -(zx & 1))) | 0;
      const qy = (qy0 + refVelocities[p + 1] + ((zy >>> 1) ^ -(zy & 1))) | 0;
      const qz = (qz0 + refVelocities[p + 2] + ((zz >>> 1) ^ -(zz & 1))) | 0;
      outOfRange |= qx | qy | qz;
      positions[p] = qx << shift;
      positions[p + 1] = qy << shift;
      positions[p + 2] = qz << shift;
      velocities[p] = qx - qx0;
      velocities[p + 1] = qy - qy0;
      velocities[p + 2] = qz - qz0;
      checksum = (checksum + checksumTerm(ids[i], qx, qy, qz)) | 0;
    }
    if (px > channelX.endBit) throw runOut(channelX);
    if (py > channelY.endBit) throw runOut(channelY);
    if (pz > channelZ.endBit) throw runOut(channelZ);
  }
  checkPositionsInRange(outOfRange, (1 << layout.bits) - 1);
  return checksum >>> 0;
}
