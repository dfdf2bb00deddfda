// Hostile-input tests: every malformed or inapplicable frame is rejected with the right code, state kept.
import { describe, it, expect, beforeAll } from 'vitest';
import { FrameDecoder } from './frame_decoder.js';
import { encodedStream } from './test_support/stream_fixtures.js';
import { assembleFrame } from './test_support/frame_writer.js';
import { zigzag } from './test_support/rice_writer.js';
import { expectFrameMatchesSnapshot } from './test_support/frame_checks.js';
import { expectDecodeError } from './test_support/errors.js';

// A key frame and two deltas with births and deaths, four attributes, 12 bits.
let stream;
beforeAll(() => {
  stream = encodedStream({ seed: 5, count: 200, frames: 3, births: 4, deaths: 6, bits: 12 });
});

/** A decoder that has decoded frames 0 .. last of the stream. */
function decoderAfter(last, options) {
  const decoder = new FrameDecoder(options);
  for (let f = 0; f <= last; f++) decoder.decode(stream.frames[f]);
  return decoder;
}

/** Rejected with `code`; then the next frame of the stream still decodes, so the state was kept. */
function expectRejectedKeepingState(held, bytes, code, pattern) {
  const decoder = held < 0 ? new FrameDecoder() : decoderAfter(held);
  expectDecodeError(() => decoder.decode(bytes), code, pattern);
  if (held >= 0 && held + 1 < stream.frames.length) {
    expectFrameMatchesSnapshot(decoder.decode(stream.frames[held + 1]), stream.snapshots[held + 1]);
  }
}

/** Frame f with bytes patched by patch(view, bytes) on a copy. */
function patched(f, patch) {
  const bytes = stream.frames[f].slice();
  patch(new DataView(bytes.buffer), bytes);
  return bytes;
}

/** Frame f re-assembled from a tampered copy of its plan. */
function tampered(f, mutate) {
  const plan = structuredClone(stream.plans[f]);
  mutate(plan);
  return assembleFrame(plan);
}

const section = (plan, type) => plan.sections.find((s) => s.type === type);
const sectionEntry = (bytes, type) => {
  for (let offset = 80; ; offset += 16) if (bytes[offset] === type) return offset;
};

describe('truncated and padded messages', () => {
  it('rejects every truncation of a key frame and of a delta frame as corrupt', () => {
    for (const f of [0, 1]) {
      const bytes = stream.frames[f];
      const decoder = decoderAfter(f - 1);
      for (let length = 0; length < bytes.length; length++) {
        expectDecodeError(() => decoder.decode(bytes.subarray(0, length)), 'corrupt');
      }
      expectFrameMatchesSnapshot(decoder.decode(bytes), stream.snapshots[f]);
    }
  });

  it('rejects trailing bytes after the last section', () => {
    const bytes = new Uint8Array(stream.frames[1].length + 4);
    bytes.set(stream.frames[1]);
    expectRejectedKeepingState(0, bytes, 'corrupt', /section table says/);
  });
});

