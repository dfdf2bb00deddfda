// The viewer loads from a real server, connects, draws water and lists the parameter table.
// Scene: the shipped dam break (22.5k particles), one solver thread.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { openViewer, screenshot, withOnly } from './lib/browser.mjs';
import { useServerAndBrowser } from './lib/fixture.mjs';
import { tankBox } from './lib/tank.mjs';
import { decodePng } from './lib/png.mjs';
import { countWater } from './lib/pixels.mjs';
import { parameterTable } from './lib/server.mjs';

const fixture = useServerAndBrowser('load', { scene: 'dam_break' });
let viewer = null;

/** The number a display like "22,500", "22 500 particles" or "22.5k" shows. */
function displayedNumber(text) {
  const match = /(\d[\d,\u00a0\u202f ]*(?:\.\d+)?)\s*([kKM]?)/.exec(text);
  if (!match) return NaN;
  const value = Number(match[1].replace(/[,\u00a0\u202f ]/g, ''));
  return value * ({ k: 1e3, K: 1e3, M: 1e6 }[match[2]] ?? 1);
}

test('the page loads, connects and shows the dam break moving', { timeout: 180000 }, async () => {
  viewer = await openViewer(fixture.browser, `${fixture.server.url}?world=1`);
  fixture.viewers.push(viewer);
  const first = await viewer.waitStatus((s) => s.connection === 'open' && s.particles > 0 && s.frames > 0,
    'connection open and a decoded frame', 30000);
  assert.equal(first.world, 1);
  assert.equal(first.role, 'control', 'a server without --token grants control');
  assert.equal(first.particles, 22500, 'the dam break has 22,500 particles');
  assert.equal(first.lastError, null);
  assert.equal(first.decoding, 'worker', 'frames are decoded in the Web Worker, off the main thread');

  for (const id of ['viewport', 'status-overlay', 'connection-state', 'particle-count']) {
    assert.ok(await viewer.testId(id).isVisible(), `${id} is visible`);
  }
  assert.equal(await viewer.testId('viewport').evaluate((el) => el.tagName), 'CANVAS');
  assert.ok(!(await viewer.testId('watch-note').isVisible()), 'no watch note for a controller');
  const countText = await viewer.testId('particle-count').innerText();
  const shown = displayedNumber(countText);
  assert.ok(Math.abs(shown - first.particles) <= 0.01 * first.particles,
    `particle-count shows "${countText}", status says ${first.particles}`);
  const connectionText = await viewer.testId('connection-state').innerText();
  assert.match(connectionText, /open/i, `connection-state says open: "${connectionText}"`);

  // Moving: the simulated time and the decoded frames grow.
  const later = await viewer.waitStatus((s) => s.time > first.time && s.frames >= first.frames + 3,
    'three more frames with a later time', 30000);
  assert.equal(later.paused, false);
  assert.deepEqual(viewer.blocked, [], 'the page requests nothing outside the server');
  assert.deepEqual(viewer.pageErrors, [], 'no uncaught errors in the page');
});

test('a screenshot shows water-coloured pixels inside the tank', { timeout: 180000 }, async () => {
  assert.ok(viewer, 'the page is open');
  // Let a few frames arrive and be drawn.
  const start = await viewer.status();
  await viewer.waitStatus((s) => s.frames >= start.frames + 5, 'five more frames', 30000);
  await viewer.page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
  await screenshot(viewer, 'load-page');
  const canvas = viewer.testId('viewport');
  // The canvas alone: the panel and overlays drawn over it are hidden for this screenshot.
  const shot = await withOnly(canvas, () => screenshot(viewer, 'load-canvas', canvas));
  const image = decodePng(shot.buffer);
  assert.ok(image.width >= 300 && image.height >= 200, `canvas is ${image.width} x ${image.height}`);

  // The tank's region: where the camera framed on the domain draws it (its projected corners, in the
  // part of the view the UI leaves free). Water-coloured: cyan to blue, saturated and bright
  // (lib/pixels.mjs), unlike the background and the tank's faces.
  const tank = await tankBox(viewer);
  const origin = await canvas.boundingBox();
  const rect = {
    x0: Math.max(0, Math.floor(tank.left - origin.x)), x1: Math.min(image.width, Math.ceil(tank.right - origin.x)),
    y0: Math.max(0, Math.floor(tank.top - origin.y)), y1: Math.min(image.height, Math.ceil(tank.bottom - origin.y)),
  };
  const inside = countWater(image, rect);
  const whole = countWater(image, { x0: 0, y0: 0, x1: image.width, y1: image.height }, inside.background);
  const summary = `water-coloured: ${inside.water} of ${inside.total} pixels inside (${(100 * inside.fraction).toFixed(1)}%), `
    + `${whole.water} in the whole canvas; background rgb(${Object.values(inside.background).map(Math.round).join(', ')})`;
  console.log(summary);
  assert.ok(inside.fraction >= 0.03, `at least 3% of the tank region is water-coloured: ${summary}`);
  assert.ok(inside.water >= 0.8 * whole.water, `the water is inside the tank region: ${summary}`);
  assert.deepEqual(viewer.pageErrors, []);
});

test('the panel lists every parameter of the server\'s table', { timeout: 180000 }, async () => {
  assert.ok(viewer, 'the page is open');
  const table = parameterTable();
  const names = table.map((p) => p.name);
  assert.ok(names.length >= 10, `fluidcast params --json lists ${names.length} parameters`);
  const status = await viewer.waitStatus((s) => Array.isArray(s.parameters) && s.parameters.length > 0, 'the parameter table');
  assert.deepEqual([...status.parameters].sort(), [...names].sort(), 'status().parameters is welcome\'s table');

  // A fluid-scoped parameter has one controller per fluid, FLUID.NAME, in the fluid's folder.
  const fluids = (await viewer.waitStatus((s) => s.fluids.length > 0, 'the world\'s fluids')).fluids.map((f) => f.name);
  const controllers = table.flatMap((p) => (p.fluid_scope ? fluids.map((f) => `${f}.${p.name}`) : [p.name]));
  // One look at the page for all of them: every evaluation waits for the busy main thread.
  const found = await viewer.page.evaluate((wanted) => Object.fromEntries(wanted.map((name) => {
    const roots = document.querySelectorAll(`[data-testid="param-${name}"]`);
    return [name, { roots: roots.length, inputs: roots.length ? roots[0].querySelectorAll('input, select').length : 0 }];
  })), controllers);
  const missing = controllers.filter((name) => found[name].roots !== 1 || found[name].inputs < 1)
    .map((name) => `${name} (${found[name].roots} elements, ${found[name].inputs} inputs)`);
  assert.deepEqual(missing, [], 'one param-NAME controller with an input or select per parameter');

  // The panel shows the world's values: gravity_y is -9.81 m/s^2 in the dam break.
  const gravityY = viewer.testId('param-gravity_y').locator('input').first();
  const shownGravity = Number(await gravityY.inputValue());
  assert.ok(Math.abs(shownGravity - -9.81) < 0.01, `param-gravity_y shows ${shownGravity}`);
  assert.ok(Math.abs(status.values.gravity_y - -9.81) < 1e-4, `status().values.gravity_y is ${status.values.gravity_y}`);
  await screenshot(viewer, 'load-panel');
  assert.deepEqual(viewer.pageErrors, []);
});
