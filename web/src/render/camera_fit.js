// Camera framing: the part of the view the UI leaves free, the distance at which a box fills it, the bounds of a frame's particles, and moving the orbit camera onto a box.
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

/**
 * The insets {top, right, bottom, left} (px) of the part of a width × height view that the UI leaves
 * free, from the client rects ({left, top, right, bottom}) of what lies along each edge: the
 * toolbar along the top, the overlay and legend along the bottom, the side panel on the right. Each
 * inset is at most 45 % of its dimension, so that a view always has a middle to show.
 */
export function freeInsets(width, height, { top = [], bottom = [], right = [], left = [] } = {}) {
  const seen = (list) => list.filter((r) => r && r.right > r.left && r.bottom > r.top);
  const clamp = (v, size) => Math.min(Math.max(0, v), 0.45 * size);
  return {
    top: clamp(Math.max(0, ...seen(top).map((r) => r.bottom)), height),
    bottom: clamp(height - Math.min(height, ...seen(bottom).map((r) => r.top)), height),
    right: clamp(width - Math.min(width, ...seen(right).map((r) => r.left)), width),
    left: clamp(Math.max(0, ...seen(left).map((r) => r.right)), width),
  };
}

/**
 * The view offset that puts the projection's centre in the middle of the free part: the canvas
 * (width × height) is the window at (x, y) of a larger virtual image (fullWidth × fullHeight) whose
 * centre is the free part's centre (three.js Camera.setViewOffset). Also the free part's size.
 */
export function viewOffset(width, height, insets) {
  const cx = (insets.left + width - insets.right) / 2;
  const cy = (insets.top + height - insets.bottom) / 2;
  const fullWidth = width + Math.abs(2 * cx - width);
  const fullHeight = height + Math.abs(2 * cy - height);
  return {
    fullWidth, fullHeight, x: fullWidth / 2 - cx, y: fullHeight / 2 - cy,
    freeWidth: Math.max(1, width - insets.left - insets.right), freeHeight: Math.max(1, height - insets.top - insets.bottom),
  };
}

/**
 * The vertical field of view (degrees) and aspect of the free part of a view whose virtual image
 * (viewOffset) has the vertical field of view `fovDegrees`.
 */
export function freeFov(fovDegrees, offset) {
  const half = Math.atan(Math.tan((fovDegrees * Math.PI) / 360) * (offset.freeHeight / offset.fullHeight));
  return { fov: (2 * half * 180) / Math.PI, aspect: offset.freeWidth / offset.freeHeight };
}

const BINS = 1024; // per axis: the stored 16-bit value >>> 6

/**
 * The box holding the particles of a decoded frame ({count, bits, lo, hi, positions of
 * q << (16 - bits)}), in m, leaving out the `trim` fraction (default 0.5 %) at each end of each
 * axis so that a few splashes do not stretch it; to 1/1024 of the bounds (one pass, a histogram
 * per axis). null for no particles.
 */
export function particleBounds(frame, trim = 0.005) {
  if (!frame || !frame.count) return null;
  const { positions, count } = frame;
  const histogram = new Uint32Array(3 * BINS);
  for (let i = 0; i < count; i++) {
    histogram[positions[3 * i] >>> 6] += 1;
    histogram[BINS + (positions[3 * i + 1] >>> 6)] += 1;
    histogram[2 * BINS + (positions[3 * i + 2] >>> 6)] += 1;
  }
  const skip = Math.min(Math.floor(trim * count), count - 1);
  const step = 2 ** (16 - frame.bits);
  const top = (2 ** frame.bits - 1) * step; // the largest stored value
  const at = (stored, k) => frame.lo[k] + (Math.min(stored, top) * (frame.hi[k] - frame.lo[k])) / top;
  const min = [0, 0, 0];
  const max = [0, 0, 0];
  for (let k = 0; k < 3; k++) {
    const bins = histogram.subarray(k * BINS, (k + 1) * BINS);
    let low = 0;
    for (let seen = bins[0]; seen <= skip; seen += bins[++low]);
    let high = BINS - 1;
    for (let seen = bins[high]; seen <= skip; seen += bins[--high]);
    min[k] = at(low * 64, k);
    max[k] = at(high * 64 + 63, k);
  }
  return { min, max };
}

/** Ends the orbit's leftover (damped) motion, so that a camera put somewhere stays there. */
export function stopOrbitMotion(controls) {
  if (!controls || !controls.enableDamping) return;
  controls.enableDamping = false;
  controls.update(); // applies what is left of the last drag once and clears it
  controls.enableDamping = true;
}

/**
 * Points the viewer's camera (and orbit target) at the box [min, max] grown by `margin` m,
 * from VIEW_DIRECTION, at the distance that fits it in the part of the view the UI leaves free. Returns the distance.
 */
export function frameBox(viewer, min, max, margin = 0) {
  stopOrbitMotion(viewer.controls);
  const lo = new Vector3().fromArray(min).subScalar(margin);
  const hi = new Vector3().fromArray(max).addScalar(margin);
  const centre = lo.clone().add(hi).multiplyScalar(0.5);
  const radius = Math.max(hi.distanceTo(lo) / 2, 1e-3);
  const free = freeFov(viewer.camera.fov, viewer.offset());
  const distance = fitDistance(radius, free.fov, free.aspect);
  viewer.camera.position.copy(centre).addScaledVector(VIEW_DIRECTION, distance);
  if (viewer.controls) {
    viewer.controls.target.copy(centre);
    viewer.controls.update();
  } else {
    viewer.camera.lookAt(centre);
  }
  return distance;
}
