// The scene picker's words: size, slow on a CPU, description.
import { describe, it, expect } from 'vitest';
import { SLOW_ON_CPU_PARTICLES, particleCount, sceneLabel, sceneTitle, slowOnCpu } from '../src/ui/scene_words.js';

const dam = { name: 'dam_break', description: 'A water column collapses', particles: 22500, dimensions: 3 };
const flat = { name: 'dam_break_2d', description: '2D', particles: 4550, dimensions: 2 };

describe('scene words', () => {
  it('says a large 3D scene is slow on a CPU, not on a GPU', () => {
    expect(slowOnCpu(dam)).toBe(true);
    expect(sceneLabel(dam, 'cpu')).toBe('dam_break (23k particles, slow on a CPU)');
    expect(sceneLabel(dam, 'cuda')).toBe('dam_break (23k particles)');
    expect(sceneTitle(dam, 'cpu')).toMatch(/^A water column collapses\nSlow on a CPU/);
    expect(sceneTitle(dam, 'cuda')).toBe('A water column collapses');
  });

  it('lets a 2D scene have twice the particles before it is slow', () => {
    expect(slowOnCpu({ particles: 1.5 * SLOW_ON_CPU_PARTICLES, dimensions: 2 })).toBe(false);
    expect(slowOnCpu({ particles: 1.5 * SLOW_ON_CPU_PARTICLES, dimensions: 3 })).toBe(true);
    expect(sceneLabel(flat, 'cpu')).toBe('dam_break_2d (4,550 particles)');
  });

  it('shows the name alone for a server that does not send sizes', () => {
    expect(sceneLabel({ name: 'x', description: 'y' }, 'cpu')).toBe('x');
    expect(slowOnCpu({ name: 'x' })).toBe(false);
    expect(particleCount(999)).toBe('999');
  });
});
