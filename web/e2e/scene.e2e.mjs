// Scenes from the viewer: a shipped scene brings its own solver and parameters (the pickers follow);
// a scene file from this computer loads, and a bad one is refused with its key path; colliders are
// added, heated and removed from the list, and the colliders scene starts with no fluid inside them.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { openViewer, screenshot } from './lib/browser.mjs';
import { useServerAndBrowser } from './lib/fixture.mjs';
import { ensureArtifactsDir, scenePath } from './lib/paths.mjs';

const fixture = useServerAndBrowser('scene', { scene: scenePath('e2e_tank.json'), threads: 1 });
let viewer = null;

const selected = (id) => viewer.testId(id).evaluate((select) => select.value);
const worldLabel = () => viewer.testId('select-world').locator('option:checked').innerText();

/** Waits for the newest frame to be one of the world as `scene` now is (its state's epoch). */
function builtFrom(scene) {
  return viewer.waitStatus((s) => s.scene === scene && s.frameEpoch === s.epoch && s.particles > 0, `frames of ${scene}`, 60000);
}

async function loadShipped(name) {
  await viewer.testId('select-scene').selectOption(name);
  return builtFrom(name);
}

test('a shipped scene brings its solver and time step, and the pickers show them', { timeout: 240000 }, async () => {
  viewer = await openViewer(fixture.browser, `${fixture.server.url}?world=1`);
  fixture.viewers.push(viewer);
  await viewer.waitStatus((s) => s.connection === 'open' && s.role === 'control' && s.particles > 0, 'a controlled world', 30000);
  assert.equal((await viewer.status()).solver, 'sph');

  const pbf = await loadShipped('dam_break_pbf');
  assert.equal(pbf.solver, 'pbf', 'dam_break_pbf runs with PBF in a world that was SPH');
  assert.equal(pbf.values.time_step, 0.002, 'with the scene\'s 2 ms step');
  await viewer.page.waitForFunction(() => document.querySelector('[data-testid="select-solver"]').value === 'pbf');
  assert.match(await worldLabel(), /dam_break_pbf/, 'the world picker names the scene now loaded');
  const running = await viewer.waitStatus((s) => s.time > 0.3, 'dam_break_pbf running', 60000);
  const positions = await viewer.positions(running.particles);
  const inside = positions.filter((p) => p.every((x) => Number.isFinite(x))).length;
  assert.equal(inside, positions.length, 'no particle went non-finite');
  assert.equal(running.unstable, null, 'it does not blow up');
  await screenshot(viewer, 'scene-dam-break-pbf');

  const sph = await loadShipped('dam_break');
  assert.equal(sph.solver, 'sph', 'dam_break brings SPH back');
  assert.equal(await selected('select-solver'), 'sph');
});

