// "See inside": the view settings of a scene's `view` (hidden fluids, per-fluid opacity, a cutaway plane, particle size) and the plane's maths.
export const AXES = ['x', 'y', 'z'];
export const OPACITY_MIN = 0.05; // as the server's FC_VIEW_OPACITY_MIN (server/core/view.h)
export const SIZE_MIN = 0.25;
export const SIZE_MAX = 4;
export const MAX_FLUIDS = 16; // the shader's table of opacities (server/core/fluids.h FC_MAX_FLUIDS)

/** The settings shown when nothing says otherwise: every fluid shown and opaque, no cutaway, size 1. */
export function defaultSettings() {
  return { hidden: new Set(), opacity: [], cut: null, size: 1 };
}

/**
 * The settings a scene's `view` (state.view: fluids by name) asks for, given the world's fluids
 * (state.fluids) and domain: {hidden: Set of fluid indices, opacity: [per fluid, 1 = opaque],
 * cut: {axis, at (m), keep: 'below'|'above'} | null, size (times the drawn radius)}. Unknown
 * names and out-of-range numbers are left out (the server checked them already).
 */
export function viewSettings(view, fluids = [], domain = null) {
  const settings = defaultSettings();
  if (!view || typeof view !== 'object') return settings;
  const index = (name) => fluids.findIndex((f) => f?.name === name);
  for (const name of Array.isArray(view.hide) ? view.hide : []) {
    const f = index(name);
    if (f >= 0) settings.hidden.add(f);
  }
  if (settings.hidden.size >= fluids.length) settings.hidden.clear(); // never nothing at all
  for (const [name, value] of Object.entries(view.opacity && typeof view.opacity === 'object' ? view.opacity : {})) {
    const f = index(name);
    if (f >= 0 && Number.isFinite(value)) settings.opacity[f] = Math.min(1, Math.max(OPACITY_MIN, value));
  }
  const cut = view.cutaway;
  if (cut && AXES.includes(cut.axis) && Number.isFinite(cut.at)) {
    settings.cut = { axis: cut.axis, at: cut.at, keep: cut.keep === 'above' ? 'above' : 'below' };
    if (domain) settings.cut.at = clampToDomain(settings.cut.at, cut.axis, domain);
  }
  if (Number.isFinite(view.particle_size)) settings.size = Math.min(SIZE_MAX, Math.max(SIZE_MIN, view.particle_size));
  return settings;
}

function clampToDomain(at, axis, domain) {
  const k = AXES.indexOf(axis);
  return Math.min(domain.max[k], Math.max(domain.min[k], at));
}

/** The middle of the domain along an axis: where a cutaway starts when a person turns it on. */
export function middleOf(domain, axis) {
  const k = AXES.indexOf(axis);
  return domain ? (domain.min[k] + domain.max[k]) / 2 : 0;
}

/**
 * The cutaway as a plane {normal: [x, y, z], constant} in world coordinates: a point p is drawn
 * when normal · p + constant >= 0 (three.js's Plane convention). keep 'below' keeps the side of
 * smaller coordinates, 'above' the side of larger ones. null without a cutaway.
 */
export function clipPlane(cut) {
  if (!cut || !AXES.includes(cut.axis) || !Number.isFinite(cut.at)) return null;
  const k = AXES.indexOf(cut.axis);
  const sign = cut.keep === 'above' ? 1 : -1;
  const normal = [0, 0, 0];
  normal[k] = sign;
  return { normal, constant: -sign * cut.at };
}

/** Whether point p is drawn under the plane (null: no plane, everything is). */
export function isKept(plane, p) {
  if (!plane) return true;
  return plane.normal[0] * p[0] + plane.normal[1] * p[1] + plane.normal[2] * p[2] + plane.constant >= 0;
}

/** The per-fluid opacity table the shader reads (MAX_FLUIDS entries; missing: opaque). */
export function opacityTable(opacity) {
  const table = new Float32Array(MAX_FLUIDS).fill(1);
  opacity.forEach((value, f) => {
    if (f < MAX_FLUIDS && Number.isFinite(value)) table[f] = Math.min(1, Math.max(OPACITY_MIN, value));
  });
  return table;
}

/** Whether the frames must carry each particle's fluid: some fluid hidden, or see-through while others are not. */
export function needsFluids(settings, fluidCount) {
  if (settings.hidden.size > 0) return true;
  if (fluidCount <= 1) return false; // one fluid: its opacity is every particle's
  const table = opacityTable(settings.opacity);
  return table.subarray(0, fluidCount).some((v) => v !== table[0]);
}
