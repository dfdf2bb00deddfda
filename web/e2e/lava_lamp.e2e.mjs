// The lava lamp in the viewer (scenes/lava_lamp.json, issue 23's heat): the scene opens coloured by
// temperature with the legend in degrees Celsius and kelvin and the water hidden (its view), so that
// the wax shows, drawn brighter at the bottom (the inferno map runs from black to pale yellow) once the
// hot base has worked on it. Coloured by fluid the wax's red shows; with the water shown again the
// water hides it, and a cutaway opens the lamp so that it shows again. A wall's temperature set in the
// walls panel reaches the server's walls and the fluid by that wall.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { join } from 'node:path';
import { screenshot } from './lib/browser.mjs';
import { useServerAndBrowser } from './lib/fixture.mjs';
import { repoRoot } from './lib/paths.mjs';
import { openByTemperature } from './lib/temperature.mjs';
import { decodePng } from './lib/png.mjs';
import { hsv, isWaterLike } from './lib/pixels.mjs';

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

/** Pixels of the wax's red (#e04020: hue under 25° or over 345°, saturated, lit) and of the water's blue. */
function waxAndWater(image) {
  let wax = 0;
  let water = 0;
  for (let i = 0; i < image.data.length; i += 4) {
    const [r, g, b] = [image.data[i], image.data[i + 1], image.data[i + 2]];
    const { hue, saturation, value } = hsv(r, g, b);
    if ((hue < 25 || hue > 345) && saturation > 0.6 && value > 0.45) wax++; // lit wax, not the dim tint of the hot floor
    else if (isWaterLike(r, g, b)) water++;
  }
  return { wax, water };
}

/** The lamp's box on the page (client px): the projected corners of its domain. */
async function lampBox(viewer) {
  const corners = [];
  for (const x of [0, 0.12]) for (const y of [0, 0.3]) for (const z of [0, 0.12]) corners.push([x, y, z]);
  const points = await viewer.page.evaluate((list) => list.map((p) => window.fluidcast.project(p)), corners);
  const xs = points.map((p) => p[0]);
  const ys = points.map((p) => p[1]);
  return { x: Math.floor(Math.min(...xs)), y: Math.floor(Math.min(...ys)), right: Math.ceil(Math.max(...xs)), bottom: Math.ceil(Math.max(...ys)) };
}

/** A screenshot of the lamp once two more frames have been drawn after a change: its wax and water pixels. */
async function shot(viewer, name) {
  const frames = (await viewer.status()).frames;
  await viewer.waitStatus((s) => s.frames >= frames + 2, 'two new frames', 20000);
  await viewer.page.waitForTimeout(700); // SwiftShader draws at most 5 frames a second
  const box = await lampBox(viewer);
  const page = decodePng((await screenshot(viewer, name)).buffer);
  const data = [];
  for (let y = Math.max(0, box.y); y < Math.min(page.height, box.bottom); y++) {
    const row = 4 * y * page.width;
    data.push(...page.data.subarray(row + 4 * Math.max(0, box.x), row + 4 * Math.min(page.width, box.right)));
  }
  return waxAndWater({ data });
}

test('lava lamp: coloured by temperature, the legend in °C and K, the water hidden, the wax warm at the base', { timeout: 240000 }, async () => {
  const viewer = await openByTemperature(fixture, { particles: 3000, seconds: 0.5, what: 'the base warming the wax' });
  const status = await viewer.status();
  assert.deepEqual(status.view?.hide, ['water'], `the scene's view hides the water: ${JSON.stringify(status.view)}`);
  assert.deepEqual(status.see.hidden, [0], 'the viewer hides fluid 0, the water');
  assert.equal(await viewer.page.locator('[data-testid="view-show-water"] input').isChecked(), false, 'Show water is unchecked');
  const image = decodePng((await screenshot(viewer, 'lava-lamp', viewer.testId('viewport'))).buffer);
  const warm = bright(image);
  console.log(`${warm.count} warm pixels, their mean row at ${warm.row.toFixed(3)} of the height`);
  assert.ok(warm.count > 100, 'warm fluid is drawn in the warm colours');
  assert.ok(warm.row > 0.5, `the warm fluid is in the lower half (${warm.row.toFixed(3)})`);
  assert.equal((await viewer.status()).lastError, null, 'no error reported');
  assert.deepEqual(viewer.pageErrors, []);
});

