#!/usr/bin/env node
// Takes the README's screenshot of the real viewer: the shipped dam break served by build/fluidcast,
// opened in headless Chromium coloured by speed with the live plots open, captured once the collapse
// is under way. Writes web/screenshot.png.
// node web/e2e/readme_screenshot.mjs [--time SECONDS (sim time to wait for, default 0.45)] [--out FILE]
import { writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { launchBrowser, openViewer } from './lib/browser.mjs';
import { checkPrerequisites, webDir } from './lib/paths.mjs';
import { startServer } from './lib/server.mjs';

const args = process.argv.slice(2);
const option = (name, fallback) => (args.includes(name) ? args[args.indexOf(name) + 1] : fallback);
const simTime = Number(option('--time', '0.45'));
const out = resolve(option('--out', resolve(webDir, 'screenshot.png')));
if (!(simTime > 0)) throw new Error('--time must be a positive number of seconds');

checkPrerequisites();
const server = await startServer({ scene: 'dam_break' });
const browser = await launchBrowser();
try {
  const viewer = await openViewer(browser, `${server.url}?world=1&attribute=speed`, { viewport: { width: 1400, height: 850 } });
  await viewer.waitStatus((s) => s.connection === 'open' && s.particles > 0, 'the first frame', 60000);
  await viewer.testId('plots-toggle').click();
  await viewer.waitStatus((s) => s.connection === 'open' && s.time >= simTime && s.renderFps > 0,
    `simulated time ${simTime} s and a measured render rate`, 120000);
  await viewer.page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
  writeFileSync(out, await viewer.page.screenshot());
  console.log(`wrote ${out}`);
  await viewer.close();
} finally {
  await browser.close();
  await server.stop(30000);
}
