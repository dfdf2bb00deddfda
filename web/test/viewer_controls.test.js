// The workshop controls' logic: room links and the tab's token, real-time factor, rebuild progress text, unstable headline, world labels, overlay formats.
import { describe, it, expect } from 'vitest';
import { rememberToken, roomLink, sessionToken, withAttribute, withoutToken } from '../src/links.js';
import { RealtimeFactor } from '../src/util/realtime_factor.js';
import { busyText } from '../src/ui/busy_indicator.js';
import { unstableHeadline } from '../src/ui/unstable_banner.js';
import { worldLabel } from '../src/ui/toolbar.js';
import { formatBackend, formatConnection, formatRealtime, formatTimeStep } from '../src/ui/status_overlay.js';
import { checkNumber, formatBound, prettyUnit } from '../src/ui/field_check.js';
import { defaultCollider } from '../src/ui/collider_list.js';

class MemoryStorage {
  constructor() { this.items = new Map(); }
  getItem(k) { return this.items.has(k) ? this.items.get(k) : null; }
  setItem(k, v) { this.items.set(k, String(v)); }
  removeItem(k) { this.items.delete(k); }
}

describe('links', () => {
  it('keeps the colour mode in the room link and the address, never the token', () => {
    const href = 'http://host:8080/?world=2&token=secret&attribute=speed';
    expect(roomLink(href, 3, { attribute: 'density' })).toBe('http://host:8080/?world=3&attribute=density');
    expect(roomLink(href, 3)).toBe('http://host:8080/?world=3');
    expect(withAttribute('http://h/?world=1', 'speed')).toBe('http://h/?world=1&attribute=speed');
    expect(withAttribute('http://h/?world=1&attribute=speed', null)).toBe('http://h/?world=1');
    expect(withAttribute('http://h/?world=1', 'pressure')).toBe('http://h/?world=1');
  });

  it('removes the token from the address and keeps it for the tab', () => {
    expect(withoutToken('http://h/?world=1&token=abc&attribute=fluid')).toBe('http://h/?world=1&attribute=fluid');
    const storage = new MemoryStorage();
    expect(sessionToken({ token: 'abc' }, storage)).toBe('abc');
    expect(sessionToken({ token: null }, storage)).toBe('abc'); // a reload without ?token keeps control
    rememberToken(null, storage); // refused: forgotten
    expect(sessionToken({ token: null }, storage)).toBeNull();
    expect(sessionToken({ token: null }, { getItem() { throw new Error('denied'); } })).toBeNull();
  });
});

describe('RealtimeFactor', () => {
  it('measures simulated seconds per wall second over its window', () => {
    const rtf = new RealtimeFactor(2000);
    expect(rtf.value(0)).toBeNull();
    for (let ms = 0; ms <= 3000; ms += 100) rtf.add(ms, ms / 1000 / 4); // a quarter of real time
    expect(rtf.value(3000)).toBeCloseTo(0.25, 6);
  });

  it('starts over when time goes back (reset, rewind)', () => {
    const rtf = new RealtimeFactor(2000);
    rtf.add(0, 5);
    rtf.add(1000, 6);
    rtf.add(1100, 0);
    expect(rtf.value(1100)).toBeNull();
    rtf.add(2100, 2);
    expect(rtf.value(2100)).toBeCloseTo(2, 6);
  });
});

