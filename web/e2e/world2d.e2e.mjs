// A 2D world (scenes/dam_break_2d.json, "dimensions": 2): frames with a flat z decode, every
// particle stays in the plane z = 0 inside the tank while the column collapses, and the viewer
// shows the plane face-on through an orthographic camera (pan and zoom, no orbit).
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import { openViewer, screenshot } from './lib/browser.mjs';
import { useServerAndBrowser } from './lib/fixture.mjs';

const fixture = useServerAndBrowser('world2d', { scene: 'dam_break_2d', threads: 1 });

test('a 2D dam break streams flat frames and is shown face-on', { timeout: 240000 }, async () => {
  const viewer = await openViewer(fixture.browser, `${fixture.server.url}?world=1`);
  fixture.viewers.push(viewer);
  const first = await viewer.waitStatus((s) => s.connection === 'open' && s.particles > 0, 'a 2D world', 30000);
  assert.equal(first.dimensions, 2, 'the state says the world is 2D');
  assert.equal(first.backend, 'cpu', 'it steps on the CPU (no GPU here)');
  assert.ok(typeof first.device === 'string' && first.device.length > 0, `the state names the device: ${first.device}`);
  await viewer.page.waitForFunction((want) => document.querySelector('[data-testid="backend"]')?.textContent === want,
    `cpu · ${first.device}`, { timeout: 10000 }); // the overlay says where it steps
  assert.equal(first.camera, 'OrthographicCamera', 'a 2D world is seen through the orthographic camera');
  // the column's edge at t = 0, from the scene itself: the world plays from the first subscription, so the
  // first frame this page reads may already be one in which the front reached the far wall
  const scene = JSON.parse(readFileSync(new URL('../../scenes/dam_break_2d.json', import.meta.url), 'utf8'));
  const frontAtStart = scene.fluid[0].max[0];

  const running = await viewer.waitStatus((s) => s.time > 0.4, 'the column collapsing', 120000);
  assert.equal(running.unstable, null, 'it does not blow up');
  const positions = await viewer.positions(running.particles);
  assert.equal(positions.length, 4550, 'all 4,550 particles are in the frame');
  const outside = positions.filter(([x, y, z]) => !(x >= 0 && x <= 1.6 && y >= 0 && y <= 0.9 && z === 0));
  assert.equal(outside.length, 0, `every particle in the plane inside the tank (first outside: ${outside[0]})`);
  const front = Math.max(...positions.map((p) => p[0]));
  assert.ok(front > frontAtStart + 0.2, `the front advanced from ${frontAtStart.toFixed(3)} to ${front.toFixed(3)} m`);

  // the panel leaves out what a 2D world ignores: gravity along z
  assert.equal(await viewer.page.locator('[data-testid="param-gravity_z"]').count(), 0, 'no Gravity (z) in a 2D world\'s panel');
  assert.equal(await viewer.page.locator('[data-testid="param-gravity_y"]').count(), 1, 'Gravity (y) is there');
  // face-on: the camera sits on the z axis through the tank's middle, looking at the plane
  const pose = await viewer.page.evaluate(() => window.fluidcast.camera());
  assert.ok(Math.abs(pose.position[0] - pose.target[0]) < 1e-6 && Math.abs(pose.position[1] - pose.target[1]) < 1e-6,
    `the camera looks straight at the plane: ${JSON.stringify(pose)}`);
  assert.ok(pose.position[2] > 0 && pose.target[2] === 0, 'from +z onto z = 0');
  // the tank's corners are drawn inside the view, left below right, bottom below top
  const corners = await viewer.page.evaluate(() => [[0, 0, 0], [1.6, 0.9, 0]].map((p) => window.fluidcast.project(p)));
  const size = viewer.page.viewportSize();
  for (const [x, y] of corners) assert.ok(x >= 0 && x <= size.width && y >= 0 && y <= size.height, `corner at ${x}, ${y} in view`);
  assert.ok(corners[0][0] < corners[1][0] && corners[0][1] > corners[1][1], `corners ${JSON.stringify(corners)}`);
  // a collider added from the viewer lands in the plane (its default size from the rectangle alone)
  await viewer.testId('btn-add-sphere').click();
  const added = await viewer.waitStatus((s) => s.colliders.length === 1, 'the sphere added', 30000);
  assert.equal(added.colliders[0].position[2], 0, 'in the plane z = 0');
  assert.ok(added.colliders[0].radius > 0.05, `radius ${added.colliders[0].radius} from the 1.6 x 0.9 m rectangle`);
  await viewer.waitStatus((s) => s.time > running.time + 0.1, 'stepping on with the circle', 60000);
  await viewer.page.waitForTimeout(1000); // a software renderer draws a few frames a second: let it draw the circle
  await screenshot(viewer, 'world2d-dam-break');
});