describe('header faults are corrupt', () => {
  const cases = [
    ['magic FCMF', (v, b) => { b[2] = 0x4d; }, /magic/],
    ['magic byte 0', (v, b) => { b[0] = 0; }, /magic/],
    ['version 0', (v, b) => { b[4] = 0; }, /version/],
    ['version 2', (v, b) => { b[4] = 2; }, /version/],
    ['kind 2', (v, b) => { b[5] = 2; }, /kind/],
    ['kind 255', (v, b) => { b[5] = 255; }, /kind/],
    ['bits 9', (v, b) => { b[6] = 9; }, /bits/],
    ['bits 17', (v, b) => { b[6] = 17; }, /bits/],
    ['tier 0', (v, b) => { b[7] = 0; }, /tier/],
    ['tier 3', (v, b) => { b[7] = 3; }, /tier/],
    ['tier 16', (v, b) => { b[7] = 16; }, /tier/],
    ['flags 1', (v) => v.setUint16(78, 1, true), /flags/],
    ['flags 0x8000', (v) => v.setUint16(78, 0x8000, true), /flags/],
    ['no sections', (v) => v.setUint16(76, 0, true), /section count/],
    ['17 sections', (v) => v.setUint16(76, 17, true), /section count/],
    ['lo NaN', (v) => v.setFloat32(48, NaN, true), /bounds/],
    ['hi infinite', (v) => v.setFloat32(64, Infinity, true), /bounds/],
    // hi == lo is a flat axis (a 2D world's z): valid, but then its channels must be empty
    ['hi equal to lo on an axis with values', (v) => v.setFloat32(68, v.getFloat32(56, true), true), /flat axis is not empty/],
    ['bounds flat on every axis', (v) => {
      for (let axis = 0; axis < 3; axis++) v.setFloat32(60 + 4 * axis, v.getFloat32(48 + 4 * axis, true), true);
    }, /flat .* on every axis/],
    ['hi below lo', (v) => v.setFloat32(60, -1, true), /bounds/],
  ];
  for (const [name, patch, pattern] of cases) {
    it(`rejects ${name} in a key and in a delta frame`, () => {
      expectRejectedKeepingState(-1, patched(0, patch), 'corrupt', pattern);
      expectRejectedKeepingState(0, patched(1, patch), 'corrupt', pattern);
    });
  }
});

describe('counts that lie', () => {
  it('rejects a key frame with a reference, ref_count, born or died', () => {
    expectRejectedKeepingState(-1, patched(0, (v) => v.setUint32(20, 1, true)), 'corrupt', /reference/);
    for (const offset of [36, 40, 44]) {
      expectRejectedKeepingState(-1, patched(0, (v) => v.setUint32(offset, 1, true)), 'corrupt', /ref_count, born or died/);
    }
  });

  it('rejects a delta whose count differs from ref_count - died + born', () => {
    for (const [offset, delta] of [[32, 1], [32, -1], [40, 1], [44, 1], [44, -1]]) {
      const bytes = patched(1, (v) => v.setUint32(offset, v.getUint32(offset, true) + delta, true));
      expectRejectedKeepingState(0, bytes, 'corrupt', /counts disagree/);
    }
    expectRejectedKeepingState(0, patched(1, (v) => v.setUint32(44, 0xffffffff, true)), 'corrupt', /counts disagree/);
  });

  it('rejects a key frame count that is one more or one less than its channels hold', () => {
    for (const delta of [1, -1, 64, 1000]) {
      const bytes = patched(0, (v) => v.setUint32(32, v.getUint32(32, true) + delta, true));
      expectDecodeError(() => new FrameDecoder().decode(bytes), 'corrupt');
    }
  });

  it('rejects counts above maxParticles', () => {
    expectDecodeError(() => new FrameDecoder({ maxParticles: 199 }).decode(stream.frames[0]), 'corrupt', /above the limit 199/);
    const decoder = new FrameDecoder({ maxParticles: 200 });
    decoder.decode(stream.frames[0]);
    // frame 1 has 198 particles, its reference 200: fine; a lower limit rejects ref_count too
    expect(decoder.decode(stream.frames[1]).count).toBe(198);
    const strict = decoderAfter(0);
    strict.maxParticles = 199;
    expectDecodeError(() => strict.decode(stream.frames[1]), 'corrupt', /ref_count 200 above the limit/);
  });

  it('rejects a huge count in a small message before allocating for it', () => {
    const decoder = new FrameDecoder();
    const bytes = patched(0, (v) => v.setUint32(32, 16777216, true));
    expectDecodeError(() => decoder.decode(bytes), 'corrupt', /too short for 16777216 values/);
    expect(decoder.spare.capacity + decoder.held.capacity + decoder.scratch.capacity).toBe(0);
    const above = patched(0, (v) => v.setUint32(32, 0xffffffff, true));
    expectDecodeError(() => decoder.decode(above), 'corrupt', /above the limit/);
  });
});

