// Where the tank is drawn: the projected box of the world's domain, in client pixels, for tests whose pixel counts depend on the framing.

/**
 * {left, top, right, bottom, width, height, area} (client px) of the domain's eight corners as the
 * viewer's camera draws them now (status().domain, window.fluidcast.project).
 */
export async function tankBox(viewer) {
  const { domain } = await viewer.status();
  const corners = [];
  for (const x of [domain.min[0], domain.max[0]]) for (const y of [domain.min[1], domain.max[1]]) for (const z of [domain.min[2], domain.max[2]]) corners.push([x, y, z]);
  const points = await viewer.page.evaluate((list) => list.map((p) => window.fluidcast.project(p)), corners);
  const xs = points.map((p) => p[0]);
  const ys = points.map((p) => p[1]);
  const box = { left: Math.min(...xs), top: Math.min(...ys), right: Math.max(...xs), bottom: Math.max(...ys) };
  return { ...box, width: box.right - box.left, height: box.bottom - box.top, area: (box.right - box.left) * (box.bottom - box.top) };
}