describe('texts', () => {
  it('says how a rebuild goes: elapsed time, the server\'s phase and share', () => {
    expect(busyText('Resetting to the scene', 2345, null)).toBe('Resetting to the scene… 2.3 s');
    expect(busyText('Loading big', 500, { task: 'build', done: 2, total: 5, message: 'sampling boundary' })).toBe('Loading big… 0.5 s · sampling boundary 40%');
  });

  it('names what blew up in words', () => {
    expect(unstableHeadline({ check: 'speed', time: 1.234 })).toBe('The simulation blew up at t = 1.23 s and paused: particles moved too fast.');
    expect(unstableHeadline({ check: 'something_new' })).toBe('The simulation blew up and paused: something_new.');
  });

  it('labels a world with its current scene, not the one it was created with', () => {
    const w = { id: 1, name: 'dam_break', scene: 'dam_break' };
    expect(worldLabel(w, { world: 1, scene: 'fountain', name: 'dam_break' })).toBe('1: dam_break · fountain');
    expect(worldLabel(w, { world: 2, scene: 'fountain', name: 'x' })).toBe('1: dam_break');
    expect(worldLabel({ id: 3, name: 'demo', scene: 'fountain', hidden: true }, { world: 1 })).toBe('3: demo · fountain (hidden)');
  });

  it('shows the real-time factor and the retry countdown', () => {
    expect(formatRealtime(1.0, false)).toBe('1.00× real time');
    expect(formatRealtime(0.25, false)).toBe('0.25× real time (slower)');
    expect(formatRealtime(12.3, false)).toBe('12× faster than real time');
    expect(formatRealtime(null, false)).toBe('–');
    expect(formatRealtime(1, true)).toBe('paused');
    expect(formatConnection('closed', 2300)).toBe('lost · retry in 3 s');
    expect(formatConnection('open', null)).toBe('open');
  });

  it('says where the world steps: backend and device', () => {
    expect(formatBackend('cpu', 'AMD EPYC')).toBe('cpu · AMD EPYC');
    expect(formatBackend('cuda', 'NVIDIA H100 80GB HBM3')).toBe('cuda · NVIDIA H100 80GB HBM3');
    expect(formatBackend('cpu', '')).toBe('cpu');
    expect(formatBackend(null, null)).toBe('–');
  });

  it('shows the adaptive time step and what bounds it', () => {
    expect(formatTimeStep(0.0004, 'acoustic')).toBe('0.4 ms · sound speed limit');
    expect(formatTimeStep(0.0005, 'time_step')).toBe('0.5 ms · the maximum step');
    expect(formatTimeStep(0.002, 'fixed')).toBe('2 ms · fixed');
    expect(formatTimeStep(0.0000123, 'force')).toBe('0.012 ms · strongest force');
    expect(formatTimeStep(0.001, 'newer_condition')).toBe('1 ms · newer_condition');
    expect(formatTimeStep(null, null)).toBe('–');
  });
});

describe('checkNumber', () => {
  const spec = { label: 'Emitter #2 rate', min: 0, max: 1e7, unit: '1/s' };
  it('accepts plain and exponent numbers in range', () => {
    expect(checkNumber(' 2.5e3 ', spec)).toEqual({ value: 2500 });
    expect(checkNumber('.5', spec)).toEqual({ value: 0.5 });
  });
  it('refuses the rest with the field\'s name and range', () => {
    expect(checkNumber('1e400', spec).error).toBe('Emitter #2 rate: 1e400 is too large; enter a number from 0 to 1e7 1/s');
    expect(checkNumber('-1', spec).error).toMatch(/out of range/);
    expect(checkNumber('12abc', spec).error).toMatch(/“12abc” is not a number/);
    expect(checkNumber('0x10', spec).error).toMatch(/not a number/);
  });
  it('writes bounds and units for people', () => {
    expect(formatBound(1e-6)).toBe('1e-6');
    expect(formatBound(0.02)).toBe('0.02');
    expect(prettyUnit('m/s^2')).toBe('m/s²');
    expect(prettyUnit('1')).toBe('');
  });
});

describe('defaultCollider', () => {
  it('fits inside the domain', () => {
    const domain = { min: [0, 0, 0], max: [2, 1, 0.5] };
    for (const shape of ['sphere', 'box']) {
      const c = defaultCollider(domain, shape);
      const half = shape === 'sphere' ? [c.radius, c.radius, c.radius] : c.half_extents;
      for (let i = 0; i < 3; i++) {
        expect(c.position[i] - half[i]).toBeGreaterThan(domain.min[i]);
        expect(c.position[i] + half[i]).toBeLessThan(domain.max[i]);
      }
    }
  });
});