test('a scene file from this computer loads; a bad one names the key at fault and changes nothing', { timeout: 240000 }, async () => {
  const dir = ensureArtifactsDir();
  const good = join(dir, 'upload_block.json');
  writeFileSync(good, JSON.stringify({
    name: 'upload_block', solver: 'pbf',
    domain: { min: [0, 0, 0], max: [0.4, 0.4, 0.4] },
    fluid: [{ type: 'box', min: [0.1, 0, 0.1], max: [0.3, 0.2, 0.3] }],
    parameters: { particle_spacing: 0.02, time_step: 0.002 },
  }));
  await viewer.testId('scene-file').setInputFiles(good);
  const loaded = await builtFrom('upload_block');
  assert.equal(loaded.solver, 'pbf');
  assert.ok(loaded.particles > 500 && loaded.particles < 2000, `a 0.2 m block at 2 cm (${loaded.particles} particles)`);

  const bad = join(dir, 'upload_bad.json');
  writeFileSync(bad, JSON.stringify({
    name: 'upload_bad', domain: { min: [0, 0, 0], max: [0.4, 0.4, 0.4] },
    fluid: [{ type: 'box', min: [0.1, 0, 0.1], max: [0.3, 'high', 0.3] }],
  }));
  await viewer.testId('scene-file').setInputFiles(bad);
  const toast = viewer.testId('error-toast');
  await toast.waitFor({ state: 'visible', timeout: 15000 });
  const text = await toast.innerText();
  console.log(`bad scene file: ${text}`);
  assert.match(text, /^upload_bad\.json: .*fluid\[0\]\.max/, `the message names the file and the key path: "${text}"`);
  await screenshot(viewer, 'scene-upload-error');
  const after = await viewer.status();
  assert.equal(after.scene, 'upload_block', 'the world keeps the scene it had');

  const broken = join(dir, 'upload_broken.json');
  writeFileSync(broken, '{"name": "x",\n "domain": }');
  await viewer.testId('scene-file').setInputFiles(broken);
  // line and column, in the words `fluidcast run --scene upload_broken.json` uses
  const expected = 'upload_broken.json: line 2, column 12: expected valid JSON, found "}"';
  await viewer.page.waitForFunction((text) => document.querySelector('[data-testid="error-toast"]').textContent === text, expected);
  await screenshot(viewer, 'scene-upload-broken-json');
});

test('colliders are added and removed from the list; the colliders scene has no fluid inside them', { timeout: 240000 }, async () => {
  const start = await loadShipped('pool_colliders');
  assert.ok(start.colliders.length >= 2, `the scene has a sphere and a box (${start.colliders.length} colliders)`);
  const positions = await viewer.positions(start.particles);
  for (const c of start.colliders) {
    const inside = positions.filter((p) => (c.shape === 'sphere'
      ? Math.hypot(p[0] - c.position[0], p[1] - c.position[1], p[2] - c.position[2]) < c.radius - 0.005
      : p.every((x, i) => Math.abs(x - c.position[i]) < c.half_extents[i] - 0.005))).length;
    assert.equal(inside, 0, `no particle starts inside collider #${c.id} (${c.shape})`);
  }
  await screenshot(viewer, 'scene-pool-colliders');

  const count = start.colliders.length;
  const errorBefore = start.lastError; // the bad upload's, above
  await viewer.testId('btn-add-sphere').click();
  await viewer.waitStatus((s) => s.colliders.length === count + 1 && s.colliders.at(-1).shape === 'sphere', 'the added sphere', 15000);
  await viewer.testId('btn-add-box').click();
  const added = await viewer.waitStatus((s) => s.colliders.length === count + 2 && s.colliders.at(-1).shape === 'box', 'the added box', 15000);
  assert.equal(await viewer.page.locator('#colliders [data-collider-id]').count(), count + 2, 'the list shows them');
  await screenshot(viewer, 'scene-colliders-added');
  const boxId = added.colliders.at(-1).id;
  // its temperature field makes it a heater (collider_update), and emptied an insulator again
  const field = viewer.page.locator(`#colliders [data-collider-id="${boxId}"] input[data-field="temperature"]`);
  await field.fill('350');
  await field.press('Enter');
  await viewer.waitStatus((s) => s.colliders.some((c) => c.id === boxId && c.temperature === 350 && c.heat_transfer === 1000), 'the box heats at 350 K', 15000);
  await screenshot(viewer, 'scene-collider-heater');
  await field.fill('');
  await field.press('Enter');
  await viewer.waitStatus((s) => s.colliders.some((c) => c.id === boxId && c.heat_transfer === 0), 'the box insulates again', 15000);
  await viewer.page.locator(`#colliders [data-collider-id="${boxId}"] button.remove`).click();
  await viewer.waitStatus((s) => s.colliders.length === count + 1 && !s.colliders.some((c) => c.id === boxId), 'the box removed', 15000);
  assert.deepEqual((await viewer.status()).lastError, errorBefore, 'no error since');
  assert.deepEqual(viewer.pageErrors, []);
});