test('lava lamp: the wax shows with the water hidden or cut away, not behind the water', { timeout: 240000 }, async () => {
  const viewer = fixture.viewers[0];
  await viewer.testId('select-attribute').selectOption('fluid');
  const hidden = await shot(viewer, 'lava-lamp-water-hidden');
  await viewer.page.locator('[data-testid="view-show-water"] input').click();
  await viewer.waitStatus((s) => s.see.hidden.length === 0, 'the water shown');
  const shown = await shot(viewer, 'lava-lamp-water-shown');
  await viewer.page.locator('[data-testid="view-cut-axis"] select').selectOption({ label: 'along z' });
  const cut = await viewer.waitStatus((s) => s.see.cut?.axis === 'z', 'a cutaway along z');
  assert.ok(Math.abs(cut.see.cut.at - 0.06) < 1e-9 && cut.see.cut.keep === 'below', `the cut starts in the middle: ${JSON.stringify(cut.see.cut)}`);
  const opened = await shot(viewer, 'lava-lamp-cutaway');
  console.log(`wax / water pixels: water hidden ${JSON.stringify(hidden)}, shown ${JSON.stringify(shown)}, cut away ${JSON.stringify(opened)}`);
  assert.ok(hidden.wax > 400 && hidden.water < hidden.wax / 10, 'the water hidden: the wax shows, no water');
  assert.ok(shown.water > 20 * hidden.water + 2000 && shown.wax < hidden.wax / 3, 'the water shown: it hides most of the wax');
  assert.ok(opened.wax > 3 * shown.wax && opened.water > 1000, 'cut open: the wax shows beside the water');
  assert.deepEqual(viewer.pageErrors, []);
});

test('lava lamp: a wall\'s temperature set in the walls panel reaches the server and the fluid', { timeout: 240000 }, async () => {
  const viewer = fixture.viewers[0];
  const panel = viewer.testId('wall-panel');
  assert.ok(await panel.isVisible(), 'the walls panel is shown');
  const floor = await viewer.status();
  assert.equal(floor.walls.y_min?.temperature, 345, `the scene's hot base is in the state: ${JSON.stringify(floor.walls)}`);
  // heat reaching particles: the water by the left wall warms above the water by the right wall
  await viewer.testId('select-attribute').selectOption('temperature');
  const side = (lo, hi) => ({ min: [lo, 0.12, 0], max: [hi, 0.26, 0.12] }); // mid-height, away from the hot base and the cold lid
  const difference = () => viewer.page.evaluate(([left, right]) => {
    const a = window.fluidcast.meanAttribute('temperature', left);
    const b = window.fluidcast.meanAttribute('temperature', right);
    return a && b && a.count > 20 && b.count > 20 ? { left: a.mean, right: b.mean, difference: a.mean - b.mean } : null;
  }, [side(0, 0.02), side(0.1, 0.12)]);
  const frames = (await viewer.status()).frames;
  await viewer.waitStatus((s) => s.frames > frames + 1, 'frames coloured by temperature');
  const before = await difference();
  console.log(`before: by the left wall / by the right wall: ${JSON.stringify(before)}`);
  assert.ok(before && Math.abs(before.difference) < 3, 'both sides alike while the left wall insulates');
  const folder = viewer.testId('wall-x_min');
  await folder.locator('.lil-title').first().click(); // open the left wall's folder
  await viewer.page.locator('[data-testid="wall-x_min-on"] input').click();
  await viewer.waitStatus((s) => s.walls.x_min?.heat_transfer > 0, 'the left wall heating in the server\'s state');
  const temperature = viewer.page.locator('[data-testid="wall-x_min-temperature"] input');
  await temperature.fill('360');
  await temperature.press('Enter');
  await temperature.blur();
  const heated = await viewer.waitStatus((s) => s.walls.x_min?.temperature === 360, 'the left wall at 360 K in the server\'s state', 10000);
  console.log(`walls: ${JSON.stringify(heated.walls)}`);
  const transfer = viewer.page.locator('[data-testid="wall-x_min-heat_transfer"] input');
  await transfer.fill('20000');
  await transfer.press('Enter');
  await transfer.blur();
  const strong = await viewer.waitStatus((s) => s.walls.x_min?.heat_transfer === 20000, 'the left wall at 20000 W/(m² K)', 10000);
  console.log(`walls: ${JSON.stringify(strong.walls)}`);
  const t0 = strong.time;
  await viewer.waitStatus((s) => s.time > t0 + 0.5, 'half a simulated second at the hot wall', 120000);
  const warmed = await difference();
  console.log(`by the left wall / by the right wall: ${JSON.stringify(warmed)}`);
  assert.ok(warmed && warmed.difference > 5, 'the water by the 360 K wall is more than 5 K warmer than by the insulating right wall');
  await screenshot(viewer, 'lava-lamp-left-wall-hot');
  assert.equal((await viewer.status()).lastError, null, 'no error reported');
});

