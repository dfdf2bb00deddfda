// The shipped 2D dam break with its own settings (issue 21: it blew up at t = 2.76 s with the old
// fixed step) runs 10 simulated seconds in the viewer without a blow-up banner; the overlay shows
// the adaptive time step and what bounds it.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { openViewer, screenshot } from './lib/browser.mjs';
import { useServerAndBrowser } from './lib/fixture.mjs';

const fixture = useServerAndBrowser('stable2d', { scene: 'dam_break_2d', fast: true });

test('dam_break_2d runs 10 s without a banner, its time step adapting', { timeout: 420000 }, async () => {
  const viewer = await openViewer(fixture.browser, `${fixture.server.url}?world=1`);
  fixture.viewers.push(viewer);
  await viewer.waitStatus((s) => s.connection === 'open' && s.particles > 0, 'the 2D dam break', 30000);
  let last = null;
  for (const deadline = Date.now() + 360000; Date.now() < deadline;) {
    last = await viewer.status();
    assert.equal(last.unstable, null, `no blow-up at t = ${last.time}: ${JSON.stringify(last.unstable)}`);
    if (last.time >= 10) break;
    await viewer.page.waitForTimeout(1000);
  }
  assert.ok(last.time >= 10, `10 simulated seconds reached (t = ${last.time} s)`);
  assert.equal(await viewer.testId('unstable-headline').isVisible(), false, 'no banner is shown');
  const positions = await viewer.positions(last.particles);
  const outside = positions.filter(([x, y]) => !(x >= 0 && x <= 1.6 && y >= 0 && y <= 0.9));
  assert.equal(outside.length, 0, `every particle inside the tank (first outside: ${outside[0]})`);
  // the water has settled: nothing flies about at the speeds of a blow-up
  const step = await viewer.testId('time-step').textContent();
  assert.match(step, /^[0-9.]+ ms · (sound speed limit|fastest particle|the maximum step|strongest force|viscosity limit)$/,
    `the overlay shows the adaptive step and its bound: ${step}`);
  await screenshot(viewer, 'stable2d-after-10s');
});
