// Pointer rays against the tank's inner walls and the colliders; where an emitter lands and where it points.
import { describe, it, expect } from 'vitest';
import { Ray, Vector3 } from 'three';
import { clampIntoDomain, colliderHit, domainWallHit, emitterAtHit, surfaceHit } from '../src/interact/surface_pick.js';

const DOMAIN = { min: [0, 0, 0], max: [1.6, 0.9, 0.6] };
const ray = (origin, direction) => new Ray(new Vector3(...origin), new Vector3(...direction).normalize());
const close = (v, expected) => expected.forEach((x, i) => expect(v.getComponent(i)).toBeCloseTo(x, 9));

describe('domainWallHit', () => {
  it('hits the floor through the open front when looking down from outside, normal up', () => {
    const hit = domainWallHit(ray([0.8, 2, 3], [0, -2, -2.7]), DOMAIN);
    close(hit.point, [0.8, 0, 0.3]);
    close(hit.normal, [0, 1, 0]);
  });

  it('hits the back wall when looking straight in, normal towards the viewer', () => {
    const hit = domainWallHit(ray([0.5, 0.4, 5], [0, 0, -1]), DOMAIN);
    close(hit.point, [0.5, 0.4, 0]);
    close(hit.normal, [0, 0, 1]);
    expect(hit.distance).toBeCloseTo(5, 9);
  });

  it('hits the wall ahead from inside, and misses when the box is behind or beside the ray', () => {
    const hit = domainWallHit(ray([0.8, 0.4, 0.3], [1, 0, 0]), DOMAIN);
    close(hit.point, [1.6, 0.4, 0.3]);
    close(hit.normal, [-1, 0, 0]);
    expect(domainWallHit(ray([0.5, 0.4, 5], [0, 0, 1]), DOMAIN)).toBeNull();
    expect(domainWallHit(ray([3, 0.4, 5], [0, 0, -1]), DOMAIN)).toBeNull();
  });
});

describe('colliderHit', () => {
  it('enters a sphere with the outward normal', () => {
    const hit = colliderHit(ray([0.7, 0.1, 3], [0, 0, -1]), { id: 4, shape: 'sphere', position: [0.7, 0.1, 0.3], radius: 0.08 });
    close(hit.point, [0.7, 0.1, 0.38]);
    close(hit.normal, [0, 0, 1]);
    expect(hit.collider).toBe(4);
  });

  it('enters a box on the face it meets, normal outward', () => {
    const box = { id: 2, shape: 'box', position: [1, 0.2, 0.3], half_extents: [0.1, 0.2, 0.1] };
    const hit = colliderHit(ray([1, 2, 0.3], [0, -1, 0]), box);
    close(hit.point, [1, 0.4, 0.3]);
    close(hit.normal, [0, 1, 0]);
    expect(colliderHit(ray([3, 2, 0.3], [0, -1, 0]), box)).toBeNull();
  });

  it('enters a box turned 45 degrees about z on a turned face, with that face normal outward', () => {
    // half extents 0.1 x 0.1: the turned square's top corner is 0.1 sqrt(2) above the centre
    const box = { id: 3, shape: 'box', position: [1, 0.2, 0.3], half_extents: [0.1, 0.1, 0.1], rotation: [0, 0, 45] };
    const hit = colliderHit(ray([1.02, 2, 0.3], [0, -1, 0]), box);
    close(hit.point, [1.02, 0.2 + 0.1 * Math.SQRT2 - 0.02, 0.3]);
    close(hit.normal, [Math.SQRT1_2, Math.SQRT1_2, 0]);
    // the turned square reaches 0.1 sqrt(2) to the side, the axis-aligned one 0.1
    expect(colliderHit(ray([1.12, 2, 0.3], [0, -1, 0]), box)).not.toBeNull();
    expect(colliderHit(ray([1.12, 2, 0.3], [0, -1, 0]), { ...box, rotation: undefined })).toBeNull();
    expect(colliderHit(ray([1.15, 2, 0.3], [0, -1, 0]), box)).toBeNull();
  });
});

describe('surfaceHit and emitter placement', () => {
  const sphere = { id: 1, shape: 'sphere', position: [0.8, 0.1, 0.3], radius: 0.1 };

  it('prefers a collider in front of the floor, and the floor where the ray misses it', () => {
    expect(surfaceHit(ray([0.8, 2, 0.3], [0, -1, 0]), DOMAIN, [sphere]).surface).toBe('collider');
    const floor = surfaceHit(ray([0.3, 2, 0.3], [0, -1, 0]), DOMAIN, [sphere]);
    expect(floor.surface).toBe('wall');
    close(floor.normal, [0, 1, 0]);
  });

  it('places an emitter off the surface along its normal, pointing along it, inside the domain', () => {
    const hit = surfaceHit(ray([0.3, 2, 0.3], [0, -1, 0]), DOMAIN, []);
    const emitter = emitterAtHit(hit, DOMAIN, { radius: 0.05, offset: 0.04 });
    expect(emitter.position[1]).toBeCloseTo(0.04, 9);
    expect(emitter.direction).toEqual([0, 1, 0]);
    const corner = emitterAtHit({ point: new Vector3(0, 0.4, 0.3), normal: new Vector3(1, 0, 0) }, DOMAIN, { radius: 0.05, offset: 0.04 });
    expect(corner.position[0]).toBeCloseTo(0.04, 9);
  });

  it('clamps points into the shrunken domain', () => {
    expect(clampIntoDomain([-1, 0.5, 9], DOMAIN, 0.1)).toEqual([0.1, 0.5, 0.5]);
    expect(clampIntoDomain([0.5, 0.5, 0.5], { min: [0, 0, 0], max: [0.1, 1, 1] }, 0.2)[0]).toBeCloseTo(0.05, 12);
  });
});
