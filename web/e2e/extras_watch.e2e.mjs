// The extras for a watcher (a page without the control token): transport shortcuts do nothing, colour, framing, plots and help work.
// Scene: scenes/e2e_tank.json with --token, one solver thread.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { openViewer, screenshot, waitFor } from './lib/browser.mjs';
import { useServerAndBrowser } from './lib/fixture.mjs';
import { scenePath } from './lib/paths.mjs';

const fixture = useServerAndBrowser('extras_watch', { scene: scenePath('e2e_tank.json'), threads: 1, token: 'watch-secret' });

test('a watcher\'s shortcuts: no play, step or reset; colour, F, P and ? work', { timeout: 180000 }, async () => {
  const viewer = await openViewer(fixture.browser, `${fixture.server.url}?world=1`);
  fixture.viewers.push(viewer);
  await viewer.waitStatus((s) => s.connection === 'open' && s.role === 'watch' && s.particles > 0 && !s.paused, 'a watcher of a running world', 30000);
  const press = async (key) => {
    await viewer.page.evaluate(() => document.activeElement?.blur());
    await viewer.page.keyboard.press(key);
  };
  const before = await viewer.status();
  await press(' ');
  await press('r');
  await press('.');
  await viewer.page.waitForTimeout(1500);
  const after = await viewer.status();
  assert.equal(after.paused, false, 'space did not pause the world');
  assert.ok(after.time > before.time, `the world ran on, not reset: ${before.time} -> ${after.time}`);
  assert.equal(after.lastError, null, 'no request was sent (the buttons are disabled), so no forbidden error');

  await press('2');
  await waitFor(async () => (await viewer.testId('select-attribute').inputValue()) === 'speed', 'colour by speed for the watcher', 5000);
  const target = (await viewer.page.evaluate(() => window.fluidcast.extras())).target;
  await press('f');
  await waitFor(async () => {
    const t = (await viewer.page.evaluate(() => window.fluidcast.extras())).target;
    return Math.hypot(...t.map((x, i) => x - target[i])) > 0.01;
  }, 'the camera framed on the fluid', 5000);
  await viewer.page.waitForTimeout(1000);
  await screenshot(viewer, 'extras-watch-framed');
  await press('p');
  await waitFor(() => viewer.testId('plot-particles').isVisible(), 'the plots opened by P', 5000);
  await press('?');
  await waitFor(() => viewer.testId('help-overlay').isVisible(), 'the help', 5000);
  await screenshot(viewer, 'extras-watch-help');
  await press('Escape');
  await waitFor(async () => !(await viewer.testId('help-overlay').isVisible()), 'the help closed', 5000);
  assert.deepEqual(viewer.pageErrors, []);
});
