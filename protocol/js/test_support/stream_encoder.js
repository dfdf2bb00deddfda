// TEST SUPPORT ONLY: a slow, plain encoder of one frame stream written from PROTOCOL.md 4.2-4.8.
import { assembleFrame } from './frame_writer.js';
import { zigzag } from './rice_writer.js';

export const ATTRIBUTE_TYPES = { speed: 16, density: 17, temperature: 18, fluid: 19 };

/** q = clamp(floor((x - lo) * s + 0.5), 0, 2^N - 1), s = (2^N - 1) / (hi - lo), in f64 arithmetic
 *  from the f32 x, lo, hi (PROTOCOL.md 4.2); NaN gives 0. */
export function quantize(x, lo, hi, bits) {
  const f = Math.fround;
  const maxQ = 2 ** bits - 1;
  const scale = maxQ / (f(hi) - f(lo));
  const q = Math.floor((f(x) - f(lo)) * scale + 0.5);
  if (Number.isNaN(q)) return 0;
  return Math.min(maxQ, Math.max(0, q));
}

/** Checksum of PROTOCOL.md 4.8, in BigInt so that it does not share code with the decoder. */
export function referenceChecksum(ids, q) {
  const mask = 0xffffffffn;
  let sum = 0n;
  for (let i = 0; i < ids.length; i++) {
    const term = ((BigInt(ids[i]) * 0x9e3779b1n) & mask) ^ ((BigInt(q[3 * i]) * 0x85ebca77n) & mask) ^
      ((BigInt(q[3 * i + 1]) * 0xc2b2ae3dn) & mask) ^ ((BigInt(q[3 * i + 2]) * 0x27d4eb2fn) & mask);
    sum = (sum + term) & mask;
  }
  return Number(sum);
}

function gapCode(sortedValues) {
  return sortedValues.map((value, i) => (i === 0 ? value : value - sortedValues[i - 1] - 1));
}

/**
 * Encodes snapshots { sequence, time, ids (strictly increasing), positions (x, y, z per
 * particle, metres), attributes: { speed: [...], ... } } into key and delta frames.
 * plan*() returns { plan, state } without committing; encode*() commits and returns the bytes.
 */
export class StreamEncoder {
  constructor({ world = 1, epoch = 0, bits = 16, tier = 1, lo = [0, 0, 0], hi = [1, 1, 1], attributeRanges = {} } = {}) {
    this.stream = { world, epoch, bits, tier, lo: lo.map(Math.fround), hi: hi.map(Math.fround) };
    this.attributeRanges = attributeRanges;
    this.state = null;
  }

  quantizeSnapshot(snapshot) {
    const { lo, hi, bits } = this.stream;
    const n = snapshot.ids.length;
    const q = new Int32Array(3 * n);
    for (let i = 0; i < 3 * n; i++) q[i] = quantize(snapshot.positions[i], lo[i % 3], hi[i % 3], bits);
    const attributes = {};
    for (const [name, values] of Object.entries(snapshot.attributes ?? {})) {
      const [alo, ahi] = this.attributeRanges[name];
      attributes[name] = Uint8Array.from(values, (v) => quantize(v, alo, ahi, 8));
    }
    return { q, attributes };
  }

  header(kind, snapshot, extra) {
    return { kind, ...this.stream, lo: [...this.stream.lo], hi: [...this.stream.hi], sequence: snapshot.sequence, time: snapshot.time ?? 0, ...extra };
  }

  planKey(snapshot, velocities = null) {
    const n = snapshot.ids.length;
    const { q, attributes } = this.quantizeSnapshot(snapshot);
    const v = velocities ? Int32Array.from(velocities) : new Int32Array(3 * n);
    const axis = (a, f) => Array.from({ length: n }, (_, i) => f(i, a));
    const sections = [
      { type: 1, channels: [{ values: gapCode(Array.from(snapshot.ids)) }] },
      { type: 2, channels: [0, 1, 2].map((a) => ({ values: axis(a, (i) => zigzag(q[3 * i + a] - (i ? q[3 * i - 3 + a] : 0))) })) },
      { type: 3, channels: [0, 1, 2].map((a) => ({ values: axis(a, (i) => zigzag(v[3 * i + a])) })) },
      ...this.attributeSections(attributes, (name) => Array.from(attributes[name])),
    ];
    const header = this.header(0, snapshot, {
      reference: snapshot.sequence, count: n, refCount: 0, born: 0, died: 0,
      checksum: referenceChecksum(snapshot.ids, q),
    });
    const state = { sequence: snapshot.sequence, ids: Array.from(snapshot.ids), q, v, attributes };
    return { plan: { header, sections }, state };
  }

