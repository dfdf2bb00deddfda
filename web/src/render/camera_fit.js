// Camera framing: the distance at which a box fills the free part of the view, the bounds of a frame's particles, and moving the orbit camera onto a box.
import { Vector3 } from 'three';

/** Direction the camera looks from, relative to the box's centre: in front, to the right, above. */
export const VIEW_DIRECTION = new Vector3(0.55, 0.6, 1.25).normalize();

/**
 * Distance from the centre of a sphere of `radius` at which it fits a view of vertical field of
 * view `fovDegrees` and width/height `aspect` (the narrower of the two angles counts), with 5 % to spare.
 */
export function fitDistance(radius, fovDegrees, aspect) {
  const fov = (fovDegrees * Math.PI) / 180;
  const fit = Math.min(fov, 2 * Math.atan(Math.tan(fov / 2) * aspect));
  return (radius / Math.sin(fit / 2)) * 0.95;
}

/** The box holding every particle of a decoded frame ({count, bits, lo, hi, positions}), in m; null for none. */
export function particleBounds(frame) {
  if (!frame || !frame.count) return null;
  const shift = 16 - frame.bits;
  const qmin = [Infinity, Infinity, Infinity];
  const qmax = [-Infinity, -Infinity, -Infinity];
  const { positions } = frame;
  for (let i = 0; i < frame.count; i++) {
    for (let k = 0; k < 3; k++) {
      const q = positions[3 * i + k] >>> shift;
      if (q < qmin[k]) qmin[k] = q;
      if (q > qmax[k]) qmax[k] = q;
    }
  }
  const maxQ = 2 ** frame.bits - 1;
  const at = (q, k) => frame.lo[k] + (q * (frame.hi[k] - frame.lo[k])) / maxQ;
  return { min: qmin.map(at), max: qmax.map(at) };
}

/**
 * Points the viewer's camera (and orbit target) at the box [min, max] grown by `margin` m,
 * from VIEW_DIRECTION, at the distance that fits it beside the side panel. Returns the distance.
 */
export function frameBox(viewer, min, max, margin = 0) {
  const lo = new Vector3().fromArray(min).subScalar(margin);
  const hi = new Vector3().fromArray(max).addScalar(margin);
  const centre = lo.clone().add(hi).multiplyScalar(0.5);
  const radius = Math.max(hi.distanceTo(lo) / 2, 1e-3);
  const width = viewer.host.clientWidth;
  const freeAspect = (width - Math.min(viewer.insetRight, width / 2)) / Math.max(1, viewer.host.clientHeight);
  const distance = fitDistance(radius, viewer.camera.fov, freeAspect);
  viewer.camera.position.copy(centre).addScaledVector(VIEW_DIRECTION, distance);
  if (viewer.controls) {
    viewer.controls.target.copy(centre);
    viewer.controls.update();
  } else {
    viewer.camera.lookAt(centre);
  }
  return distance;
}
