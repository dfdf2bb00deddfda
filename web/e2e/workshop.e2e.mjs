// A workshop: the token leaves the address bar; a wrong token is said to be refused and the right one can
// be typed in the page; the colour mode stays in the link; the room link is copied with a confirmation;
// watchers follow the presenter's camera; a presenter hides a world from the room; placing an emitter
// ends after one click; Reset view frames the domain; the overlay shows the real-time factor and, when
// the server goes away, the retry countdown.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { openViewer, screenshot } from './lib/browser.mjs';
import { useServerAndBrowser } from './lib/fixture.mjs';
import { scenePath } from './lib/paths.mjs';

const TOKEN = 'workshop-token';
const fixture = useServerAndBrowser('workshop', { scene: scenePath('e2e_tank.json'), threads: 1, token: TOKEN });
let presenter = null;
let student = null;

const ready = (viewer, role) => viewer.waitStatus((s) => s.connection === 'open' && s.role === role && s.particles > 0, `a ${role} page`, 30000);
const query = (viewer) => new URL(viewer.page.url()).searchParams;

test('the token leaves the address bar; a wrong one is refused in words and the right one can be typed', { timeout: 180000 }, async () => {
  presenter = await openViewer(fixture.browser, `${fixture.server.url}?world=1&token=${TOKEN}`, {
    contextOptions: { permissions: ['clipboard-read', 'clipboard-write'] },
  });
  fixture.viewers.push(presenter);
  const first = await ready(presenter, 'control');
  // The served world waited at t = 0 for its first viewer (the welcome's list says so), then played.
  assert.equal(first.worlds.find((w) => w.id === 1)?.waiting, true, 'world 1 was waiting when this page said hello');
  assert.equal(first.waiting, false, 'and plays once subscribed');
  await presenter.waitStatus((s) => s.time > 0 && !s.paused, 'world 1 running', 30000);
  assert.equal(query(presenter).get('token'), null, 'no token in the address bar');
  assert.equal(query(presenter).get('world'), '1');
  await presenter.page.reload({ waitUntil: 'load' });
  await ready(presenter, 'control'); // kept for the tab's session

  student = await openViewer(fixture.browser, `${fixture.server.url}?world=1&token=WRONG`);
  fixture.viewers.push(student);
  const refused = await ready(student, 'watch');
  assert.equal(refused.tokenRefused, true);
  assert.equal(query(student).get('token'), null, 'the wrong token left the address bar too');
  const note = await student.testId('watch-message').innerText();
  assert.match(note, /token was refused/i, `the note says the token was refused: "${note}"`);
  await screenshot(student, 'workshop-token-refused', student.page.locator('#toolbar'));

  await student.testId('token-input').fill(TOKEN);
  await student.testId('btn-token').click();
  await ready(student, 'control');
  assert.ok(!(await student.testId('watch-note').isVisible()), 'the note is gone once in control');
  assert.ok(await student.testId('btn-pause').isEnabled());
  // Back to watching for the rest of the file: a fresh page without token (a new tab has no remembered token).
  await student.close();
  student = await openViewer(fixture.browser, `${fixture.server.url}?world=1`);
  fixture.viewers.push(student);
  await ready(student, 'watch');
  assert.match(await student.testId('watch-message').innerText(), /no control token/i);
});

test('the colour mode stays in the link, and the room link is copied with it and without the token', { timeout: 120000 }, async () => {
  await presenter.testId('select-attribute').selectOption('speed');
  await presenter.page.waitForFunction(() => new URL(location.href).searchParams.get('attribute') === 'speed');
  await presenter.testId('btn-room-link').click();
  const toast = presenter.testId('error-toast');
  const popover = presenter.page.locator('[data-testid="room-link-popover"]');
  await Promise.race([toast.waitFor({ state: 'visible', timeout: 10000 }), popover.waitFor({ state: 'visible', timeout: 10000 })]);
  const copied = await presenter.page.evaluate(() => navigator.clipboard.readText());
  const link = new URL(copied);
  assert.equal(link.searchParams.get('world'), '1');
  assert.equal(link.searchParams.get('attribute'), 'speed');
  assert.equal(link.searchParams.get('token'), null);
  const confirmation = await presenter.page.getByText(/copied/i).first().innerText();
  assert.match(confirmation, /copied/i, 'the page confirms the copy');
  await screenshot(presenter, 'workshop-room-link');
});

test('watchers follow the presenter\'s camera when they choose to', { timeout: 120000 }, async () => {
  assert.ok(await student.testId('btn-follow-camera').isDisabled(), 'nothing to follow yet');
  await presenter.testId('btn-broadcast-camera').click();
  await student.waitStatus((s) => s.cameraBroadcast, 'the world says its camera is shared', 15000);
  await student.page.waitForFunction(() => !document.querySelector('[data-testid="btn-follow-camera"]').disabled);
  await student.testId('btn-follow-camera').click();
  // The presenter moves the camera: orbit by a drag on an empty part of the view.
  const before = await presenter.page.evaluate(() => window.fluidcast.camera());
  await presenter.page.mouse.move(700, 380); // an empty part of the view, clear of the panels
  await presenter.page.mouse.down();
  await presenter.page.mouse.move(900, 340, { steps: 8 });
  await presenter.page.mouse.up();
  await presenter.page.waitForTimeout(1000);
  const moved = await presenter.page.evaluate(() => window.fluidcast.camera());
  assert.ok(Math.hypot(...moved.position.map((x, i) => x - before.position[i])) > 0.05, 'the presenter\'s camera moved');
  await student.page.waitForFunction((target) => {
    const c = window.fluidcast.camera();
    return Math.hypot(...c.position.map((x, i) => x - target[i])) < 0.02;
  }, moved.position, { timeout: 15000 });
  await screenshot(student, 'workshop-following');
  await presenter.testId('btn-broadcast-camera').click();
  await student.waitStatus((s) => !s.cameraBroadcast, 'the broadcast ended', 15000);
});

