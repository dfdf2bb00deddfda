// Safe by default (issue 21): the time step slides on a log scale with its risky part marked, the
// room link shows the server's --public-url, and the blow-up banner's one click sends the suggested
// values, rewinds and runs on.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { openViewer, screenshot, waitFor } from './lib/browser.mjs';
import { useServerAndBrowser } from './lib/fixture.mjs';
import { scenePath } from './lib/paths.mjs';

const PUBLIC_URL = 'https://room.example.org/fc/';
const fixture = useServerAndBrowser('safe', {
  scene: scenePath('e2e_tank.json'), threads: 1, extraArgs: ['--public-url', PUBLIC_URL],
});

let viewer;

async function open() {
  if (viewer) return viewer;
  viewer = await openViewer(fixture.browser, `${fixture.server.url}?world=1`);
  fixture.viewers.push(viewer);
  await viewer.waitStatus((s) => s.connection === 'open' && s.role === 'control' && s.particles > 0, 'a controlled world', 30000);
  return viewer;
}

test('Time step slides on a log scale: a nudge is a small factor, the acoustic limit is marked', { timeout: 180000 }, async () => {
  await open();
  // with the adaptive step (the default) time_step is only a cap and no value of it is risky: fix
  // the step, as a user who wants every step the same length would, to see the acoustic limit
  assert.ok(await viewer.page.evaluate(() => window.fluidcast.send({ type: 'set', world: 1, values: { adaptive_time_step: false } })));
  await viewer.waitStatus((s) => s.values.adaptive_time_step === false, 'the step fixed');
  const row = viewer.testId('param-time_step');
  const slider = row.locator('input.log-slider');
  const field = row.locator('input').first();
  const start = await viewer.status();
  const { time_step: dt, smoothing_radius: h, speed_of_sound: c } = start.values;

  // the risky part starts at 0.4 h / c, at its log share of the track (1e-6 .. 0.02 s)
  const limit = (0.4 * h) / c;
  const share = (100 * Math.log(limit / 1e-6)) / Math.log(0.02 / 1e-6);
  const marked = parseFloat(await slider.getAttribute('data-risky-from'));
  assert.ok(Math.abs(marked - share) < 0.2, `the risky part starts at ${share.toFixed(1)}% of the track (0.4 h/c = ${limit} s): ${marked}%`);

  // one arrow-key nudge: about 1%
  await slider.focus();
  await slider.press('ArrowRight');
  const nudged = await viewer.waitStatus((s) => s.values.time_step !== dt, 'the nudged time step applied');
  const keyRatio = nudged.values.time_step / dt;
  assert.ok(keyRatio > 1 && keyRatio < 1.05, `an arrow key moves Time step by ${keyRatio.toFixed(3)}x (${dt} -> ${nudged.values.time_step})`);

  // a 12 px drag (the newcomer's: 0.0005 -> 0.0023 on the linear slider)
  const box = await slider.boundingBox();
  const y = box.y + box.height / 2;
  const x = box.x + box.width * 0.3;
  await viewer.page.mouse.move(x, y);
  await viewer.page.mouse.down();
  const pressed = Number(await field.inputValue()); // the field follows the knob while dragging
  await viewer.page.mouse.move(x + 12, y, { steps: 4 });
  await viewer.page.mouse.up();
  const dragged = await viewer.waitStatus((s) => s.values.time_step !== nudged.values.time_step && Math.abs(s.values.time_step - pressed) > 1e-12,
    'the dragged time step applied');
  const dragRatio = dragged.values.time_step / pressed;
  console.log(`slider ${box.width.toFixed(0)} px wide; 12 px: ${pressed} -> ${dragged.values.time_step} s (${dragRatio.toFixed(2)}x)`);
  assert.ok(dragRatio > 1.05 && dragRatio < 1.6, `a 12 px nudge moves Time step by ${dragRatio.toFixed(2)}x, not 4x`);
  await screenshot(viewer, 'safe-time-step-slider', viewer.testId('group-live'));
  assert.deepEqual(viewer.pageErrors, []);
});

