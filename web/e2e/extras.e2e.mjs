// The viewer's extras: live plots, help overlay and keyboard shortcuts, screenshot download, room link QR popover, colour scales.
// Scene: scenes/e2e_tank.json (2,160 particles), one solver thread.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { createRequire } from 'node:module';
import { test } from 'node:test';
import { openViewer, screenshot, waitFor } from './lib/browser.mjs';
import { useServerAndBrowser } from './lib/fixture.mjs';
import { ensureArtifactsDir, scenePath, webDir } from './lib/paths.mjs';
import { decodePng } from './lib/png.mjs';
import { countWater } from './lib/pixels.mjs';

const fixture = useServerAndBrowser('extras', { scene: scenePath('e2e_tank.json'), threads: 1 });
let viewer = null;

const extras = () => viewer.page.evaluate(() => window.fluidcast.extras());
/** A key pressed with nothing focused (a focused button or summary takes Space itself). */
const press = async (key) => {
  await viewer.page.evaluate(() => document.activeElement?.blur());
  await viewer.page.keyboard.press(key);
};

test('the page opens with the extras and no error', { timeout: 120000 }, async () => {
  viewer = await openViewer(fixture.browser, `${fixture.server.url}?world=1`);
  fixture.viewers.push(viewer);
  await viewer.waitStatus((s) => s.connection === 'open' && s.role === 'control' && s.particles > 0 && !s.paused, 'a running world', 30000);
  for (const id of ['plots-panel', 'btn-screenshot', 'btn-help']) assert.ok(await viewer.testId(id).isVisible(), `${id} is visible`);
  assert.ok(!(await viewer.testId('help-overlay').isVisible()), 'the help is closed');
  const layout = await viewer.page.evaluate(() => ({
    toolbarBottom: Math.max(...[...document.getElementById('toolbar').children].filter((e) => e.offsetParent).map((e) => e.getBoundingClientRect().bottom)),
    plotsTop: document.querySelector('[data-testid="plots-panel"]').getBoundingClientRect().top,
  }));
  assert.ok(layout.plotsTop >= layout.toolbarBottom, `the plots box is under the toolbar: ${JSON.stringify(layout)}`);
  await viewer.page.locator('body').click({ position: { x: 5, y: 700 } }); // focus the page, not a field
});

test('the live plots draw particle count and skip series the server does not send', { timeout: 120000 }, async () => {
  await viewer.testId('plots-toggle').click();
  await waitFor(async () => Number(await viewer.testId('plot-particles').getAttribute('data-samples')) >= 16, 'sixteen stats samples (4 s) in the particle plot', 30000);
  const status = await viewer.status();
  const shown = (await viewer.testId('plot-value-particles').innerText()).replace(/[^\d]/g, '');
  assert.equal(Number(shown), status.particles, `the particle plot shows ${shown}, the frame has ${status.particles}`);
  const series = {};
  for (const key of ['max_speed', 'density_error', 'realtime_factor']) {
    series[key] = {
      text: await viewer.testId(`plot-value-${key}`).innerText(),
      samples: Number(await viewer.testId(`plot-${key}`).getAttribute('data-samples')),
    };
    // A server without the field says so; one with it plots numbers (helper B adds them to stats).
    if (series[key].samples === 0) assert.equal(series[key].text, 'not sent by this server', `${key}: ${JSON.stringify(series[key])}`);
    else assert.match(series[key].text, /^-?[\d.]+(e-?\d+)?$/, `${key}: ${JSON.stringify(series[key])}`);
  }
  console.log(`plots: ${JSON.stringify(series)}`);
  // The particle plot's canvas has a drawn line: pixels of its colour (#4cc2f0).
  const plot = viewer.testId('plot-particles');
  const shot = await screenshot(viewer, 'extras-plots', viewer.testId('plots-panel'));
  const image = decodePng(shot.buffer);
  let line = 0;
  for (let i = 0; i < image.width * image.height; i++) {
    const [r, g, b] = [image.data[4 * i], image.data[4 * i + 1], image.data[4 * i + 2]];
    if (Math.abs(r - 0x4c) < 30 && Math.abs(g - 0xc2) < 30 && Math.abs(b - 0xf0) < 30) line += 1;
  }
  assert.ok(line >= 20, `the particle plot draws its line: ${line} pixels of its colour`);
  assert.ok(await plot.locator('canvas').count() >= 1, 'uPlot drew a canvas');
  await viewer.testId('plots-toggle').click();
  assert.ok(!(await plot.isVisible()), 'the plots fold away');
});

test('? opens the help, Esc closes it', { timeout: 60000 }, async () => {
  await press('Shift+?');
  await waitFor(() => viewer.testId('help-overlay').isVisible(), 'the help overlay', 5000);
  const text = await viewer.testId('help-overlay').innerText();
  for (const phrase of ['Play / pause', 'Step one frame', 'Reset', 'Frame the fluid', 'Colour: plain, speed, density, temperature, fluid', 'Esc']) {
    assert.ok(text.includes(phrase), `the help lists "${phrase}"`);
  }
  await screenshot(viewer, 'extras-help');
  await press('Escape');
  await waitFor(async () => !(await viewer.testId('help-overlay').isVisible()), 'the help closed by Esc', 5000);
});

