// The screenshot button: renders the view once more at full resolution, adds the legend and the simulated time, and saves it as fluidcast-<world>-<time>.png.
import { COLORMAPS } from '../colormap.js';

const pad = (n, width = 2) => String(n).padStart(width, '0');

/** fluidcast-<world id>-<YYYYMMDD-HHMMSS, local time>.png; world null gives "none". */
export function screenshotName(world, date) {
  const stamp = `${date.getFullYear()}${pad(date.getMonth() + 1)}${pad(date.getDate())}-${pad(date.getHours())}${pad(date.getMinutes())}${pad(date.getSeconds())}`;
  const id = Number.isInteger(world) && world >= 0 ? String(world) : 'none';
  return `fluidcast-${id}-${stamp}.png`;
}

/** The bytes of a data: URL (base64) as a Blob. */
export function dataUrlToBlob(url) {
  const match = /^data:([^;,]+);base64,(.*)$/.exec(url);
  if (!match) throw new TypeError('not a base64 data: URL');
  const binary = atob(match[2]);
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  return new Blob([bytes], { type: match[1] });
}

/** "t = 12.35 s": the simulated time of the shown frame for the picture's caption. */
export function timeText(seconds) {
  return Number.isFinite(seconds) ? `t = ${seconds.toFixed(2)} s` : '';
}

/**
 * Draws the caption into a 2D context over the picture (width × height px, `scale` px per CSS px):
 * bottom left, a box with `caption.title` (the world and scene) and the time; bottom right, the
 * legend as the page shows it: the attribute's name, its map's colours from min to max with both
 * labels ({name, min, max}), or the fluids' swatches ({name, swatches: [{name, colour}]}).
 * Returns the texts drawn, in order.
 */
export function drawCaption(ctx, width, height, caption, scale = 1) {
  const texts = [];
  const text = (value, x, y, align = 'left') => {
    ctx.textAlign = align;
    ctx.fillText(value, x, y);
    texts.push(value);
  };
  const s = (v) => Math.round(v * scale);
  const box = (x, y, w, h) => {
    ctx.fillStyle = 'rgba(18, 24, 33, 0.88)';
    ctx.fillRect(x, y, w, h);
    ctx.fillStyle = '#e6edf3';
  };
  ctx.font = `${s(13)}px system-ui, sans-serif`;
  ctx.textBaseline = 'middle';
  const lines = [caption.title, timeText(caption.time)].filter(Boolean);
  if (lines.length) {
    const w = Math.max(...lines.map((l) => ctx.measureText(l).width)) + s(20);
    const h = s(10) + lines.length * s(18);
    box(s(10), height - s(10) - h, w, h);
    lines.forEach((l, i) => text(l, s(20), height - s(10) - h + s(14) + i * s(18)));
  }
  const legend = caption.legend;
  if (!legend) return texts;
  const w = s(280);
  const h = s(58);
  const x = width - w - s(10);
  const y = height - h - s(10);
  box(x, y, w, h);
  text(legend.name, x + s(10), y + s(14));
  if (legend.swatches) {
    let at = x + s(10);
    for (const sw of legend.swatches) {
      ctx.fillStyle = sw.colour;
      ctx.fillRect(at, y + s(34), s(12), s(12));
      ctx.fillStyle = '#e6edf3';
      text(sw.name, at + s(16), y + s(40));
      at += s(16) + ctx.measureText(sw.name).width + s(12);
    }
    return texts;
  }
  const map = COLORMAPS[legend.name];
  if (map?.kind === 'continuous') {
    const gradient = ctx.createLinearGradient(x + s(10), 0, x + w - s(10), 0);
    for (const [t, c] of map.stops) gradient.addColorStop(t, c);
    ctx.fillStyle = gradient;
    ctx.fillRect(x + s(10), y + s(24), w - s(20), s(12));
    ctx.fillStyle = '#aab6c3';
  }
  text(legend.min, x + s(10), y + s(47));
  text(legend.max, x + w - s(10), y + s(47), 'right');
  return texts;
}

/**
 * Draws the scene at the full resolution of the screen (a software renderer draws the page at less)
 * and reads it back in the same task (the drawing buffer is not preserved, so it must be read
 * before the browser composites it), adds the caption (drawCaption: the legend, the world and the
 * time) and downloads it as `filename`. Returns {bytes, width, height, texts}.
 */
export function saveScreenshot(viewer, filename, caption = {}, doc = document) {
  const renderer = viewer.renderer;
  const ratio = renderer.getPixelRatio();
  const full = Math.max(1, window.devicePixelRatio || 1);
  if (ratio !== full) {
    renderer.setPixelRatio(full);
    viewer.resize();
  }
  let picture;
  let texts;
  try {
    renderer.render(viewer.scene, viewer.camera);
    picture = doc.createElement('canvas');
    picture.width = viewer.canvas.width;
    picture.height = viewer.canvas.height;
    const ctx = picture.getContext('2d');
    ctx.drawImage(viewer.canvas, 0, 0);
    texts = drawCaption(ctx, picture.width, picture.height, caption, full);
  } finally {
    if (ratio !== full) {
      renderer.setPixelRatio(ratio);
      viewer.resize();
    }
  }
  const blob = dataUrlToBlob(picture.toDataURL('image/png'));
  const url = URL.createObjectURL(blob);
  const link = doc.createElement('a');
  link.href = url;
  link.download = filename;
  link.style.display = 'none';
  doc.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10000);
  return { bytes: blob.size, width: picture.width, height: picture.height, texts };
}
