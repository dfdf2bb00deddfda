// Counts water-coloured pixels in a screenshot region, apart from the background colour.

/** Hue in degrees (0-360), saturation and value (0-1) of an 8-bit RGB colour. */
export function hsv(r, g, b) {
  const max = Math.max(r, g, b);
  const min = Math.min(r, g, b);
  const delta = max - min;
  let hue = 0;
  if (delta > 0) {
    if (max === r) hue = 60 * (((g - b) / delta) % 6);
    else if (max === g) hue = 60 * ((b - r) / delta + 2);
    else hue = 60 * ((r - g) / delta + 4);
  }
  if (hue < 0) hue += 360;
  return { hue, saturation: max === 0 ? 0 : delta / max, value: max / 255 };
}

/**
 * Water: cyan to blue (hue 170-260 degrees), saturated and bright, as lit water spheres are
 * (#2f86d6 is s 0.78, v 0.84); not the dim blue-grey of a dark background or a translucent tank
 * face (about s 0.35, v 0.3).
 */
export function isWaterLike(r, g, b) {
  const { hue, saturation, value } = hsv(r, g, b);
  return hue >= 170 && hue <= 260 && saturation >= 0.45 && value >= 0.35;
}

/** The most frequent colour of the image's outer frame (1/20 of each side), quantized to 8 levels. */
export function backgroundColour(image) {
  const { width, height, data } = image;
  const counts = new Map();
  const bx = Math.max(1, Math.floor(width / 20));
  const by = Math.max(1, Math.floor(height / 20));
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      if (x >= bx && x < width - bx && y >= by && y < height - by) continue;
      const i = (y * width + x) * 4;
      const key = ((data[i] >> 5) << 6) | ((data[i + 1] >> 5) << 3) | (data[i + 2] >> 5);
      const entry = counts.get(key);
      if (entry) {
        entry.n++;
        entry.r += data[i]; entry.g += data[i + 1]; entry.b += data[i + 2];
      } else {
        counts.set(key, { n: 1, r: data[i], g: data[i + 1], b: data[i + 2] });
      }
    }
  }
  let best = null;
  for (const entry of counts.values()) if (!best || entry.n > best.n) best = entry;
  return { r: best.r / best.n, g: best.g / best.n, b: best.b / best.n };
}

/**
 * Counts, inside the rectangle {x0, y0, x1, y1} (pixels, end exclusive), the pixels that are
 * water-like and differ from the background colour by more than 40 (sum of absolute differences).
 */
export function countWater(image, rect, background = backgroundColour(image)) {
  const { width, data } = image;
  let water = 0;
  let total = 0;
  for (let y = rect.y0; y < rect.y1; y++) {
    for (let x = rect.x0; x < rect.x1; x++) {
      const i = (y * width + x) * 4;
      const r = data[i];
      const g = data[i + 1];
      const b = data[i + 2];
      total++;
      const distance = Math.abs(r - background.r) + Math.abs(g - background.g) + Math.abs(b - background.b);
      if (distance > 40 && isWaterLike(r, g, b)) water++;
    }
  }
  return { water, total, fraction: total ? water / total : 0, background };
}
