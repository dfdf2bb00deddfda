// The parameter panel as a presenter uses it: human labels in truthful groups; typed values that are
// out of range or not numbers show the field's error and change nothing (panel and emitter list);
// build-time values are sent by "Restart with these settings" and dropped by "Reset to scene"; a
// blow-up shows the banner naming the cause, and Rewind / Reset clear it with a progress line.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { openViewer, screenshot } from './lib/browser.mjs';
import { useServerAndBrowser } from './lib/fixture.mjs';
import { scenePath } from './lib/paths.mjs';

// Every build of water_drop takes a few seconds here (the server sleeps at each point where it reports
// progress), as a big scene does on a slow machine.
const SLOW_SCENE = 'water_drop';
const fixture = useServerAndBrowser('panel', {
  scene: scenePath('e2e_tank.json'), threads: 1, env: { FLUIDCAST_TEST_BUILD_DELAY: `${SLOW_SCENE}:0.03` },
});
let viewer = null;

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

/** Types text into a controller's field and presses Enter, as a person does. */
async function typeInto(name, text) {
  const input = viewer.testId(`param-${name}`).locator('input').first();
  await input.scrollIntoViewIfNeeded();
  await input.fill(text);
  await input.press('Enter');
}

/** A state sent after the last request was applied: a few more frames while it runs, a second while paused. */
async function settled() {
  const before = await viewer.status();
  if (before.paused) {
    await sleep(1200);
    return viewer.status();
  }
  return viewer.waitStatus((s) => s.frames >= before.frames + 3, 'three more frames', 20000);
}

test('labels are human words and live / build-time parameters sit in their own groups', { timeout: 120000 }, async () => {
  viewer = await openViewer(fixture.browser, `${fixture.server.url}?world=1`);
  fixture.viewers.push(viewer);
  await viewer.waitStatus((s) => s.connection === 'open' && s.role === 'control' && s.particles > 0, 'a controlled world', 30000);
  const labels = await viewer.testId('parameter-panel').locator('.lil-controller .lil-name').allInnerTexts();
  assert.ok(labels.length > 10, `the panel has its controllers (${labels.length})`);
  for (const label of labels) assert.doesNotMatch(label, /_/, `"${label}" is words, not a snake_case name`);
  assert.match(await viewer.testId('param-gravity_y').locator('.lil-name').innerText(), /gravity.*m\/s²/i);
  const live = viewer.testId('group-live');
  const init = viewer.testId('group-init');
  assert.equal(await live.getByTestId('param-time_step').count(), 1, 'time_step (live) is in the live group');
  assert.equal(await live.getByTestId('param-gravity_x').count(), 1, 'gravity_x (live) is in the live group');
  assert.equal(await init.getByTestId('param-time_step').count(), 0, 'time_step is not under "Set when built"');
  assert.equal(await init.getByTestId('param-particle_spacing').count(), 1, 'particle_spacing (build-time) is in the build-time group');
  const tip = await viewer.testId('param-gravity_y').getAttribute('title');
  assert.doesNotMatch(tip, /seed \d|eq\. ?\d/i, `the tooltip is plain help: "${tip}"`);
  assert.ok(await viewer.testId('param-particle_spacing').locator('input').first().isEditable(), 'build-time values can be edited');
  await screenshot(viewer, 'panel-groups');
});

