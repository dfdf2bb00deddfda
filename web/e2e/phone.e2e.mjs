// The viewer on a phone (390 x 844, touch): the 3D view is not covered (toolbar one row, side panel a
// closed bottom sheet), controls are finger-sized, Scene, colour and Room link are one tap on the
// menu away, the sheet opens and closes, one finger orbits and two fingers pinch-zoom through real
// touch events.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { openViewer, screenshot } from './lib/browser.mjs';
import { useServerAndBrowser } from './lib/fixture.mjs';
import { tankBox } from './lib/tank.mjs';
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
  for (const id of ['btn-play', 'btn-pause', 'btn-step', 'btn-menu', 'sheet-toggle']) {
    const b = await box(viewer, id);
    assert.ok(b.height >= 40, `${id} is finger-sized (${b.height} px high)`);
  }

  // Scene, colour and Room link: one tap on the menu away, inside the screen, finger-sized
  assert.ok(!(await viewer.testId('select-scene').isVisible()), 'the scene picker waits in the menu');
  await viewer.testId('btn-menu').tap();
  for (const id of ['select-scene', 'select-attribute', 'btn-room-link', 'btn-reset']) {
    await viewer.testId(id).waitFor({ state: 'visible', timeout: 5000 });
    const b = await box(viewer, id);
    assert.ok(b.x >= 0 && b.x + b.width <= PHONE.width && b.y + b.height <= PHONE.height, `${id} is on the screen after one tap (${JSON.stringify(b)})`);
    assert.ok(b.height >= 40, `${id} is finger-sized (${b.height} px high)`);
  }
  await screenshot(viewer, 'phone-menu-open');
  await viewer.testId('btn-room-link').tap();
  await viewer.testId('room-link-popover').waitFor({ state: 'visible', timeout: 10000 });
  const popover = await box(viewer, 'room-link-popover');
  assert.ok(popover.x >= 0 && popover.x + popover.width <= PHONE.width, `the room link popover fits the screen (${JSON.stringify(popover)})`);
  assert.match(await viewer.testId('room-link-warning').innerText(), /Only this computer opens this link/, 'a loopback room link is said to work here only');
  await screenshot(viewer, 'phone-room-link');
  await viewer.page.keyboard.press('Escape');
  await viewer.testId('btn-menu').tap();
  await viewer.testId('select-scene').waitFor({ state: 'hidden', timeout: 5000 });
  const closed = await viewer.page.locator('#toolbar').boundingBox();
  assert.ok(closed.height <= 64, `the closed menu leaves one row (${closed.height} px)`);

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
  // the gestures on the empty view between the toolbar and the tank (a finger on the tank's sphere would drag it)
  const tank = await tankBox(viewer);
  const bar = await viewer.page.locator('#toolbar').boundingBox();
  const y = Math.round((bar.y + bar.height + tank.top) / 2);
  assert.ok(tank.top - (bar.y + bar.height) > 40, `room above the tank for the gestures (${JSON.stringify(tank)})`);
  await touchGesture(cdp, [{ x: 120, y }], [{ x: 260, y: y + 20 }]);
  await viewer.page.waitForTimeout(800); // damping settles
  const orbited = await viewer.page.evaluate(() => window.fluidcast.camera());
  const moved = Math.hypot(...orbited.position.map((x, i) => x - start.position[i]));
  assert.ok(moved > 0.05, `one finger orbits the camera (moved ${moved.toFixed(3)} m)`);
  assert.ok(Math.abs(distance(orbited) - distance(start)) < 0.05 * distance(start), 'orbiting keeps the distance');

  await touchGesture(cdp, [{ x: 150, y }, { x: 240, y }], [{ x: 90, y }, { x: 300, y }]);
  await viewer.page.waitForTimeout(800);
  const zoomed = await viewer.page.evaluate(() => window.fluidcast.camera());
  assert.ok(distance(zoomed) < 0.9 * distance(orbited), `two fingers apart zoom in (${distance(orbited).toFixed(2)} -> ${distance(zoomed).toFixed(2)} m)`);
  await screenshot(viewer, 'phone-after-touch');
  assert.deepEqual(viewer.pageErrors, []);
});