test('the room link and its QR code show the server\'s --public-url, with no loopback warning', { timeout: 60000 }, async () => {
  await open();
  await viewer.testId('btn-room-link').click();
  const popover = viewer.testId('room-link-popover');
  await popover.waitFor({ state: 'visible', timeout: 10000 });
  assert.equal(await viewer.testId('room-link-text').inputValue(), `${PUBLIC_URL}?world=1`);
  assert.ok(!(await viewer.testId('room-link-warning').isVisible()), 'no loopback warning with a public URL');
  await waitFor(async () => (await viewer.testId('room-link-qr').locator('svg').count()) > 0, 'the QR code drawn', 10000);
  await screenshot(viewer, 'safe-room-link', popover);
  await viewer.page.keyboard.press('Escape');
});

test('the blow-up banner speaks the panel\'s words; its one click sends the suggested values, rewinds and runs on', { timeout: 300000 }, async () => {
  await open();
  // every message of the page's next socket goes through here: what the page sends is recorded
  const sent = [];
  await viewer.context.routeWebSocket(/.*/, (ws) => {
    const server = ws.connectToServer();
    ws.onMessage((message) => {
      if (typeof message === 'string') {
        try { sent.push(JSON.parse(message)); } catch { /* not JSON: passed on as it is */ }
      }
      server.send(message);
    });
    server.onMessage((message) => ws.send(message));
  });
  await viewer.page.reload({ waitUntil: 'load' }); // a socket opened through the route
  await viewer.waitStatus((s) => s.connection === 'open' && s.role === 'control' && s.particles > 0, 'the world again', 30000);
  await viewer.page.waitForTimeout(2500); // past the first checkpoint, so that there is one to rewind to

  // a fixed step: c dt / h = 1000 × 0.0005 / 0.04 = 12.5, far above 0.4 (the first test left a tiny
  // step; the adaptive step, the default, would shorten it to 0.4 h / c and hold)
  const blowUp = { type: 'set', world: 1, values: { speed_of_sound: 1000, time_step: 0.0005, adaptive_time_step: false } };
  assert.ok(await viewer.page.evaluate((m) => window.fluidcast.send(m), blowUp));
  const blown = await viewer.waitStatus((s) => s.unstable !== null, 'speed_of_sound 1000 blowing the world up', 120000);
  const banner = viewer.testId('unstable-banner');
  await banner.waitFor({ state: 'visible', timeout: 10000 });
  const cause = await viewer.testId('unstable-cause').innerText();
  console.log(`banner: ${await viewer.testId('unstable-headline').innerText()} | ${cause} | suggested ${JSON.stringify(blown.unstable.suggested)}`);
  assert.deepEqual(blown.unstable.suggested, { adaptive_time_step: true }, 'the server suggests the adaptive step back');
  assert.doesNotMatch(cause, /\b(time_step|speed_of_sound|smoothing_radius|cfl_number|adaptive_time_step)\b/, 'no internal names in the banner');
  assert.match(cause, /Speed of sound|Time step/, 'the cause names parameters by their labels');

  // the banner stays left of the side panel
  const bannerBox = await banner.boundingBox();
  const sideBox = await viewer.page.locator('#side').boundingBox();
  assert.ok(bannerBox.x + bannerBox.width <= sideBox.x, `the banner (right edge ${bannerBox.x + bannerBox.width}) does not cover the panel (from ${sideBox.x})`);
  const fix = viewer.testId('btn-unstable-fix');
  assert.match(await fix.innerText(), /^Apply the suggested values \(.+\) and rewind$/);
  await screenshot(viewer, 'safe-unstable-banner');

  const suggested = blown.unstable.suggested;
  sent.length = 0;
  await fix.click();
  const ran = await viewer.waitStatus((s) => s.unstable === null && s.paused === false
    && Object.entries(suggested).every(([k, v]) => s.values[k] === v), 'the suggested values applied, the world playing', 60000);
  const types = sent.map((m) => m.type);
  const order = ['rewind', 'set', 'resume'].map((t) => types.indexOf(t));
  assert.ok(order.every((i, k) => i >= 0 && (k === 0 || i > order[k - 1])), `rewind, set, resume in this order: ${types.join(', ')}`);
  assert.deepEqual(sent.find((m) => m.type === 'set').values, suggested, 'set sends exactly the suggested values');
  await waitFor(async () => (await viewer.status()).time > ran.time + 0.05, 'the world running on after the fix', 60000);
  const after = await viewer.status();
  assert.equal(after.unstable, null, 'and stays stable');
  await banner.waitFor({ state: 'hidden', timeout: 10000 });
  await screenshot(viewer, 'safe-after-fix');
  assert.deepEqual(viewer.pageErrors, []);
});
