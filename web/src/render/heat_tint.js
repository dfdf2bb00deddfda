// The tint of a solid or wall that heats or cools: neutral at room temperature, redder when hotter, bluer when colder.
export const ROOM_K = 293.15;
const FULL_K = 80; // this far from room temperature the tint is at its strongest

/**
 * The colour ('#rrggbb') a surface at temperature T (K) is drawn in, mixed from `base` towards red
 * (hotter) or blue (colder) by |T - 293.15 K| / 80 K (at most 85 %); base when T is not a number
 * or heat_transfer is 0 (it insulates).
 */
export function heatTint(base, temperature, heatTransfer = 1) {
  if (!Number.isFinite(temperature) || !(heatTransfer > 0)) return base;
  const share = Math.min(1, Math.abs(temperature - ROOM_K) / FULL_K) * 0.85;
  const towards = temperature >= ROOM_K ? [0xff, 0x3a, 0x1e] : [0x2e, 0x7d, 0xff];
  const from = [1, 3, 5].map((i) => parseInt(base.slice(i, i + 2), 16));
  return `#${from.map((c, k) => Math.round(c + (towards[k] - c) * share).toString(16).padStart(2, '0')).join('')}`;
}
