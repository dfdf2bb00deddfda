// Two fluids in one tank (scenes/two_fluids.json): the "fluid" colouring draws each fluid in its
// own colour and the legend names them; the panel has a folder per fluid, and a change to one
// fluid's viscosity there changes only that fluid.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { join } from 'node:path';
import { openViewer, screenshot } from './lib/browser.mjs';
import { useServerAndBrowser } from './lib/fixture.mjs';
import { repoRoot } from './lib/paths.mjs';
import { decodePng } from './lib/png.mjs';
import { hsv, isWaterLike } from './lib/pixels.mjs';

const fixture = useServerAndBrowser('fluids', { scene: join(repoRoot, 'scenes', 'two_fluids.json'), threads: 1 });

/** Honey: orange (#e0a030 is hue 40), saturated and bright. */
function isHoneyLike(r, g, b) {
  const { hue, saturation, value } = hsv(r, g, b);
  return hue >= 20 && hue <= 60 && saturation >= 0.45 && value >= 0.35;
}

test('two fluids: own colours, legend names, a panel folder each; set on one fluid changes only it', { timeout: 240000 }, async () => {
  const viewer = await openViewer(fixture.browser, `${fixture.server.url}?world=1`);
  fixture.viewers.push(viewer);
  const start = await viewer.waitStatus((s) => s.connection === 'open' && s.role === 'control' && s.particles > 0 && s.fluids.length === 2,
    'a running two-fluid world', 30000);
  assert.deepEqual(start.fluids.map((f) => [f.name, f.colour, f.viscosity]), [['water', '#2f7fd0', 1], ['honey', '#e0a030', 40]]);

  // the scene says "view": {"colour": "fluid"}: it opens coloured by fluid, with no choice made here
  await viewer.page.waitForFunction(() => document.querySelector('[data-testid="legend-fluid-1"]')?.textContent === 'honey', null, { timeout: 30000 });
  assert.equal(await viewer.testId('select-attribute').inputValue(), 'fluid', 'the colour picker says fluid');
  assert.match(viewer.page.url(), /attribute=fluid/, 'and the address keeps it');
  await screenshot(viewer, 'fluids-opened-by-fluid');
  assert.equal(await viewer.testId('legend-fluid-0').innerText(), 'water');
  assert.equal(await viewer.page.locator('[data-testid^="legend-fluid-"]').count(), 2, 'one swatch per fluid');

  for (const name of ['water', 'honey']) assert.ok(await viewer.testId(`group-fluid-${name}`).isVisible(), `the panel has a folder for ${name}`);
  const input = viewer.testId('param-honey.viscosity').locator('input').first();
  assert.equal(Number(await input.inputValue()), 40, 'the honey folder shows its viscosity');
  await input.scrollIntoViewIfNeeded();
  await input.fill('20');
  await input.press('Enter');
  const changed = await viewer.waitStatus((s) => s.fluids[1]?.viscosity === 20, 'honey.viscosity = 20 in the state', 30000);
  assert.equal(changed.fluids[0].viscosity, 1, 'water keeps its viscosity');

  await viewer.waitStatus((s) => s.time > 0.3, 'the blocks spreading', 120000);
  const shot = await screenshot(viewer, 'fluids-two-fluids', viewer.testId('viewport'));
  const image = decodePng(shot.buffer);
  let water = 0;
  let honey = 0;
  for (let i = 0; i < image.width * image.height; i++) {
    const [r, g, b] = [image.data[4 * i], image.data[4 * i + 1], image.data[4 * i + 2]];
    if (isWaterLike(r, g, b)) water++;
    else if (isHoneyLike(r, g, b)) honey++;
  }
  console.log(`fluid colouring: ${water} water-blue and ${honey} honey-orange pixels of ${image.width * image.height}`);
  assert.ok(water > 500 && honey > 500, `both fluids show in their own colours (${water} blue, ${honey} orange)`);
  assert.equal((await viewer.status()).lastError, null, 'no error reported');
  assert.deepEqual(viewer.pageErrors, []);
});
