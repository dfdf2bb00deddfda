// Changing gravity through the panel changes the motion. With one solver thread stepping is
// deterministic, so two runs of reset + N steps give the same positions; a third run with
// gravity_x changed through the panel's input gives different ones, moved towards +x.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { openViewer, screenshot } from './lib/browser.mjs';
import { useServerAndBrowser } from './lib/fixture.mjs';
import { scenePath } from './lib/paths.mjs';

const STEPS = 6;
const GRAVITY_X = 8;
const fixture = useServerAndBrowser('gravity', { scene: scenePath('e2e_tank.json'), threads: 1 });

/** Clicks btn-reset and waits for the reset frame (time 0, paused kept). */
async function reset(viewer) {
  const before = await viewer.status();
  await viewer.testId('btn-reset').click();
  return viewer.waitStatus((s) => s.frames > before.frames && s.time === 0 && s.paused, 'the reset frame (time 0, paused)');
}

/** Clicks btn-step `steps` times, each time waiting for the stepped frame; returns the state and positions. */
async function step(viewer, steps) {
  for (let i = 0; i < steps; i++) {
    const before = await viewer.status();
    await viewer.testId('btn-step').click();
    await viewer.waitStatus((s) => s.time > before.time && s.frames > before.frames && s.paused,
      `the frame of step ${i + 1} (time after ${before.time})`);
  }
  // The newest frame stays the newest: the world is paused.
  const status = await viewer.status();
  const positions = await viewer.positions(status.particles);
  const again = await viewer.status();
  assert.equal(again.frames, status.frames, 'no frame arrived while reading the positions');
  assert.equal(positions.length, status.particles);
  return { status, positions };
}

/** Sets a number controller: fill its text input, press Enter. */
async function setNumber(viewer, name, value) {
  const input = viewer.testId(`param-${name}`).locator('input').first();
  await input.scrollIntoViewIfNeeded();
  await input.fill(String(value));
  await input.press('Enter');
}

function meanX(positions) {
  return positions.reduce((sum, p) => sum + p[0], 0) / positions.length;
}

test('changing gravity_x in the panel changes the motion; the same run twice does not', { timeout: 420000 }, async () => {
  const viewer = await openViewer(fixture.browser, `${fixture.server.url}?world=1`);
  fixture.viewers.push(viewer);
  const start = await viewer.waitStatus((s) => s.connection === 'open' && s.role === 'control' && s.particles > 0 && s.time > 0,
    'a running world', 30000);
  assert.equal(start.values.gravity_x, 0);

  await viewer.testId('btn-pause').click();
  await viewer.waitStatus((s) => s.paused, 'the paused state');

  await reset(viewer);
  const first = await step(viewer, STEPS);
  await reset(viewer);
  const second = await step(viewer, STEPS);
  assert.equal(second.status.time, first.status.time, 'both runs end at the same time');
  assert.equal(second.status.particles, first.status.particles);
  assert.deepEqual(second.positions, first.positions, 'without a change, two runs give the same positions');

  await reset(viewer);
  await setNumber(viewer, 'gravity_x', GRAVITY_X);
  await viewer.waitStatus((s) => Math.abs(s.values.gravity_x - GRAVITY_X) < 1e-4, `gravity_x = ${GRAVITY_X} in the world's values`);
  const changed = await step(viewer, STEPS);
  await screenshot(viewer, 'gravity-after');
  assert.equal(changed.status.time, first.status.time, 'the changed run ends at the same time');
  assert.equal(changed.status.particles, first.status.particles);

  let moved = 0;
  for (let i = 0; i < first.positions.length; i++) {
    const a = first.positions[i];
    const b = changed.positions[i];
    if (Math.hypot(a[0] - b[0], a[1] - b[1], a[2] - b[2]) > 1e-4) moved++;
  }
  const shift = meanX(changed.positions) - meanX(first.positions);
  console.log(`after ${STEPS} steps (t = ${first.status.time} s): ${moved} of ${first.positions.length} particles differ by > 0.1 mm; mean x shifted by ${(shift * 1000).toFixed(2)} mm`);
  assert.ok(moved >= 0.5 * first.positions.length, `most particles moved differently (${moved} of ${first.positions.length})`);
  assert.ok(shift > 0.002, `gravity towards +x moved the fluid towards +x (mean x shift ${shift} m)`);
  assert.equal((await viewer.status()).lastError, null, 'no error reported');
  assert.deepEqual(viewer.pageErrors, []);
});
