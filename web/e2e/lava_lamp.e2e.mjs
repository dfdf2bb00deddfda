// The lava lamp in the viewer (scenes/lava_lamp.json, issue 23's heat): the scene opens coloured by
// temperature with the legend in degrees Celsius and kelvin, and once the hot base has worked on the
// wax the bottom of the lamp is drawn brighter (the inferno map runs from black to pale yellow) than
// its top under the cold lid.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { join } from 'node:path';
import { screenshot } from './lib/browser.mjs';
import { useServerAndBrowser } from './lib/fixture.mjs';
import { repoRoot } from './lib/paths.mjs';
import { openByTemperature } from './lib/temperature.mjs';
import { decodePng } from './lib/png.mjs';

const fixture = useServerAndBrowser('lava_lamp', { scene: join(repoRoot, 'scenes', 'lava_lamp.json'), threads: 1 });

/** The bright pixels (r + g + b above 300: warm colours of the map, not the dark background) and their
 * mean row as a fraction of the height (0 top, 1 bottom). */
function bright(image) {
  let count = 0;
  let rows = 0;
  for (let y = 0; y < image.height; y++) {
    for (let x = 0; x < image.width; x++) {
      const i = 4 * (y * image.width + x);
      if (image.data[i] + image.data[i + 1] + image.data[i + 2] > 300 && image.data[i] > image.data[i + 2]) count++, (rows += y);
    }
  }
  return { count, row: count ? rows / count / image.height : NaN };
}

test('lava lamp: coloured by temperature, the legend in °C and K, warm at the base', { timeout: 240000 }, async () => {
  const viewer = await openByTemperature(fixture, { particles: 3000, seconds: 0.5, what: 'the base warming the wax' });
  const image = decodePng((await screenshot(viewer, 'lava-lamp', viewer.testId('viewport'))).buffer);
  const warm = bright(image);
  console.log(`${warm.count} warm pixels, their mean row at ${warm.row.toFixed(3)} of the height`);
  assert.ok(warm.count > 100, 'warm fluid is drawn in the warm colours');
  assert.ok(warm.row > 0.5, `the warm fluid is in the lower half (${warm.row.toFixed(3)})`);
  assert.equal((await viewer.status()).lastError, null, 'no error reported');
  assert.deepEqual(viewer.pageErrors, []);
});
