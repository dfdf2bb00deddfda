// TEST SUPPORT ONLY: a seeded PRNG (mulberry32) so that randomized tests are reproducible.

export function makeRandom(seed) {
  let state = seed >>> 0;
  const next = () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  return {
    /** Uniform in [0, 1). */
    next,
    /** Uniform integer in [0, n). */
    int: (n) => Math.floor(next() * n),
    /** Uniform in [lo, hi). */
    range: (lo, hi) => lo + (hi - lo) * next(),
  };
}
