// A watch-only page (server with --token, page without it) says so, has its controls disabled,
// and nothing it tries changes the world (the server answers forbidden, shown in error-toast);
// with ?token= the same server gives control, and the watcher follows what the controller does.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { openViewer, screenshot } from './lib/browser.mjs';
import { useServerAndBrowser } from './lib/fixture.mjs';
import { scenePath } from './lib/paths.mjs';

const TOKEN = 'e2e-secret-token';
const CONTROL_BUTTONS = ['btn-play', 'btn-pause', 'btn-step', 'btn-reset'];
const fixture = useServerAndBrowser('watch', { scene: scenePath('e2e_tank.json'), threads: 1, token: TOKEN });
let watcher = null;

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

/** Waits for a state the server sent after `since` (a running world sends one at least every second). */
async function settledStatus(viewer, since) {
  return viewer.waitStatus((s) => s.frames >= since.frames + 3 && s.time > since.time, 'three more frames', 15000);
}

test('a page without the token watches, says so and cannot control', { timeout: 240000 }, async () => {
  watcher = await openViewer(fixture.browser, `${fixture.server.url}?world=1`);
  fixture.viewers.push(watcher);
  const start = await watcher.waitStatus((s) => s.connection === 'open' && s.particles > 0 && s.frames > 0 && s.role !== null,
    'connection open with a role', 30000);
  assert.equal(start.role, 'watch');
  assert.equal(start.paused, false);
  assert.ok(await watcher.testId('watch-note').isVisible(), 'watch-note is visible');
  assert.ok((await watcher.testId('watch-note').innerText()).trim().length > 0, 'watch-note says something');
  for (const id of CONTROL_BUTTONS) assert.ok(await watcher.testId(id).isDisabled(), `${id} is disabled`);
  const gravity = watcher.testId('param-gravity_x').locator('input').first();
  assert.ok(await gravity.isDisabled() || !(await gravity.isEditable()), 'the parameter inputs are read-only');
  await screenshot(watcher, 'watch-page');

  // Clicking the disabled buttons (forced past Playwright's checks) does nothing.
  await watcher.testId('btn-pause').click({ force: true });
  await watcher.testId('btn-add-emitter').click({ force: true }).catch(() => {});
  let now = await settledStatus(watcher, await watcher.status());
  assert.equal(now.paused, false, 'the world still runs after clicking the disabled pause button');
  assert.equal(now.emitters.length, 0, 'no emitter was added');

  // Control messages sent directly are refused with forbidden, shown to the user, and change nothing.
  await watcher.page.evaluate(() => window.fluidcast.send({ type: 'pause', world: 1 }));
  const refused = await watcher.waitStatus((s) => s.lastError !== null, 'the error answering pause');
  assert.equal(refused.lastError.code, 'forbidden');
  const toast = watcher.testId('error-toast');
  await toast.waitFor({ state: 'visible', timeout: 15000 });
  const toastText = await toast.innerText();
  assert.match(toastText, /forbidden|control role/i, `error-toast shows the refusal: "${toastText}"`);
  await screenshot(watcher, 'watch-forbidden');

  await watcher.page.evaluate(() => window.fluidcast.send({ type: 'set', world: 1, values: { gravity_x: 5 } }));
  await watcher.page.evaluate(() => window.fluidcast.send({
    type: 'emitter_add', world: 1, emitter: { position: [0.3, 0.4, 0.2], direction: [0, -1, 0], radius: 0.03, speed: 1 },
  }));
  await sleep(1500); // states arrive at least once a second
  now = await settledStatus(watcher, await watcher.status());
  assert.equal(now.paused, false, 'pause was not applied');
  assert.equal(now.values.gravity_x, 0, 'set was not applied');
  assert.equal(now.emitters.length, 0, 'emitter_add was not applied');
  assert.equal(now.lastError.code, 'forbidden');
  assert.ok(now.particles <= start.particles, 'no particles were emitted');
  assert.deepEqual(watcher.pageErrors, []);
});

test('the same server gives control with ?token=, and the watcher follows', { timeout: 240000 }, async () => {
  assert.ok(watcher, 'the watch page is open');
  const controller = await openViewer(fixture.browser, `${fixture.server.url}?world=1&token=${encodeURIComponent(TOKEN)}`);
  fixture.viewers.push(controller);
  await controller.waitStatus((s) => s.connection === 'open' && s.particles > 0 && s.role !== null, 'connection open with a role', 30000);
  assert.equal((await controller.status()).role, 'control');
  assert.ok(!(await controller.testId('watch-note').isVisible()), 'no watch note for the controller');
  for (const id of CONTROL_BUTTONS) assert.ok(await controller.testId(id).isEnabled(), `${id} is enabled`);
  assert.ok(await controller.testId('param-gravity_x').locator('input').first().isEditable(), 'the parameter inputs are editable');
  await screenshot(controller, 'watch-controller-page');

  await controller.testId('btn-pause').click();
  await controller.waitStatus((s) => s.paused, 'paused, as the controller sees it');
  await watcher.waitStatus((s) => s.paused, 'paused, as the watcher sees it');
  await controller.testId('btn-play').click();
  const running = await controller.waitStatus((s) => !s.paused, 'running again');
  await controller.waitStatus((s) => s.time > running.time, 'time moving on');
  await watcher.waitStatus((s) => !s.paused, 'running again, as the watcher sees it');
  assert.equal((await controller.status()).lastError, null, 'no error for the controller');
  assert.deepEqual(controller.pageErrors, []);
  assert.deepEqual(watcher.pageErrors, []);
});