test('space, ., R, F, 1-5 and Esc act; keys typed in a field do not', { timeout: 120000 }, async () => {
  await press(' ');
  const paused = await viewer.waitStatus((s) => s.paused, 'paused by space', 10000);
  await press(' ');
  await viewer.waitStatus((s) => !s.paused, 'playing again after space', 10000);
  await press(' ');
  const before = await viewer.waitStatus((s) => s.paused, 'paused again', 10000);
  await viewer.page.evaluate(() => new Promise((r) => setTimeout(r, 500)));
  const still = await viewer.status();
  await press('.');
  const stepped = await viewer.waitStatus((s) => s.time > still.time, 'a step after .', 10000);
  assert.ok(stepped.paused, 'a step leaves it paused');
  console.log(`paused at t=${paused.time}, ${before.time}; stepped ${still.time} -> ${stepped.time}`);

  // Typing in a field: space and digits go to the field, not to the shortcuts.
  await viewer.testId('select-max-fps').focus();
  await viewer.page.keyboard.press(' ');
  await viewer.page.keyboard.press('Escape'); // closes the select's list
  await viewer.page.keyboard.press('.');
  await viewer.page.evaluate(() => new Promise((r) => setTimeout(r, 600)));
  const typed = await viewer.status();
  assert.ok(typed.paused, 'space in a select did not play');
  assert.equal(typed.time, stepped.time, 'a . in a select did not step');
  await viewer.page.evaluate(() => document.activeElement.blur());

  await press('r');
  await viewer.waitStatus((s) => s.time < stepped.time || s.time === 0, 'reset by R', 10000);

  await press('2');
  await waitFor(async () => (await viewer.testId('select-attribute').inputValue()) === 'speed', 'colour by speed after 2', 5000);
  await press('3');
  await waitFor(async () => (await viewer.testId('select-attribute').inputValue()) === 'density', 'colour by density after 3', 5000);
  await press('5');
  await waitFor(async () => (await viewer.testId('select-attribute').inputValue()) === 'fluid', 'colour by fluid after 5', 5000);
  await press('1');
  await waitFor(async () => (await viewer.testId('select-attribute').inputValue()) === '', 'plain after 1', 5000);

  // F: the orbit target moves from the tank's centre to the fluid's (the block in the -x corner).
  const domainTarget = (await extras()).target;
  await press('f');
  const framed = await waitFor(async () => {
    const t = (await extras()).target;
    return t[0] < domainTarget[0] - 0.05 ? t : false;
  }, 'the target on the fluid after F', 5000);
  console.log(`orbit target ${JSON.stringify(domainTarget)} -> ${JSON.stringify(framed)}`);
  assert.ok(framed[0] < 0.2 && framed[1] < 0.2, `the fluid block (x < 0.24, y < 0.3) is framed: ${JSON.stringify(framed)}`);
  await viewer.page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
  await screenshot(viewer, 'extras-framed');

  // Esc stops placing an emitter.
  await viewer.testId('btn-emitter-mode').click();
  assert.equal(await viewer.testId('btn-emitter-mode').getAttribute('aria-pressed'), 'true');
  await viewer.page.evaluate(() => document.activeElement.blur());
  await press('Escape');
  await waitFor(async () => (await viewer.testId('btn-emitter-mode').getAttribute('aria-pressed')) === 'false', 'placing stopped by Esc', 5000);
  assert.equal((await viewer.status()).lastError, null);
});

test('the screenshot button downloads the view at full resolution with the legend and the time as fluidcast-<world>-<time>.png', { timeout: 120000 }, async () => {
  await press(' ');
  await viewer.waitStatus((s) => !s.paused && s.frames > 0, 'playing', 10000);
  await press('2'); // coloured by speed: the legend shows
  await waitFor(async () => (await viewer.testId('legend-max').innerText()).endsWith(' m/s'), 'the speed legend', 10000);
  const [download] = await Promise.all([
    viewer.page.waitForEvent('download', { timeout: 30000 }),
    viewer.testId('btn-screenshot').click(),
  ]);
  const name = download.suggestedFilename();
  assert.match(name, /^fluidcast-1-\d{8}-\d{6}\.png$/, `file name ${name}`);
  const path = join(ensureArtifactsDir(), 'extras-download.png');
  await download.saveAs(path);
  const image = decodePng(readFileSync(path));
  const size = await viewer.testId('viewport').evaluate((c) => [c.clientWidth, c.clientHeight].map((v) => Math.floor(v * Math.max(1, devicePixelRatio))));
  assert.deepEqual([image.width, image.height], size, 'the PNG is the view at full resolution (SwiftShader draws the page at 3/4)');
  const { texts } = (await viewer.page.evaluate(() => window.fluidcast.extras())).lastScreenshot;
  console.log(`caption: ${JSON.stringify(texts)}`);
  assert.ok(texts.some((t) => /^t = \d+\.\d\d s$/.test(t)), 'the picture says the simulated time');
  assert.ok(texts.includes('speed') && texts.some((t) => t.endsWith(' m/s')), 'the picture has the legend: speed, its range in m/s');
  await press('1'); // plain again, as the next tests expect
  const water = countWater(image, { x0: 0, y0: 0, x1: image.width, y1: image.height });
  console.log(`screenshot ${name}: ${image.width} x ${image.height}, ${water.water} water-coloured pixels`);
  assert.ok(water.water > 500, `the PNG shows the water (not a blank buffer): ${water.water} pixels`);
});

