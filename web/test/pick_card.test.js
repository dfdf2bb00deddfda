// The picked particle's card rows: units, vectors, and a world without temperature.
import { describe, it, expect } from 'vitest';
import { pickRows } from '../src/ui/pick_card.js';

describe('pickRows', () => {
  it('lists id, fluid, position, velocity, speed, density and temperature with units', () => {
    const rows = pickRows({
      id: 1234, fluid: 0, position: [0.1, 0.25, 0.3333333], velocity: [0.5, -1.25, 0], speed: 1.3463, density: 1002.345, temperature: 293.15,
    });
    expect(rows.map((r) => r[0])).toEqual(['id', 'fluid', 'position', 'velocity', 'speed', 'density', 'temperature']);
    expect(Object.fromEntries(rows.map(([f, , text]) => [f, text]))).toEqual({
      id: '1234', fluid: '0', position: '(0.1, 0.25, 0.333) m', velocity: '(0.5, -1.25, 0) m/s', speed: '1.346 m/s', density: '1002 kg/m³', temperature: '293.1 K',
    });
  });

  it('names the fluid from the world\'s fluids, and gives the index when they do not name it', () => {
    const particle = { id: 7, fluid: 1, position: [0, 0, 0], velocity: [0, 0, 0], speed: 0, density: 1000, temperature: 293.15 };
    const fluidOf = (fluids) => Object.fromEntries(pickRows(particle, fluids).map(([f, , t]) => [f, t])).fluid;
    expect(fluidOf([{ name: 'water' }, { name: 'honey' }])).toBe('honey');
    expect(fluidOf([{ name: 'water' }])).toBe('1');
    expect(fluidOf(undefined)).toBe('1');
  });

  it('says so when the world has no temperature, and dashes for missing values', () => {
    const rows = Object.fromEntries(pickRows({ id: 1, fluid: 1, position: [0, 0, 0], velocity: null, speed: null, density: 998, temperature: null }).map(([f, , t]) => [f, t]));
    expect(rows.temperature).toBe('none in this world');
    expect(rows.velocity).toBe('–');
    expect(rows.speed).toBe('–');
  });
});
