// The viewer on a phone (390 x 844, touch): the 3D view is not covered (toolbar one row, side panel a
// closed bottom sheet), controls are finger-sized, the sheet opens and closes, one finger orbits and
// two fingers pinch-zoom through real touch events.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { openViewer, screenshot } from './lib/browser.mjs';
import { useServerAndBrowser } from './lib/fixture.mjs';
import { scenePath } from './lib/paths.mjs';

const PHONE = { width: 390, height: 844 };
const fixture = useServerAndBrowser('phone', { scene: scenePath('e2e_tank.json'), threads: 1 });

const box = (viewer, id) => viewer.testId(id).boundingBox();
const distance = (pose) => Math.hypot(...pose.position.map((x, i) => x - pose.target[i]));

/** A touch gesture through Chromium's input pipeline: fingers move from `from` to `to` points in steps. */
async function touchGesture(cdp, from, to, steps = 8) {
  const points = (t) => from.map((p, i) => ({ x: p.x + (to[i].x - p.x) * t, y: p.y + (to[i].y - p.y) * t, id: i }));
  await cdp.send('Input.dispatchTouchEvent', { type: 'touchStart', touchPoints: points(0) });
  for (let k = 1; k <= steps; k++) {
    await cdp.send('Input.dispatchTouchEvent', { type: 'touchMove', touchPoints: points(k / steps) });
    await new Promise((r) => setTimeout(r, 30));
  }
  await cdp.send('Input.dispatchTouchEvent', { type: 'touchEnd', touchPoints: [] });
}

test('on a phone the view stays free, controls are finger-sized, the sheet opens, touch orbits and zooms', { timeout: 240000 }, async () => {
  const viewer = await openViewer(fixture.browser, `${fixture.server.url}?world=1`, {
    viewport: PHONE, contextOptions: { hasTouch: true, isMobile: true },
  });
  fixture.viewers.push(viewer);
  await viewer.waitStatus((s) => s.connection === 'open' && s.role === 'control' && s.particles > 0, 'a controlled world', 30000);
  await viewer.page.waitForTimeout(1500);
  await screenshot(viewer, 'phone-closed');

  const toolbar = await viewer.page.locator('#toolbar').boundingBox();
  assert.ok(toolbar.height <= 64, `the toolbar is one row (${toolbar.height} px high)`);
  const sheet = await viewer.page.locator('#side').boundingBox();
  assert.ok(sheet.height <= 60, `the closed sheet is a handle (${sheet.height} px)`);
  assert.ok(sheet.y + sheet.height >= PHONE.height - 1, 'the sheet sits at the bottom');
  assert.ok(!(await viewer.testId('parameter-panel').isVisible()), 'the panel is folded away');
  const free = PHONE.height - toolbar.height - sheet.height;
  assert.ok(free > 0.75 * PHONE.height, `most of the screen shows the fluid (${free} of ${PHONE.height} px)`);
  for (const id of ['btn-play', 'btn-pause', 'btn-step', 'btn-reset', 'sheet-toggle']) {
    const b = await box(viewer, id);
    assert.ok(b.height >= 40, `${id} is finger-sized (${b.height} px high)`);
  }

  await viewer.testId('sheet-toggle').tap();
  await viewer.testId('parameter-panel').waitFor({ state: 'visible', timeout: 5000 });
  const open = await viewer.page.locator('#side').boundingBox();
  assert.ok(open.height > 200 && open.height <= 0.65 * PHONE.height, `the open sheet takes part of the screen (${open.height} px)`);
  assert.ok(open.width >= PHONE.width - 2, 'the sheet spans the width');
  const row = await viewer.testId('param-gravity_y').boundingBox();
  assert.ok(row.height >= 30, `parameter rows are finger-sized (${row.height} px)`);
  await screenshot(viewer, 'phone-sheet-open');
  await viewer.testId('sheet-toggle').tap();
  await viewer.testId('parameter-panel').waitFor({ state: 'hidden', timeout: 5000 });

  const cdp = await viewer.context.newCDPSession(viewer.page);
  const start = await viewer.page.evaluate(() => window.fluidcast.camera());
  await touchGesture(cdp, [{ x: 120, y: 400 }], [{ x: 260, y: 420 }]);
  await viewer.page.waitForTimeout(800); // damping settles
  const orbited = await viewer.page.evaluate(() => window.fluidcast.camera());
  const moved = Math.hypot(...orbited.position.map((x, i) => x - start.position[i]));
  assert.ok(moved > 0.05, `one finger orbits the camera (moved ${moved.toFixed(3)} m)`);
  assert.ok(Math.abs(distance(orbited) - distance(start)) < 0.05 * distance(start), 'orbiting keeps the distance');

  await touchGesture(cdp, [{ x: 150, y: 420 }, { x: 240, y: 420 }], [{ x: 90, y: 420 }, { x: 300, y: 420 }]);
  await viewer.page.waitForTimeout(800);
  const zoomed = await viewer.page.evaluate(() => window.fluidcast.camera());
  assert.ok(distance(zoomed) < 0.9 * distance(orbited), `two fingers apart zoom in (${distance(orbited).toFixed(2)} -> ${distance(zoomed).toFixed(2)} m)`);
  await screenshot(viewer, 'phone-after-touch');
  assert.deepEqual(viewer.pageErrors, []);
});
