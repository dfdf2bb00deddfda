// "See inside": a scene's view as settings, the cutaway plane, the opacity table, when frames need fluids.
import { describe, it, expect } from 'vitest';
import { clipPlane, isKept, middleOf, needsFluids, opacityTable, viewSettings } from '../src/render/see_inside.js';

const fluids = [{ name: 'water' }, { name: 'wax' }];
const domain = { min: [0, 0, 0], max: [0.12, 0.3, 0.12] };

describe('viewSettings', () => {
  it('reads hidden fluids, opacities, the cutaway and the size by fluid name', () => {
    const s = viewSettings({ hide: ['water'], opacity: { wax: 0.4 }, cutaway: { axis: 'z', at: 0.06, keep: 'above' }, particle_size: 0.5 }, fluids, domain);
    expect([...s.hidden]).toEqual([0]);
    expect(s.opacity[1]).toBe(0.4);
    expect(s.opacity[0]).toBeUndefined();
    expect(s.cut).toEqual({ axis: 'z', at: 0.06, keep: 'above' });
    expect(s.size).toBe(0.5);
  });

  it('defaults to everything shown, opaque, uncut, size 1; never hides every fluid', () => {
    for (const view of [null, undefined, {}, { colour: 'fluid' }]) {
      const s = viewSettings(view, fluids, domain);
      expect(s.hidden.size).toBe(0);
      expect(s.cut).toBeNull();
      expect(s.size).toBe(1);
    }
    expect(viewSettings({ hide: ['water', 'wax'] }, fluids).hidden.size).toBe(0);
    expect(viewSettings({ hide: ['nothing'] }, fluids).hidden.size).toBe(0);
  });

  it('keeps a cutaway inside the domain and keep below by default', () => {
    expect(viewSettings({ cutaway: { axis: 'y', at: 5 } }, fluids, domain).cut).toEqual({ axis: 'y', at: 0.3, keep: 'below' });
    expect(viewSettings({ cutaway: { axis: 'w', at: 0.1 } }, fluids, domain).cut).toBeNull();
  });
});

describe('clipPlane', () => {
  it('keeps the side of smaller coordinates for keep below, larger for above', () => {
    const below = clipPlane({ axis: 'z', at: 0.05, keep: 'below' });
    expect(isKept(below, [0.1, 0.1, 0.04])).toBe(true);
    expect(isKept(below, [0.1, 0.1, 0.06])).toBe(false);
    const above = clipPlane({ axis: 'x', at: -1, keep: 'above' });
    expect(isKept(above, [-0.5, 9, 9])).toBe(true);
    expect(isKept(above, [-1.5, 0, 0])).toBe(false);
    expect(above.normal).toEqual([1, 0, 0]);
    expect(above.constant).toBe(1);
  });

  it('is null without a cutaway, and then keeps every point', () => {
    expect(clipPlane(null)).toBeNull();
    expect(isKept(null, [1e9, 0, 0])).toBe(true);
  });

  it('starts a new cutaway in the middle of the domain', () => {
    expect(middleOf(domain, 'y')).toBeCloseTo(0.15, 12);
  });
});

describe('opacityTable and needsFluids', () => {
  it('fills missing fluids with 1 and clamps to [0.05, 1]', () => {
    const table = opacityTable([undefined, 0.01, 2, 0.5]);
    expect(table.length).toBe(16);
    expect(Array.from(table.subarray(0, 5))).toEqual([1, Math.fround(0.05), 1, 0.5, 1]);
  });

  it('asks for the fluid attribute only when fluids are drawn differently', () => {
    const s = viewSettings({}, fluids);
    expect(needsFluids(s, 2)).toBe(false);
    expect(needsFluids(viewSettings({ opacity: { water: 0.3 } }, fluids), 2)).toBe(true);
    expect(needsFluids(viewSettings({ opacity: { water: 0.3 } }, fluids.slice(0, 1)), 1)).toBe(false); // one fluid: all alike
    expect(needsFluids(viewSettings({ hide: ['wax'] }, fluids), 2)).toBe(true);
  });
});
