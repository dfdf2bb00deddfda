// Trapped air in the viewer (issue 23 item 9): a 2D tank with a bubble of air (a fluid of kind air,
// drawn red) opens coloured by fluid; "Hide air" leaves the air out of the picture (the frames then
// carry each particle's fluid) while the water stays, and "Show air" brings it back. The legend's
// swatch of the air is red too: a hidden bubble leaves only those pixels.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { join } from 'node:path';
import { openViewer, screenshot } from './lib/browser.mjs';
import { useServerAndBrowser } from './lib/fixture.mjs';
import { tankBox } from './lib/tank.mjs';
import { e2eDir } from './lib/paths.mjs';
import { decodePng } from './lib/png.mjs';
import { hsv, isWaterLike } from './lib/pixels.mjs';

const fixture = useServerAndBrowser('air', { scene: join(e2eDir, 'scenes', 'air_bubble_2d.json'), threads: 1 });

/** The air's red (#e03030: hue 0), saturated and bright. */
function isAirLike(r, g, b) {
  const { hue, saturation, value } = hsv(r, g, b);
  return (hue <= 20 || hue >= 340) && saturation >= 0.45 && value >= 0.35;
}

function count(image, is) {
  let n = 0;
  for (let i = 0; i < image.data.length; i += 4) n += is(image.data[i], image.data[i + 1], image.data[i + 2]) ? 1 : 0;
  return n;
}

/** A screenshot of the viewport, taken again (up to 20 s) until `ready` holds for its counts. */
async function shotUntil(viewer, name, ready) {
  let counts;
  for (const until = Date.now() + 20000; ;) {
    const image = decodePng((await screenshot(viewer, name, viewer.testId('viewport'))).buffer);
    counts = { air: count(image, isAirLike), water: count(image, isWaterLike) };
    if (ready(counts) || Date.now() > until) return counts;
    await new Promise((r) => setTimeout(r, 500));
  }
}

test('air: drawn in its colour, hidden and shown again from the toolbar', { timeout: 180000 }, async () => {
  const viewer = await openViewer(fixture.browser, `${fixture.server.url}?world=1`);
  fixture.viewers.push(viewer);
  await viewer.waitStatus((s) => s.connection === 'open' && s.role === 'control' && s.particles > 1000 && s.fluids.length === 2,
    'the air bubble running', 30000);
  // paused, then reset: the whole bubble at t = 0 (it reaches the surface and is removed there
  // after about 0.5 s, sooner than a busy machine may click pause)
  await viewer.testId('btn-pause').click();
  await viewer.waitStatus((s) => s.paused === true, 'paused', 10000);
  const before = await viewer.status();
  await viewer.testId('btn-reset').click();
  await viewer.waitStatus((s) => s.frames > before.frames && s.time === 0 && s.paused, 'the reset frame (time 0, paused)', 15000);
  assert.equal(await viewer.testId('select-attribute').inputValue(), 'fluid', 'coloured by fluid');
  const toggle = viewer.testId('btn-air');
  assert.ok(await toggle.isVisible(), 'the toolbar offers to hide the air');
  assert.equal(await toggle.innerText(), 'Hide air');

  // the bubble (r 0.052 m) is 5.3% of the 0.4 × 0.4 m tank's area, the water about 70%: on screen,
  // shares of the tank's drawn area (the framing leaves the UI out)
  const tank = await tankBox(viewer);
  const bubbleShare = (Math.PI * 0.052 ** 2) / (0.4 * 0.4);
  const airPixels = 0.6 * bubbleShare * tank.area;
  const shown = await shotUntil(viewer, 'air-shown', (c) => c.air > airPixels);
  console.log(`air shown: ${shown.air} air pixels, ${shown.water} water pixels; the tank drawn over ${tank.area.toFixed(0)} px²`);
  assert.ok(shown.air > airPixels && shown.water > 0.3 * tank.area, 'the whole bubble and the water are drawn');

  await toggle.click();
  assert.equal(await toggle.innerText(), 'Show air');
  const legendSwatch = 150; /* the legend's red dot */
  const hidden = await shotUntil(viewer, 'air-hidden', (c) => c.air < legendSwatch);
  console.log(`air hidden: ${hidden.air} air pixels, ${hidden.water} water pixels`);
  assert.ok(hidden.air < legendSwatch && hidden.air < shown.air / 5, `no air drawn once hidden (${hidden.air} pixels)`);
  assert.ok(hidden.water > shown.water * 0.8, 'the water is still drawn');

  await toggle.click();
  const again = await shotUntil(viewer, 'air-shown-again', (c) => c.air > shown.air * 0.9);
  console.log(`air shown again: ${again.air} air pixels`);
  assert.ok(again.air > shown.air * 0.9, 'the air is drawn again, as before it was hidden');
  assert.equal((await viewer.status()).lastError, null, 'no error reported');
  assert.deepEqual(viewer.pageErrors, []);
});
