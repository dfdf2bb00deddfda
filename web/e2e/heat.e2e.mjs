// Heat in the viewer (scenes/heat_sources_2d.json, seed 004's heat test): the scene opens coloured by
// temperature, the legend reads the range in degrees Celsius and kelvin, widened to the 100 K and
// 500 K walls, and once they have worked on the water the side by the hot wall is drawn brighter
// (the inferno colour map runs from black to pale yellow) than the side by the cold one.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { join } from 'node:path';
import { screenshot } from './lib/browser.mjs';
import { useServerAndBrowser } from './lib/fixture.mjs';
import { tankBox } from './lib/tank.mjs';
import { repoRoot } from './lib/paths.mjs';
import { openByTemperature } from './lib/temperature.mjs';
import { decodePng } from './lib/png.mjs';

const fixture = useServerAndBrowser('heat', { scene: join(repoRoot, 'scenes', 'heat_sources_2d.json'), threads: 1 });

/** Mean brightness (r + g + b) of the pixels of a box {x0, x1, y0, y1} (px) of the image. */
function boxBrightness(image, box) {
  let sum = 0;
  let count = 0;
  for (let y = Math.max(0, Math.floor(box.y0)); y < Math.min(image.height, Math.floor(box.y1)); y++) {
    for (let x = Math.max(0, Math.floor(box.x0)); x < Math.min(image.width, Math.floor(box.x1)); x++) {
      const i = 4 * (y * image.width + x);
      sum += image.data[i] + image.data[i + 1] + image.data[i + 2];
      count++;
    }
  }
  return count ? sum / count : 0;
}

test('heat: opens coloured by temperature, the legend in °C and K spans the walls, the hot side glows', { timeout: 240000 }, async () => {
  const viewer = await openByTemperature(fixture, { particles: 3000, seconds: 1.5, what: 'the walls working on the water' });
  const shot = await screenshot(viewer, 'heat-sources-2d', viewer.testId('viewport'));
  const image = decodePng(shot.buffer);
  // bands of the tank as drawn (the framing keeps it clear of the panel) by each wall, where the walls have heated and cooled the water, over its height
  const tank = await tankBox(viewer);
  const origin = await viewer.testId('viewport').boundingBox();
  const band = (from, to) => ({
    x0: tank.left - origin.x + from * tank.width, x1: tank.left - origin.x + to * tank.width,
    y0: tank.top - origin.y + 0.3 * tank.height, y1: tank.bottom - origin.y,
  });
  const left = boxBrightness(image, band(0, 0.08)), right = boxBrightness(image, band(0.92, 1));
  console.log(`brightness by the hot wall ${left.toFixed(1)}, by the cold wall ${right.toFixed(1)}`);
  assert.ok(left > right, `the hot side is drawn brighter (${left.toFixed(1)} against ${right.toFixed(1)})`);
  assert.equal((await viewer.status()).lastError, null, 'no error reported');
  assert.deepEqual(viewer.pageErrors, []);
});
