// TEST SUPPORT ONLY: parser of a test vector's text input (protocol/vectors/NAME.txt, written by tests/protocol/test_codec_vectors.c).
//
//   # comment                                  (and blank lines: ignored)
//   stream WORLD EPOCH BITS TIER LO0 LO1 LO2 HI0 HI1 HI2
//   attribute NAME LO HI                       (zero or more; their order is the column order)
//   frame SEQUENCE TIME COUNT KIND FILE        (KIND: key, delta or resync)
//   ID X Y Z [ATTRIBUTE VALUES ...]            (COUNT lines, after each frame line)

export function parseVectorText(text) {
  const vector = { stream: null, attributes: [], frames: [] };
  let frame = null;
  let remaining = 0;
  text.split('\n').forEach((rawLine, index) => {
    const line = rawLine.trim();
    if (line === '' || line.startsWith('#')) return;
    const words = line.split(/\s+/);
    const fail = (why) => { throw new Error(`vector text line ${index + 1}: ${why}: ${line}`); };
    if (remaining > 0) {
      const numbers = words.map(Number);
      if (numbers.length !== 4 + vector.attributes.length || numbers.some(Number.isNaN)) fail('bad particle line');
      frame.particles.push({ id: numbers[0], position: numbers.slice(1, 4), attributes: numbers.slice(4) });
      remaining--;
      return;
    }
    if (words[0] === 'stream' && words.length === 11) {
      const n = words.slice(1).map(Number);
      vector.stream = { world: n[0], epoch: n[1], bits: n[2], tier: n[3], lo: n.slice(4, 7).map(Math.fround), hi: n.slice(7, 10).map(Math.fround) };
    } else if (words[0] === 'attribute' && words.length === 4) {
      vector.attributes.push({ name: words[1], lo: Math.fround(Number(words[2])), hi: Math.fround(Number(words[3])) });
    } else if (words[0] === 'frame' && words.length === 6) {
      frame = { sequence: Number(words[1]), time: Number(words[2]), kind: words[4], file: words[5], particles: [] };
      if (!['key', 'delta', 'resync'].includes(frame.kind)) fail('unknown frame kind');
      remaining = Number(words[3]);
      vector.frames.push(frame);
    } else {
      fail('unknown line');
    }
  });
  if (remaining !== 0) throw new Error(`vector text ends ${remaining} particle lines short`);
  if (!vector.stream) throw new Error('vector text has no stream line');
  return vector;
}