test('a presenter hides a world from the room and shows it again', { timeout: 120000 }, async () => {
  await presenter.page.evaluate(() => window.fluidcast.send({ type: 'create_world', scene: 'dam_break', name: 'second', values: { particle_spacing: 0.05, smoothing_radius: 0.1 } }));
  await student.waitStatus((s) => s.worlds.length === 2, 'the second world in the watcher\'s list', 30000);
  await presenter.waitStatus((s) => s.worlds.length === 2, 'the second world in the presenter\'s list', 30000);
  const second = (await presenter.status()).worlds.find((w) => w.name === 'second').id;
  await presenter.testId('select-world').selectOption(String(second));
  await presenter.waitStatus((s) => s.world === second && s.particles > 0, 'the presenter on the second world', 30000);
  await presenter.testId('btn-hide-world').click();
  await student.waitStatus((s) => s.worlds.length === 1 && s.worlds[0].id === 1, 'the hidden world gone from the watcher\'s list', 15000);
  const seen = await presenter.waitStatus((s) => s.worlds.find((w) => w.id === second)?.hidden === true, 'hidden, as the presenter sees it', 15000);
  assert.equal(seen.world, second, 'the presenter still watches it');
  assert.match(await presenter.testId('select-world').locator('option:checked').innerText(), /\(hidden\)/);
  await screenshot(presenter, 'workshop-hidden-world', presenter.page.locator('#toolbar'));
  await presenter.testId('btn-hide-world').click();
  await student.waitStatus((s) => s.worlds.length === 2, 'shown again to the room', 15000);
  await presenter.page.evaluate((id) => window.fluidcast.send({ type: 'close_world', world: id }), second);
  await presenter.testId('select-world').selectOption('1').catch(() => {});
  await presenter.waitStatus((s) => s.world === 1 && s.worlds.length === 1, 'back on world 1', 30000);
});

test('placing an emitter ends after one click; Reset view frames the domain', { timeout: 120000 }, async () => {
  const before = await presenter.status();
  await presenter.testId('btn-emitter-mode').click();
  assert.equal(await presenter.testId('btn-emitter-mode').getAttribute('aria-pressed'), 'true');
  await presenter.testId('btn-reset-view').click(); // the tank where it starts: the click below lands on its back wall or floor
  // on the tank's back wall, a third of the way across and half way up, where the framing draws it
  const { domain } = await presenter.status();
  const at = (f, k) => domain.min[k] + f * (domain.max[k] - domain.min[k]);
  const [x, y] = await presenter.page.evaluate((p) => window.fluidcast.project(p), [at(0.35, 0), at(0.5, 1), domain.min[2]]);
  await presenter.page.mouse.click(x, y);
  await presenter.waitStatus((s) => s.emitters.length === before.emitters.length + 1, 'the placed emitter', 15000);
  assert.equal(await presenter.testId('btn-emitter-mode').getAttribute('aria-pressed'), 'false', 'placing is off after the click');
  await presenter.page.locator('[data-emitter-id] button.remove').first().click();

  const framed = await presenter.page.evaluate(() => window.fluidcast.camera());
  await presenter.page.mouse.move(700, 380);
  await presenter.page.mouse.down();
  await presenter.page.mouse.move(560, 330, { steps: 6 });
  await presenter.page.mouse.up();
  await presenter.page.waitForTimeout(800);
  await presenter.testId('btn-reset-view').click();
  await presenter.page.waitForTimeout(800);
  const back = await presenter.page.evaluate(() => window.fluidcast.camera());
  const off = Math.hypot(...back.position.map((x, i) => x - framed.position[i]));
  assert.ok(off < 0.05, `the camera is back where it started (${off.toFixed(3)} m off)`);
});

test('the overlay shows the real-time factor, and a countdown once the server is gone', { timeout: 120000 }, async () => {
  const speed = await presenter.testId('realtime-factor').innerText();
  assert.match(speed, /× real time|faster than real time/, `the real-time factor: "${speed}"`);
  await screenshot(presenter, 'workshop-overlay', presenter.testId('status-overlay'));
  for (const viewer of [presenter, student]) viewer.saveLog(`workshop-before-stop-${viewer === presenter ? 'presenter' : 'student'}`);
  assert.equal(await fixture.server.stop(), 0, 'the server stopped cleanly');
  await presenter.page.waitForFunction(() => /retry in \d+ s/.test(document.querySelector('[data-testid="connection-state"]').textContent), null, { timeout: 20000 });
  const text = await presenter.testId('connection-state').innerText();
  console.log(`connection cell after the server stopped: ${text}`);
  await screenshot(presenter, 'workshop-retry', presenter.testId('status-overlay'));
  assert.deepEqual(presenter.pageErrors, []);
  assert.deepEqual(student.pageErrors, []);
});
