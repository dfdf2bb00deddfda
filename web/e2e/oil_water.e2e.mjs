// Oil and water (scenes/oil_water.json, issue 23's tension): the scene opens coloured by fluid with
// the legend naming water and oil, the oil's panel folder shows it nonpolar, and as the simulation
// runs the oil (amber) rises: its pixels' mean height on screen climbs from where the two blocks
// started at the bottom of the tank.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { join } from 'node:path';
import { openViewer, screenshot } from './lib/browser.mjs';
import { useServerAndBrowser } from './lib/fixture.mjs';
import { tankBox } from './lib/tank.mjs';
import { repoRoot } from './lib/paths.mjs';
import { decodePng } from './lib/png.mjs';
import { hsv, isWaterLike } from './lib/pixels.mjs';

const fixture = useServerAndBrowser('oil_water', { scene: join(repoRoot, 'scenes', 'oil_water.json'), threads: 1 });

/** Oil: amber (#e0a030 is hue 40), saturated and bright. */
function isOilLike(r, g, b) {
  const { hue, saturation, value } = hsv(r, g, b);
  return hue >= 20 && hue <= 60 && saturation >= 0.45 && value >= 0.35;
}

/** How many pixels pass `is`, and their mean row as a fraction of the height (0 top, 1 bottom). */
function pixels(image, is) {
  let count = 0;
  let rows = 0;
  for (let y = 0; y < image.height; y++) {
    for (let x = 0; x < image.width; x++) {
      const i = 4 * (y * image.width + x);
      if (is(image.data[i], image.data[i + 1], image.data[i + 2])) count++, (rows += y);
    }
  }
  return { count, row: count ? rows / count / image.height : NaN };
}

test('oil and water: coloured by fluid, the oil nonpolar, the oil rises', { timeout: 300000 }, async () => {
  const viewer = await openViewer(fixture.browser, `${fixture.server.url}?world=1`);
  fixture.viewers.push(viewer);
  await viewer.waitStatus((s) => s.connection === 'open' && s.role === 'control' && s.particles > 3000 && s.fluids.length === 2,
    'oil and water running', 30000);
  await viewer.page.waitForFunction(() => document.querySelector('[data-testid="legend-fluid-1"]')?.textContent === 'oil', null, { timeout: 30000 });
  assert.equal(await viewer.testId('select-attribute').inputValue(), 'fluid', 'coloured by fluid');
  assert.equal(await viewer.testId('legend-fluid-0').innerText(), 'water');
  assert.ok(await viewer.testId('group-fluid-oil').isVisible(), 'the panel has a folder for the oil');
  const polarity = viewer.testId('param-oil.polarity').locator('select').first();
  assert.equal(await polarity.inputValue(), 'nonpolar', "the oil's folder shows it nonpolar");

  // The first frames on a slow machine may be drawn before the fluid attribute arrives (every particle
  // in the first fluid's colour): look again until the oil shows, for at most 20 s.
  let first, oilStart, water;
  for (const until = Date.now() + 20000; ;) {
    first = decodePng((await screenshot(viewer, 'oil-water-start', viewer.testId('viewport'))).buffer);
    oilStart = pixels(first, isOilLike);
    water = pixels(first, isWaterLike);
    if (oilStart.count > 200 || Date.now() > until) break;
    await new Promise((r) => setTimeout(r, 500));
  }
  console.log(`start: ${oilStart.count} oil pixels at ${oilStart.row.toFixed(3)} of the height, ${water.count} water pixels`);
  assert.ok(oilStart.count > 200 && water.count > 200, 'both fluids drawn in their colours');

  await viewer.waitStatus((s) => s.time > 3, 'three simulated seconds', 240000);
  const later = decodePng((await screenshot(viewer, 'oil-water-risen', viewer.testId('viewport'))).buffer);
  const oilLater = pixels(later, isOilLike);
  console.log(`at 3 s: ${oilLater.count} oil pixels at ${oilLater.row.toFixed(3)} of the height`);
  // 3% of the tank's drawn height, as a share of the picture's height
  const tank = await tankBox(viewer);
  const rise = (0.03 * tank.height) / later.height;
  assert.ok(oilLater.row < oilStart.row - rise, `the oil rises on screen by more than ${rise.toFixed(3)} (${oilStart.row.toFixed(3)} to ${oilLater.row.toFixed(3)})`);
  assert.equal((await viewer.status()).lastError, null, 'no error reported');
  assert.deepEqual(viewer.pageErrors, []);
});
