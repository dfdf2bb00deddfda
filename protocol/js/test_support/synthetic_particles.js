// TEST SUPPORT ONLY: smoothly moving particle sets with births and deaths, as encoder input.
import { makeRandom } from './prng.js';

const TWO_PI = 2 * Math.PI;

/**
 * Snapshots of `count` particles (about) moving on smooth orbits inside [lo, hi], `frames`
 * snapshots `dt` apart; each snapshot after the first loses `deaths` and gains `births` particles
 * (born ids drawn from the unused ids below 2 * count + births * frames, so they interleave with
 * survivors). Includes all four attributes.
 */
export function syntheticSnapshots({
  seed = 1, count = 1000, frames = 10, births = 0, deaths = 0, dt = 1 / 30,
  lo = [0, 0, 0], hi = [1, 1, 1], tier = 1, outsideBounds = false,
} = {}) {
  const random = makeRandom(seed);
  const idSpace = 2 * count + births * frames;
  const particles = new Map();
  const spawn = (id) => {
    const orbit = [0, 1, 2].map((a) => {
      const extent = hi[a] - lo[a];
      const amplitude = extent * random.range(0.02, 0.08);
      const margin = outsideBounds ? -0.1 * extent : amplitude;
      return {
        centre: random.range(lo[a] + margin, hi[a] - margin),
        amplitude,
        omega: random.range(1, 3),
        phase: random.range(0, TWO_PI),
      };
    });
    particles.set(id, { orbit, fluid: random.int(4) });
  };
  const unusedId = () => {
    for (;;) {
      const id = random.int(idSpace);
      if (!particles.has(id)) return id;
    }
  };
  for (let i = 0; i < count; i++) spawn(unusedId());
  const snapshots = [];
  for (let f = 0; f < frames; f++) {
    if (f > 0) {
      const alive = [...particles.keys()];
      for (let d = 0; d < Math.min(deaths, alive.length); d++) {
        const pick = random.int(alive.length);
        particles.delete(alive[pick]);
        alive[pick] = alive[alive.length - 1];
        alive.pop();
      }
      for (let b = 0; b < births; b++) spawn(unusedId());
    }
    const sequence = f * tier;
    snapshots.push(snapshotAt(particles, sequence, sequence * dt));
  }
  return snapshots;
}

function snapshotAt(particles, sequence, time) {
  const ids = [...particles.keys()].sort((a, b) => a - b);
  const positions = new Float64Array(3 * ids.length);
  const speed = [];
  const density = [];
  const temperature = [];
  const fluid = [];
  ids.forEach((id, i) => {
    const particle = particles.get(id);
    let speedSquared = 0;
    particle.orbit.forEach((o, a) => {
      const angle = o.omega * time + o.phase;
      positions[3 * i + a] = Math.fround(o.centre + o.amplitude * Math.sin(angle));
      speedSquared += (o.amplitude * o.omega * Math.cos(angle)) ** 2;
    });
    speed.push(Math.sqrt(speedSquared));
    density.push(1000 + 150 * Math.sin(time + id));
    temperature.push(300 + 20 * Math.cos(0.5 * time + id));
    fluid.push(particle.fluid);
  });
  return { sequence, time, ids, positions, attributes: { speed, density, temperature, fluid } };
}

export const SYNTHETIC_ATTRIBUTE_RANGES = {
  speed: [0, 5],
  density: [800, 1200],
  temperature: [273.15, 373.15],
  fluid: [0, 255],
};