test('a typed value out of range or not a number shows the field\'s error and changes nothing', { timeout: 120000 }, async () => {
  const before = await viewer.status();
  assert.equal(before.values.gravity_y, -9.81);
  await typeInto('gravity_y', '1e400');
  const error = viewer.testId('param-error-gravity_y');
  await error.waitFor({ state: 'visible', timeout: 10000 });
  const text = await error.innerText();
  assert.match(text, /^Gravity.*too large.*-100 to 100/i, `the field says what is wrong: "${text}"`);
  assert.doesNotMatch(text, /values\.|bad_value/, 'in words, not protocol text');
  await screenshot(viewer, 'panel-field-error', viewer.testId('parameter-panel'));
  for (const typed of ['150', 'abc']) {
    await typeInto('gravity_y', typed);
    await viewer.page.waitForFunction((t) => document.querySelector('[data-testid="param-error-gravity_y"]')?.textContent.includes(t), typed);
  }
  const after = await settled();
  assert.equal(after.values.gravity_y, -9.81, 'gravity stays as it was');
  assert.equal(await viewer.testId('param-gravity_y').locator('input').first().inputValue(), '-9.81', 'the field shows the value kept');
  assert.equal(after.lastError, null, 'nothing was sent to the server');
  assert.ok(!(await viewer.testId('error-toast').isVisible()), 'no toast: the error is at the field');

  // The emitter list checks its fields the same way.
  await viewer.testId('btn-add-emitter').click();
  const withEmitter = await viewer.waitStatus((s) => s.emitters.length === 1, 'the new emitter');
  const id = withEmitter.emitters[0].id;
  const rate = viewer.page.locator(`[data-emitter-id="${id}"] input[data-field="rate"]`);
  await rate.fill('1e400');
  await rate.press('Enter');
  const emitterError = viewer.testId(`emitter-error-${id}`);
  await emitterError.waitFor({ state: 'visible', timeout: 10000 });
  assert.match(await emitterError.innerText(), /^Emitter #\d+ rate: 1e400 is too large/);
  const kept = await settled();
  assert.equal(kept.emitters[0].rate, withEmitter.emitters[0].rate, 'the emitter\'s rate is unchanged');
  await viewer.page.locator(`[data-emitter-id="${id}"] button.remove`).click();
  await viewer.waitStatus((s) => s.emitters.length === 0, 'the emitter removed');
});

test('"Restart with these settings" keeps build-time values; "Reset to scene" goes back to the scene\'s', { timeout: 240000 }, async () => {
  const before = await viewer.status();
  await viewer.testId('btn-reset').click(); // the scene as it is built: the particles emitted before are gone
  // A rebuild grows the epoch; the simulated time alone can race past an earlier reading on a slow machine.
  const start = await viewer.waitStatus((s) => s.epoch > before.epoch && s.frameEpoch === s.epoch, 'the scene rebuilt', 60000);
  assert.equal(start.values.particle_spacing, 0.02);
  await typeInto('particle_spacing', '0.03');
  await viewer.page.waitForFunction(() => /\(1 changed\)/.test(document.querySelector('[data-testid="btn-restart"]').textContent));
  const unchanged = await settled();
  assert.equal(unchanged.values.particle_spacing, 0.02, 'a build-time edit waits for the restart');
  await typeInto('gravity_x', '3');
  await viewer.waitStatus((s) => s.values.gravity_x === 3, 'gravity_x = 3 (live)');
  await screenshot(viewer, 'panel-pending-restart');

  await viewer.testId('btn-restart').click();
  const restarted = await viewer.waitStatus((s) => s.values.particle_spacing === 0.03 && s.epoch > unchanged.epoch && s.frameEpoch === s.epoch, 'the world rebuilt at 0.03 m', 60000);
  assert.equal(restarted.values.gravity_x, 3, 'the live change is kept by the restart');
  assert.ok(restarted.particles < 0.5 * start.particles, `coarser spacing, fewer particles (${restarted.particles} < ${start.particles})`);
  assert.match(await viewer.testId('btn-restart').innerText(), /^Restart with these settings$/);

  await viewer.testId('btn-reset').click();
  await viewer.waitStatus((s) => s.values.particle_spacing === 0.02 && s.values.gravity_x === 0 && s.frameEpoch === s.epoch && s.particles === start.particles,
    `the scene's values and its ${start.particles} particles back`, 60000);
  assert.equal((await viewer.status()).lastError, null);
});

/* A fixed step (the adaptive one, the default, would shorten a long time_step and hold). */
async function fixStep() {
  assert.ok(await viewer.page.evaluate(() => window.fluidcast.send({ type: 'set', world: 1, values: { adaptive_time_step: false } })));
  await viewer.waitStatus((s) => s.values.adaptive_time_step === false, 'the step fixed');
}

test('a blow-up shows the banner with its cause; Rewind and Reset clear it', { timeout: 300000 }, async () => {
  await fixStep();
  await typeInto('time_step', '0.01');
  const blown = await viewer.waitStatus((s) => s.unstable !== null, 'the world blowing up and pausing', 120000);
  const banner = viewer.testId('unstable-banner');
  await banner.waitFor({ state: 'visible', timeout: 10000 });
  const headline = await viewer.testId('unstable-headline').innerText();
  const cause = await viewer.testId('unstable-cause').innerText();
  console.log(`banner: ${headline} | ${cause}`);
  assert.match(headline, /blew up.*paused/);
  assert.ok(cause.length > 20, 'the banner names the likely cause');
  assert.ok(blown.paused, 'the world paused itself');
  await screenshot(viewer, 'panel-unstable-banner');

  if (blown.unstable.rewind_to !== null) {
    await viewer.testId('btn-rewind').click();
    await viewer.waitStatus((s) => s.unstable === null, 'the blow-up withdrawn by the rewind', 30000);
    await banner.waitFor({ state: 'hidden', timeout: 10000 });
    const rewound = await viewer.status();
    assert.equal(rewound.values.time_step, 0.01, 'the rewind keeps the time step the user set');
    assert.equal(rewound.values.adaptive_time_step, false, 'and the fixed step');
    await viewer.testId('btn-play').click();
    await viewer.waitStatus((s) => s.unstable !== null, 'blowing up again', 120000);
  }
  const busy = viewer.testId('busy-indicator');
  const shownBefore = Number(await busy.getAttribute('data-started'));
  await viewer.testId('btn-unstable-reset').click();
  await viewer.waitStatus((s) => s.unstable === null && s.values.time_step < 0.01, 'the scene back, stable', 60000);
  await banner.waitFor({ state: 'hidden', timeout: 10000 });
  await busy.waitFor({ state: 'hidden', timeout: 10000 });
  assert.equal(Number(await busy.getAttribute('data-started')), shownBefore + 1, 'the reset showed the progress line until its reply');
  assert.deepEqual(viewer.pageErrors, []);
});

test('a long build shows its progress until the world is back', { timeout: 240000 }, async () => {
  const busy = viewer.testId('busy-indicator');
  const seen = [];
  const watch = setInterval(async () => {
    const text = await viewer.testId('busy-text').innerText().catch(() => '');
    if (text && !seen.includes(text)) seen.push(text);
  }, 150);
  try {
    await viewer.testId('select-scene').selectOption(SLOW_SCENE);
    await busy.waitFor({ state: 'visible', timeout: 10000 });
    await viewer.page.waitForFunction(() => /%/.test(document.querySelector('[data-testid="busy-text"]').textContent), null, { timeout: 20000 });
    await screenshot(viewer, 'panel-build-progress');
    await viewer.waitStatus((s) => s.scene === SLOW_SCENE && s.particles > 0, `${SLOW_SCENE} built`, 60000);
    await busy.waitFor({ state: 'hidden', timeout: 10000 });
  } finally {
    clearInterval(watch);
  }
  console.log(`progress lines seen: ${seen.join(' | ')}`);
  assert.ok(seen.some((t) => /^Loading water_drop… \d+\.\d s · .+ \d+%$/.test(t)), 'the line gave the elapsed time, the phase and its share');
  const shares = seen.map((t) => Number(/(\d+)%$/.exec(t)?.[1])).filter(Number.isFinite);
  assert.ok(shares.length >= 2 && shares.at(-1) > shares[0], `the share grew (${shares.join(', ')})`);
  await viewer.testId('btn-reset').click();
  await busy.waitFor({ state: 'visible', timeout: 5000 });
  await viewer.page.waitForFunction(() => /%/.test(document.querySelector('[data-testid="busy-text"]').textContent), null, { timeout: 20000 });
  await busy.waitFor({ state: 'hidden', timeout: 60000 });
  assert.deepEqual(viewer.pageErrors, []);
});
