// The particle mode: point sprites on software renderers, instanced quads on GPUs, the link's choice first.
import { describe, it, expect } from 'vitest';
import { isSoftwareRenderer, particleMode } from '../src/render/renderer_info.js';

const SWIFTSHADER = 'ANGLE (Google, Vulkan 1.3.0 (SwiftShader Device (Subzero) (0x0000C0DE)), SwiftShader driver)';

describe('particleMode', () => {
  it('draws point sprites on software renderers and quads on GPUs', () => {
    expect(particleMode(SWIFTSHADER)).toBe('points');
    expect(particleMode('llvmpipe (LLVM 15.0.6, 256 bits)')).toBe('points');
    expect(particleMode('ANGLE (NVIDIA, NVIDIA GeForce RTX 3060 Direct3D11 vs_5_0 ps_5_0, D3D11)')).toBe('quads');
    expect(particleMode('Apple M2')).toBe('quads');
    expect(particleMode('')).toBe('quads');
  });

  it('lets the link choose', () => {
    expect(particleMode(SWIFTSHADER, 'quads')).toBe('quads');
    expect(particleMode('Apple M2', 'points')).toBe('points');
    expect(particleMode('Apple M2', 'voxels')).toBe('quads');
  });

  it('recognises software renderers by name', () => {
    expect(isSoftwareRenderer(SWIFTSHADER)).toBe(true);
    expect(isSoftwareRenderer('Mesa Intel(R) UHD Graphics 620 (KBL GT2)')).toBe(false);
  });
});
