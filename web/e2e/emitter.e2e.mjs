// Adding an emitter with btn-add-emitter raises the particle count within a few seconds.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { openViewer, screenshot } from './lib/browser.mjs';
import { useServerAndBrowser } from './lib/fixture.mjs';
import { scenePath } from './lib/paths.mjs';

const fixture = useServerAndBrowser('emitter', { scene: scenePath('e2e_tank.json'), threads: 1 });

test('btn-add-emitter adds an emitter and the particle count rises', { timeout: 240000 }, async () => {
  const viewer = await openViewer(fixture.browser, `${fixture.server.url}?world=1`);
  fixture.viewers.push(viewer);
  const before = await viewer.waitStatus((s) => s.connection === 'open' && s.role === 'control' && s.particles > 0 && !s.paused,
    'a running world', 30000);
  assert.ok(Array.isArray(before.emitters), 'status().emitters is a list');
  assert.equal(before.emitters.length, 0, 'the scene has no emitter');
  const listBefore = await viewer.testId('emitter-list').innerText();

  await viewer.testId('btn-add-emitter').click();
  const added = await viewer.waitStatus((s) => s.emitters.length === 1, 'the new emitter in the world\'s state', 10000);
  const emitter = added.emitters[0];
  assert.ok(Array.isArray(emitter.direction) && emitter.direction[1] < -0.5, `the emitter points down: ${JSON.stringify(emitter)}`);
  assert.ok(emitter.position[1] > 0.04 && emitter.position[1] < 0.5, `the server placed it in the free space of the 0.5 m tall tank: ${JSON.stringify(emitter)}`);

  const grown = await viewer.waitStatus((s) => s.particles > before.particles, 'more particles than before', 10000);
  console.log(`particles ${before.particles} -> ${grown.particles} (emitter ${JSON.stringify(emitter)})`);
  const listAfter = await viewer.testId('emitter-list').innerText();
  assert.notEqual(listAfter, listBefore, 'emitter-list shows the new emitter');
  await viewer.waitStatus((s) => s.particles >= before.particles + 50, 'at least 50 more particles', 15000);
  await screenshot(viewer, 'emitter-page');
  assert.equal((await viewer.status()).lastError, null, 'no error reported');
  assert.deepEqual(viewer.pageErrors, []);
});
