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
 * The insets {top, right, bottom, left} (px) of the part of a width × height view that the UI
 * leaves free: the rectangle clear of every obstacle (client rects {left, top, right, bottom}: the
 * toolbar, the overlay, the legend, the side panel) in which `fits(w, h)` is largest, each obstacle
 * left out by one of its sides (above, below, left or right of the free part; every choice is
 * tried). fits defaults to the smaller side (a sphere's fit). Without any free rectangle, no insets.
 */
export function freeInsets(width, height, obstacles = [], fits = (w, h) => Math.min(w, h)) {
  const list = obstacles.filter((r) => r && r.right > r.left && r.bottom > r.top && r.right > 0 && r.left < width && r.bottom > 0 && r.top < height);
  let best = null;
  for (let code = 0; code < 4 ** list.length; code++) {
    let left = 0;
    let top = 0;
    let right = width;
    let bottom = height;
    let c = code;
    for (const r of list) {
      const side = c % 4;
      c = Math.floor(c / 4);
      if (side === 0) top = Math.max(top, r.bottom);
      else if (side === 1) bottom = Math.min(bottom, r.top);
      else if (side === 2) left = Math.max(left, r.right);
      else right = Math.min(right, r.left);
    }
    if (right - left < 0.2 * width || bottom - top < 0.2 * height) continue; // too thin to show a tank
    const score = fits(right - left, bottom - top);
    if (!best || score > best.score) best = { score, insets: { top, right: width - right, bottom: height - bottom, left } };
  }
  return best ? best.insets : { top: 0, right: 0, bottom: 0, left: 0 };
}

/**
 * The size of the box [min, max] drawn from `direction` (towards the camera) with `up`: its extents
 * across the view, {across, upward} in m (the sums of its sides' projections), for freeInsets' fit.
 */
export function projectedExtent(min, max, direction = VIEW_DIRECTION, up = new Vector3(0, 1, 0)) {
  const { right, upward } = viewBasis(direction, up);
  const size = [0, 1, 2].map((k) => max[k] - min[k]);
  const span = (axis) => size.reduce((sum, s, k) => sum + Math.abs(s * axis.getComponent(k)), 0);
  return { across: Math.max(span(right), 1e-6), upward: Math.max(span(upward), 1e-6) };
}

function viewBasis(direction, up) {
  const back = direction.clone().normalize(); // from the target towards the camera
  const right = new Vector3().crossVectors(up, back).normalize();
  const upward = new Vector3().crossVectors(back, right).normalize();
  return { back, right, upward };
}

/**
 * The distance from the box's centre, along `direction`, at which all eight corners of [min, max]
 * lie inside a view of vertical field of view `fovDegrees` and width/height `aspect`, with 5 % to
 * spare (each corner's offset across and up over its depth within the half angles).
 */
export function fitBoxDistance(min, max, fovDegrees, aspect, direction = VIEW_DIRECTION, up = new Vector3(0, 1, 0)) {
  const { back, right, upward } = viewBasis(direction, up);
  const tanV = Math.tan((fovDegrees * Math.PI) / 360) * 0.95;
  const tanH = tanV * aspect;
  const centre = new Vector3().fromArray(min).add(new Vector3().fromArray(max)).multiplyScalar(0.5);
  let distance = 0;
  for (const x of [min[0], max[0]]) for (const y of [min[1], max[1]]) for (const z of [min[2], max[2]]) {
    const o = new Vector3(x, y, z).sub(centre);
    const towards = o.dot(back); // a corner nearer the camera is seen at a wider angle
    distance = Math.max(distance, Math.abs(o.dot(right)) / tanH + towards, Math.abs(o.dot(upward)) / tanV + towards);
  }
  const radius = new Vector3().fromArray(max).sub(new Vector3().fromArray(min)).length() / 2;
  return Math.max(distance, 1.05 * radius, 1e-3); // never inside the box
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
  const free = freeFov(viewer.camera.fov, viewer.offset());
  const distance = fitBoxDistance(lo.toArray(), hi.toArray(), free.fov, free.aspect);
  viewer.camera.position.copy(centre).addScaledVector(VIEW_DIRECTION, distance);
  if (viewer.controls) {
    viewer.controls.target.copy(centre);
    viewer.controls.update();
  } else {
    viewer.camera.lookAt(centre);
  }
  return distance;
}