  planDelta(snapshot) {
    const ref = this.state;
    const { q, attributes } = this.quantizeSnapshot(snapshot);
    const ids = Array.from(snapshot.ids);
    const newIndex = new Map(ids.map((id, i) => [id, i]));
    const refIndex = new Map(ref.ids.map((id, j) => [id, j]));
    const diedIndices = ref.ids.map((id, j) => (newIndex.has(id) ? -1 : j)).filter((j) => j >= 0);
    const survivors = ids.map((id, i) => [i, refIndex.get(id)]).filter(([, j]) => j !== undefined);
    const bornIndices = ids.map((id, i) => (refIndex.has(id) ? -1 : i)).filter((i) => i >= 0);
    const v = new Int32Array(3 * ids.length);
    for (const [i, j] of survivors) for (let a = 0; a < 3; a++) v[3 * i + a] = q[3 * i + a] - ref.q[3 * j + a];
    const positionChannel = (a) => [
      ...survivors.map(([i, j]) => zigzag(q[3 * i + a] - (ref.q[3 * j + a] + ref.v[3 * j + a]))),
      ...bornIndices.map((i) => q[3 * i + a]),
    ];
    const kept = Object.fromEntries(Object.entries(attributes).filter(([name]) => ref.attributes[name]));
    const sections = [];
    if (diedIndices.length + bornIndices.length > 0) {
      sections.push({ type: 1, channels: [{ values: gapCode(diedIndices) }, { values: gapCode(bornIndices.map((i) => ids[i])) }] });
    }
    sections.push({ type: 2, channels: [0, 1, 2].map((a) => ({ values: positionChannel(a) })) });
    sections.push(...this.attributeSections(kept, (name) => [
      ...survivors.map(([i, j]) => zigzag(kept[name][i] - ref.attributes[name][j])),
      ...bornIndices.map((i) => kept[name][i]),
    ]));
    const header = this.header(1, snapshot, {
      reference: ref.sequence, count: ids.length, refCount: ref.ids.length,
      born: bornIndices.length, died: diedIndices.length, checksum: referenceChecksum(ids, q),
    });
    const state = { sequence: snapshot.sequence, ids, q, v, attributes: kept };
    return { plan: { header, sections }, state };
  }

  attributeSections(attributes, valuesOf) {
    return Object.keys(attributes)
      .sort((a, b) => ATTRIBUTE_TYPES[a] - ATTRIBUTE_TYPES[b])
      .map((name) => {
        const [lo, hi] = this.attributeRanges[name];
        return { type: ATTRIBUTE_TYPES[name], lo, hi, channels: [{ values: valuesOf(name) }] };
      });
  }

  encodeKey(snapshot, velocities = null) {
    const { plan, state } = this.planKey(snapshot, velocities);
    this.state = state;
    return assembleFrame(plan);
  }

  encodeDelta(snapshot) {
    const { plan, state } = this.planDelta(snapshot);
    this.state = state;
    return assembleFrame(plan);
  }

  /** A key frame that carries the velocities against the held state (as a mid-stream key frame
   *  does, PROTOCOL.md 4.3), so that the deltas after it predict as well as before. */
  planKeyContinuing(snapshot) {
    const delta = this.planDelta(snapshot);
    return this.planKey(snapshot, delta.state.v);
  }

  encodeKeyContinuing(snapshot) {
    const { plan, state } = this.planKeyContinuing(snapshot);
    this.state = state;
    return assembleFrame(plan);
  }
}
