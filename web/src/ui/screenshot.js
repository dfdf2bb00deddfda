// The screenshot button: renders the view once more and saves the canvas as fluidcast-<world>-<time>.png.

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

/**
 * Draws the scene and reads the canvas back in the same task (the drawing buffer is not
 * preserved, so it must be read before the browser composites it), then downloads it as
 * `filename`. Returns the PNG's size in bytes.
 */
export function saveScreenshot(viewer, filename, doc = document) {
  viewer.renderer.render(viewer.scene, viewer.camera);
  const blob = dataUrlToBlob(viewer.canvas.toDataURL('image/png'));
  const url = URL.createObjectURL(blob);
  const link = doc.createElement('a');
  link.href = url;
  link.download = filename;
  link.style.display = 'none';
  doc.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10000);
  return blob.size;
}