describe('section table faults are corrupt', () => {
  it('rejects a section body that runs past the message or is not a multiple of 4', () => {
    const pastEnd = patched(0, (v, b) => v.setUint32(sectionEntry(b, 2) + 4, 0xfffffffc, true));
    expectRejectedKeepingState(-1, pastEnd, 'corrupt', /runs past the message/);
    const odd = patched(1, (v, b) => v.setUint32(sectionEntry(b, 2) + 4, v.getUint32(sectionEntry(b, 2) + 4, true) + 2, true));
    expectRejectedKeepingState(0, odd, 'corrupt', /not a multiple of 4/);
    const table = patched(0, (v) => v.setUint16(76, 16, true));
    expectRejectedKeepingState(-1, table.subarray(0, 80 + 16 * 10), 'corrupt', /section table runs past/);
  });

  it('rejects duplicate, out-of-order and unknown section types', () => {
    const duplicate = tampered(1, (p) => { p.sections.push(structuredClone(section(p, 19))); });
    expectRejectedKeepingState(0, duplicate, 'corrupt', /duplicate or out of order/);
    const swapped = tampered(1, (p) => { p.sections.reverse(); });
    expectRejectedKeepingState(0, swapped, 'corrupt', /duplicate or out of order/);
    for (const type of [0, 4, 15, 20, 255]) {
      const unknown = patched(1, (v, b) => { b[sectionEntry(b, 19)] = type; });
      expectRejectedKeepingState(0, unknown, 'corrupt', new RegExp(`unknown type ${type}$`));
    }
  });

  it('rejects non-zero reserved fields and lo/hi on non-attribute sections', () => {
    expectRejectedKeepingState(0, tampered(1, (p) => { section(p, 2).zeroByte = 1; }), 'corrupt', /zero fields/);
    expectRejectedKeepingState(0, tampered(1, (p) => { section(p, 16).zeroHalf = 256; }), 'corrupt', /zero fields/);
    expectRejectedKeepingState(0, tampered(1, (p) => { section(p, 1).lo = 1e-30; }), 'corrupt', /lo\/hi fields not zero/);
    expectRejectedKeepingState(0, tampered(1, (p) => { section(p, 2).hi = NaN; }), 'corrupt', /lo\/hi fields not zero/);
    expectRejectedKeepingState(-1, tampered(0, (p) => { section(p, 3).hi = 1; }), 'corrupt', /lo\/hi fields not zero/);
  });

  it('rejects an attribute range that is not finite with hi > lo', () => {
    for (const [lo, hi] of [[1, 1], [2, 1], [NaN, 1], [0, Infinity]]) {
      expectRejectedKeepingState(-1, tampered(0, (p) => Object.assign(section(p, 17), { lo, hi })), 'corrupt', /range not finite/);
    }
  });

  it('rejects missing, extra and misplaced sections', () => {
    const without = (f, type) => tampered(f, (p) => { p.sections = p.sections.filter((s) => s.type !== type); });
    expectRejectedKeepingState(-1, without(0, 1), 'corrupt', /without ids/);
    expectRejectedKeepingState(-1, without(0, 2), 'corrupt', /positions section missing/);
    expectRejectedKeepingState(-1, without(0, 3), 'corrupt', /without velocities/);
    expectRejectedKeepingState(0, without(1, 1), 'corrupt', /born or died but no ids/);
    const withVelocities = tampered(1, (p) => {
      p.sections.splice(2, 0, structuredClone(section(stream.plans[0], 3)));
    });
    expectRejectedKeepingState(0, withVelocities, 'corrupt', /delta frame with a velocities section/);
  });

  it('rejects channels that do not fill their section exactly', () => {
    const appendWord = tampered(1, (p) => {
      const positions = section(p, 2);
      positions.body = concat(assembleSectionBody(positions), new Uint8Array(4));
    });
    expectRejectedKeepingState(0, appendWord, 'corrupt', /4 bytes after its channels/);
    const lastChannelTooLong = patched(1, (v, b) => {
      const start = bodyOffset(v, b, 19);
      v.setUint32(start, v.getUint32(start, true) + 4, true); // one word longer than the section
    });
    expectRejectedKeepingState(0, lastChannelTooLong, 'corrupt', /runs past its section/);
    const oddChannel = patched(1, (v, b) => {
      const start = bodyOffset(v, b, 16);
      v.setUint32(start, v.getUint32(start, true) + 1, true);
    });
    expectRejectedKeepingState(0, oddChannel, 'corrupt', /channel 0: length not a multiple of 4/);
    const missingChannel = tampered(0, (p) => { section(p, 3).channels.pop(); });
    expectRejectedKeepingState(-1, missingChannel, 'corrupt', /channel 2: missing/);
  });
});

