// TEST SUPPORT ONLY: ready-made encoded streams (key frame, then deltas) for decoder tests.
import { StreamEncoder } from './stream_encoder.js';
import { assembleFrame } from './frame_writer.js';
import { syntheticSnapshots, SYNTHETIC_ATTRIBUTE_RANGES } from './synthetic_particles.js';

/**
 * Encodes synthetic snapshots: frame 0 (and every keyEvery-th) is a key frame, the rest deltas.
 * Returns { encoder, snapshots, frames: [Uint8Array], plans: [plan] }.
 */
export function encodedStream({
  seed = 1, count = 300, frames = 6, births = 5, deaths = 5, bits = 16, tier = 1,
  lo = [0, 0, 0], hi = [1, 1, 1], attributes = ['speed', 'density', 'temperature', 'fluid'],
  keyEvery = 0, world = 3, epoch = 2, outsideBounds = false,
} = {}) {
  const snapshots = syntheticSnapshots({ seed, count, frames, births, deaths, lo, hi, tier, outsideBounds });
  for (const snapshot of snapshots) {
    snapshot.attributes = Object.fromEntries(attributes.map((name) => [name, snapshot.attributes[name]]));
  }
  const encoder = new StreamEncoder({ world, epoch, bits, tier, lo, hi, attributeRanges: SYNTHETIC_ATTRIBUTE_RANGES });
  const plans = [];
  const encoded = snapshots.map((snapshot, f) => {
    let planned;
    if (f === 0) planned = encoder.planKey(snapshot);
    else if (keyEvery > 0 && f % keyEvery === 0) planned = encoder.planKeyContinuing(snapshot);
    else planned = encoder.planDelta(snapshot);
    encoder.state = planned.state;
    plans.push(planned.plan);
    return assembleFrame(planned.plan);
  });
  return { encoder, snapshots, frames: encoded, plans };
}
