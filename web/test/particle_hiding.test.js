// Hiding fluids in the particle layer: the shader's mask follows "hide" and "show" at once when the
// last frame carried the fluids (a paused world sends no frame to wait for), and never hides by
// fluid values that no frame delivered.
import { describe, it, expect } from 'vitest';
import { ParticleLayer } from '../src/render/particle_layer.js';

function frame({ withFluid }) {
  const count = 4;
  const attributes = withFluid ? { fluid: { values: new Uint8Array([0, 1, 0, 1]), lo: 0, hi: 1 } } : {};
  return { count, positions: new Uint16Array(3 * count), attributes, lo: [0, 0, 0], hi: [1, 1, 1], bits: 16 };
}

const mask = (layer) => layer.material.uniforms.hiddenFluids.value;

describe('ParticleLayer hidden fluids', () => {
  it('shows a hidden fluid again without waiting for a frame', () => {
    const layer = new ParticleLayer();
    layer.setHiddenFluids([1]);
    layer.update(frame({ withFluid: true }));
    expect(mask(layer)).toBe(2);
    layer.setHiddenFluids([]);
    expect(mask(layer)).toBe(0);
  });

  it('hides at once when the last frame carried the fluids, and waits for them when it did not', () => {
    const layer = new ParticleLayer();
    layer.update(frame({ withFluid: true }), 'fluid');
    layer.setHiddenFluids([1]);
    expect(mask(layer)).toBe(2);
    expect(Array.from(layer.mesh.geometry.getAttribute('particleFluid').array.slice(0, 4))).toEqual([0, 1, 0, 1]);

    const other = new ParticleLayer();
    other.update(frame({ withFluid: false }));
    other.setHiddenFluids([1]);
    expect(mask(other)).toBe(0);
    other.update(frame({ withFluid: true }));
    expect(mask(other)).toBe(2);
    other.update(frame({ withFluid: false }));
    expect(mask(other)).toBe(0);
  });

  it('hides only the first 24 fluids (the mask is a float in the shader)', () => {
    const layer = new ParticleLayer();
    layer.update(frame({ withFluid: true }));
    layer.setHiddenFluids([0, 23, 24, -1]);
    expect(mask(layer)).toBe(1 + 2 ** 23);
  });
});
