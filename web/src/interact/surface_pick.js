// Where a pointer ray meets the scene's solid surfaces: the tank's inner walls and the colliders, with the normal into the fluid.
import { Box3, Quaternion, Ray, Vector3 } from 'three';
import { colliderRotation } from '../util/pose.js';

const EPSILON = 1e-9;

/**
 * The point where `ray` (three.js Ray) leaves the domain box {min, max}: seen from outside, the
 * wall behind the (transparent) front walls; seen from inside, the wall ahead. The normal points
 * into the domain. Returns {point, normal, distance, surface: 'wall'} or null.
 */
export function domainWallHit(ray, domain) {
  let tNear = -Infinity;
  let tFar = Infinity;
  let farAxis = -1;
  let farSign = 0;
  for (let axis = 0; axis < 3; axis++) {
    const o = ray.origin.getComponent(axis);
    const d = ray.direction.getComponent(axis);
    const lo = domain.min[axis];
    const hi = domain.max[axis];
    if (Math.abs(d) < EPSILON) {
      if (o < lo || o > hi) return null;
      continue;
    }
    let t0 = (lo - o) / d;
    let t1 = (hi - o) / d;
    if (t0 > t1) [t0, t1] = [t1, t0];
    tNear = Math.max(tNear, t0);
    if (t1 < tFar) {
      tFar = t1;
      farAxis = axis;
      farSign = d > 0 ? 1 : -1;
    }
  }
  if (tNear > tFar || tFar < 0 || farAxis < 0) return null;
  const point = ray.at(tFar, new Vector3());
  const normal = new Vector3();
  normal.setComponent(farAxis, -farSign); // the exit wall faces back into the box
  return { point, normal, distance: tFar, surface: 'wall' };
}

/** Where the ray enters collider {shape: 'sphere'|'box', position, radius, half_extents}; normal outward. */
export function colliderHit(ray, collider) {
  const centre = new Vector3().fromArray(collider.position);
  let point = null;
  let normal = null;
  if (collider.shape === 'sphere') {
    const oc = ray.origin.clone().sub(centre);
    const b = oc.dot(ray.direction);
    const c = oc.lengthSq() - collider.radius * collider.radius;
    const h = b * b - c;
    if (h < 0) return null;
    const t = -b - Math.sqrt(h);
    if (t < 0) return null; // behind the camera, or the camera is inside it
    point = ray.at(t, new Vector3());
    normal = point.clone().sub(centre).normalize();
  } else if (collider.shape === 'box') {
    // in the box's own frame (turned by its rotation), where it is axis-aligned about the origin
    const turn = new Quaternion().setFromEuler(colliderRotation(collider));
    const back = turn.clone().invert();
    const localRay = new Ray(ray.origin.clone().sub(centre).applyQuaternion(back), ray.direction.clone().applyQuaternion(back));
    const half = new Vector3().fromArray(collider.half_extents);
    const localPoint = localRay.intersectBox(new Box3(half.clone().negate(), half), new Vector3());
    if (!localPoint) return null;
    const onFace = localPoint.clone().divide(half); // on the face: one component is ±1
    const axis = [0, 1, 2].reduce((best, a) => (Math.abs(onFace.getComponent(a)) > Math.abs(onFace.getComponent(best)) ? a : best), 0);
    normal = new Vector3();
    normal.setComponent(axis, Math.sign(onFace.getComponent(axis)));
    normal.applyQuaternion(turn);
    point = localPoint.applyQuaternion(turn).add(centre);
  } else {
    return null;
  }
  return { point, normal, distance: point.distanceTo(ray.origin), surface: 'collider', collider: collider.id };
}

/** The nearest surface hit: a collider in front of the far wall, else the far wall. */
export function surfaceHit(ray, domain, colliders = []) {
  let best = domainWallHit(ray, domain);
  for (const collider of colliders) {
    const hit = colliderHit(ray, collider);
    if (hit && (!best || hit.distance < best.distance)) best = hit;
  }
  return best;
}

/** Clamps a point into the domain shrunk by margin on every side (keeps it valid for the server). */
export function clampIntoDomain(point, domain, margin = 0) {
  return [0, 1, 2].map((axis) => {
    const lo = domain.min[axis] + margin;
    const hi = domain.max[axis] - margin;
    const x = point[axis];
    return lo > hi ? (domain.min[axis] + domain.max[axis]) / 2 : Math.max(lo, Math.min(hi, x));
  });
}

/** Emitter at a surface hit: offset along the normal, clamped inside, pointing along the normal. */
export function emitterAtHit(hit, domain, { radius, offset }) {
  const position = hit.point.clone().addScaledVector(hit.normal, offset).toArray();
  return {
    position: clampIntoDomain(position, domain, Math.min(offset, radius)),
    direction: hit.normal.toArray(),
  };
}