describe('channel content faults are corrupt', () => {
  it('rejects k values 17 to 31 in every kind of channel', () => {
    for (let k = 17; k <= 31; k++) {
      const badK = { chooseK: (block, best) => (block === 0 ? k : best) };
      for (const type of [1, 2, 16, 19]) {
        const bytes = tampered(1, (p) => { Object.assign(section(p, type).channels[0], badK); });
        expectRejectedKeepingState(0, bytes, 'corrupt', new RegExp(`k = ${k} `));
      }
    }
  });

  it('rejects ids that overflow 32 bits (the only way gap-coded ids stop increasing)', () => {
    const key = tampered(0, (p) => { section(p, 1).channels[0].values.splice(0, 2, 0xfffffff0, 0xffffffff); });
    expectRejectedKeepingState(-1, key, 'corrupt', /id 1 overflows 32 bits/);
    const born = tampered(1, (p) => { section(p, 1).channels[1].values[1] = 0xffffffff; });
    expectRejectedKeepingState(0, born, 'corrupt', /born id 1 overflows/);
  });

  it('rejects a died index past the reference count', () => {
    const bytes = tampered(1, (p) => {
      const died = section(p, 1).channels[0].values;
      died[died.length - 1] += 200;
    });
    expectRejectedKeepingState(0, bytes, 'corrupt', /died index \d+ past the reference count 200/);
  });

  it('rejects a born id equal to a surviving id', () => {
    const plan = stream.plans[1];
    const survivor = stream.snapshots[1].ids.find((id) => stream.snapshots[0].ids.includes(id));
    const bytes = tampered(1, (p) => {
      const bornIds = gapDecode(section(p, 1).channels[1].values);
      bornIds[0] = survivor;
      bornIds.sort((a, b) => a - b);
      section(p, 1).channels[1].values = gapEncode(bornIds);
    });
    expect(plan.header.born).toBeGreaterThan(0);
    expectRejectedKeepingState(0, bytes, 'corrupt', new RegExp(`born id ${survivor} equals a surviving id`));
  });

  it('rejects positions outside [0, 2^N - 1] in key frames, survivors and born particles', () => {
    const keyHigh = tampered(0, (p) => { section(p, 2).channels[1].values[0] = zigzag(4096); });
    expectRejectedKeepingState(-1, keyHigh, 'corrupt', /position outside \[0, 4095\]/);
    const keyNegative = tampered(0, (p) => { section(p, 2).channels[2].values[5] = zigzag(-5000); });
    expectRejectedKeepingState(-1, keyNegative, 'corrupt', /position outside/);
    const survivorWraps = tampered(1, (p) => { section(p, 2).channels[0].values[3] = zigzag(-0x80000000); });
    expectRejectedKeepingState(0, survivorWraps, 'corrupt', /position outside/);
    const survivorHigh = tampered(1, (p) => { section(p, 2).channels[0].values[3] = zigzag(5000); });
    expectRejectedKeepingState(0, survivorHigh, 'corrupt', /position outside/);
    for (const q of [4096, 0x80000000, 0xffffffff]) {
      const born = tampered(1, (p) => {
        const values = section(p, 2).channels[2].values;
        values[values.length - 1] = q;
      });
      expectRejectedKeepingState(0, born, 'corrupt', /position outside/);
    }
  });

  it('rejects velocities outside +-(2^N - 1) in key frames', () => {
    for (const v of [4096, -4096, 0x7fffffff]) {
      const bytes = tampered(0, (p) => { section(p, 3).channels[0].values[7] = zigzag(v); });
      expectRejectedKeepingState(-1, bytes, 'corrupt', /velocity of particle 7 outside \+-4095/);
    }
  });

  it('rejects attributes outside [0, 255]', () => {
    const key = tampered(0, (p) => { section(p, 18).channels[0].values[2] = 256; });
    expectRejectedKeepingState(-1, key, 'corrupt', /attribute temperature outside/);
    const survivor = tampered(1, (p) => { section(p, 16).channels[0].values[0] = zigzag(300); });
    expectRejectedKeepingState(0, survivor, 'corrupt', /attribute speed outside/);
    const survivorNegative = tampered(1, (p) => { section(p, 16).channels[0].values[0] = zigzag(-300); });
    expectRejectedKeepingState(0, survivorNegative, 'corrupt', /attribute speed outside/);
    const born = tampered(1, (p) => {
      const values = section(p, 19).channels[0].values;
      values[values.length - 1] = 0x80000000;
    });
    expectRejectedKeepingState(0, born, 'corrupt', /attribute fluid outside/);
  });

  it('rejects a wrong checksum', () => {
    expectRejectedKeepingState(-1, patched(0, (v) => v.setUint32(72, v.getUint32(72, true) ^ 1, true)), 'corrupt', /checksum/);
    expectRejectedKeepingState(0, patched(1, (v) => v.setUint32(72, v.getUint32(72, true) + 1, true)), 'corrupt', /checksum/);
  });
});