test('Room link shows the link and its QR code and copies it', { timeout: 60000 }, async () => {
  await viewer.context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: fixture.server.url });
  await viewer.testId('btn-room-link').click();
  const popover = viewer.testId('room-link-popover');
  await waitFor(() => popover.isVisible(), 'the room link popover', 5000);
  const link = `${fixture.server.url.replace(/\/$/, '')}/?world=1`;
  assert.equal(await viewer.testId('room-link-text').inputValue(), link);
  await waitFor(async () => (await viewer.testId('room-link-copied').innerText()) === 'Copied', 'the "Copied" confirmation', 5000);
  assert.equal(await viewer.page.evaluate(() => navigator.clipboard.readText()), link, 'the clipboard holds the link');
  // The QR code is the qrcode package's code of exactly this link.
  const paths = await waitFor(() => viewer.testId('room-link-qr').evaluate((e) => [...e.querySelectorAll('path')].map((p) => p.getAttribute('d'))), 'the QR code', 5000);
  const QRCode = createRequire(join(webDir, 'package.json'))('qrcode');
  const expected = await QRCode.toString(link, { type: 'svg', errorCorrectionLevel: 'M', margin: 2 });
  assert.deepEqual(paths, [...expected.matchAll(/ d="([^"]+)"/g)].map((m) => m[1]), 'the QR code\'s modules are those of the room link');
  await screenshot(viewer, 'extras-room-link');
  await press('Escape');
  await waitFor(async () => !(await popover.isVisible()), 'the popover closed by Esc', 5000);
});

test('the colour scale is the frame\'s range, or a min/max set in the legend', { timeout: 120000 }, async () => {
  await press('2');
  const auto = await waitFor(async () => {
    const e = await extras();
    return e.colourScale && e.colourScale.name === 'speed' ? e.colourScale : false;
  }, 'a speed colour scale', 15000);
  assert.equal(auto.auto, true, 'auto range by default');
  assert.ok(auto.min >= 0 && auto.max <= 5 && auto.max > auto.min, `inside the section's 0-5 m/s: ${JSON.stringify(auto)}`);
  assert.ok(auto.max < 5, `the frame's fastest particle, not the section's top: ${JSON.stringify(auto)}`);
  await waitFor(async () => /auto/.test(await viewer.testId('legend-scale').innerText()), 'the legend says auto range', 5000);
  await waitFor(async () => (await viewer.testId('legend-max').innerText()).endsWith(' m/s'), 'the legend in m/s', 5000);
  await screenshot(viewer, 'extras-speed-auto');

  await viewer.testId('legend-scale').click();
  await viewer.testId('legend-input-min').fill('0');
  await viewer.testId('legend-input-max').fill('0.25');
  await viewer.testId('legend-apply').click();
  const set = await waitFor(async () => {
    const e = await extras();
    return e.colourScale && e.colourScale.auto === false ? e.colourScale : false;
  }, 'the user range', 5000);
  assert.deepEqual(set, { name: 'speed', min: 0, max: 0.25, auto: false });
  await waitFor(async () => (await viewer.testId('legend-max').innerText()) === '0.25 m/s', 'legend-max 0.25 m/s', 5000);
  assert.equal(await viewer.testId('legend-min').innerText(), '0 m/s');
  await viewer.page.evaluate(() => new Promise((r) => setTimeout(r, 800)));
  await screenshot(viewer, 'extras-speed-set');

  // A max below the min is refused with a message naming the field; the range stays.
  await viewer.testId('legend-input-min').fill('1');
  await viewer.testId('legend-input-max').fill('0.5');
  await viewer.testId('legend-apply').click();
  await waitFor(() => viewer.testId('error-toast').isVisible(), 'the error toast', 5000);
  assert.equal(await viewer.testId('error-toast').innerText(), 'colour scale max (0.5) must be greater than min (1)');
  assert.match(await viewer.testId('error-toast').getAttribute('title'), /colour_scale\.speed\.max/);
  assert.deepEqual((await extras()).colourScale, set, 'the refused range changed nothing');

  await viewer.testId('legend-auto').click();
  await waitFor(async () => (await extras()).colourScale.auto === true, 'back to auto', 5000);
  assert.deepEqual(viewer.pageErrors, []);
});
