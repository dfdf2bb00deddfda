// What the tests of scenes coloured by temperature share: the viewer opened on such a scene, and its legend read.
import assert from 'node:assert/strict';
import { openViewer } from './browser.mjs';

/**
 * Opens a viewer on world 1 of fixture's server, waits until it runs with more than `particles`
 * particles, coloured by temperature, and until `seconds` of simulated time have passed (`what`
 * says what they are for); then checks that the legend reads a range in degrees Celsius and kelvin.
 */
export async function openByTemperature(fixture, { particles, seconds, what }) {
  const viewer = await openViewer(fixture.browser, `${fixture.server.url}?world=1`);
  fixture.viewers.push(viewer);
  await viewer.waitStatus((s) => s.connection === 'open' && s.role === 'control' && s.particles > particles, 'the scene running', 30000);
  await viewer.page.waitForFunction(() => document.querySelector('[data-testid="select-attribute"]')?.value === 'temperature', null, { timeout: 30000 });
  await viewer.waitStatus((s) => s.time > seconds, what, 180000);
  const min = await viewer.testId('legend-min').innerText();
  const max = await viewer.testId('legend-max').innerText();
  console.log(`legend: ${min} to ${max}`);
  assert.match(min, /°C \(\d+(\.\d+)? K\)/, 'the legend reads degrees Celsius and kelvin');
  const kelvin = (text) => Number(/\(([-\d.]+) K\)/.exec(text)[1]);
  assert.ok(kelvin(max) > kelvin(min), 'a range');
  return viewer;
}