describe('deltas that do not apply are need_key, state kept', () => {
  it('rejects a delta before any key frame', () => {
    expectRejectedKeepingState(-1, stream.frames[1], 'need_key', /no key frame held/);
  });

  it('rejects a skipped frame: the reference is not the held sequence', () => {
    expectRejectedKeepingState(0, stream.frames[2], 'need_key', /reference/);
    expectRejectedKeepingState(0, patched(1, (v) => v.setUint32(20, 99, true)), 'need_key', /reference 99/);
  });

  const streamFields = [
    ['world', (v) => v.setUint32(8, 4, true), /world 4/],
    ['epoch', (v) => v.setUint32(12, 3, true), /epoch 3/],
    ['bits', (v, b) => { b[6] = 16; }, /bits 16/],
    ['tier', (v, b) => { b[7] = 2; }, /tier 2/],
    ['bounds lo', (v) => v.setFloat32(52, -0.5, true), /bounds/],
    ['bounds hi', (v) => v.setFloat32(68, 1.0000001, true), /bounds/],
  ];
  for (const [name, patch, pattern] of streamFields) {
    it(`rejects a delta with another ${name}`, () => {
      expectRejectedKeepingState(0, patched(1, patch), 'need_key', pattern);
    });
  }

  it('rejects a delta whose ref_count differs from the held count', () => {
    const bytes = patched(1, (v) => {
      v.setUint32(36, 201, true);
      v.setUint32(32, v.getUint32(32, true) + 1, true);
    });
    expectRejectedKeepingState(0, bytes, 'need_key', /ref_count 201, held 200/);
  });

  it('rejects a delta with an attribute range that differs from the held one', () => {
    expectRejectedKeepingState(0, tampered(1, (p) => { section(p, 16).hi = 6; }), 'need_key', /speed range differs/);
  });
});

function concat(a, b) {
  const out = new Uint8Array(a.length + b.length);
  out.set(a);
  out.set(b, a.length);
  return out;
}

function assembleSectionBody(sectionPlan) {
  const frame = assembleFrame({
    header: { ...stream.plans[0].header, sectionCount: 1 },
    sections: [sectionPlan],
  });
  return frame.subarray(96);
}

function bodyOffset(view, bytes, type) {
  let offset = 80 + 16 * view.getUint16(76, true);
  for (let entry = 80; bytes[entry] !== type; entry += 16) offset += view.getUint32(entry + 4, true);
  return offset;
}

function gapDecode(gaps) {
  let id = -1;
  return gaps.map((gap) => (id += gap + 1));
}

function gapEncode(ids) {
  return ids.map((id, i) => (i === 0 ? id : id - ids[i - 1] - 1));
}
