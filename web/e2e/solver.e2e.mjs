// The solver picker: switching a running world from SPH to PBF keeps its particles, the world goes
// on moving under PBF, and the panel shows the parameters the chosen solver reads.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import { openViewer, screenshot } from './lib/browser.mjs';
import { useServerAndBrowser } from './lib/fixture.mjs';
import { scenePath } from './lib/paths.mjs';

const SCENE = scenePath('e2e_tank.json');
const DOMAIN = JSON.parse(readFileSync(SCENE, 'utf8')).domain;
const fixture = useServerAndBrowser('solver', { scene: SCENE, threads: 1 });

/** Which of the named param-NAME rows the panel shows. */
function shownParameters(viewer, names) {
  return viewer.page.evaluate((wanted) => Object.fromEntries(wanted.map((name) => {
    const row = document.querySelector(`[data-testid="param-${name}"]`);
    return [name, Boolean(row) && row.offsetParent !== null];
  })), names);
}

test('select-solver switches the world to PBF; the particles stay and keep moving', { timeout: 240000 }, async () => {
  const viewer = await openViewer(fixture.browser, `${fixture.server.url}?world=1`);
  fixture.viewers.push(viewer);
  const before = await viewer.waitStatus((s) => s.connection === 'open' && s.role === 'control' && s.particles > 0
    && s.solver === 'sph' && !s.paused, 'the running SPH world', 30000);
  const picker = viewer.testId('select-solver');
  assert.ok(await picker.isEnabled(), 'select-solver is enabled for a controller');
  const choices = await picker.evaluate((select) => [...select.options].map((o) => o.value));
  assert.ok(choices.includes('sph') && choices.includes('pbf'), `select-solver offers sph and pbf: ${choices}`);
  assert.equal(await picker.inputValue(), 'sph');
  assert.deepEqual(await shownParameters(viewer, ['stiffness', 'solver_iterations', 'gravity_y']),
    { stiffness: true, solver_iterations: false, gravity_y: true }, 'the panel shows SPH\'s parameters');

  await picker.selectOption('pbf');
  const switched = await viewer.waitStatus((s) => s.solver === 'pbf', 'the state of the world under PBF', 15000);
  assert.equal(switched.particles, before.particles, 'the particle count is kept');
  assert.equal(switched.lastError, null, `no error: ${JSON.stringify(switched.lastError)}`);
  assert.deepEqual(await shownParameters(viewer, ['stiffness', 'solver_iterations', 'gravity_y']),
    { stiffness: false, solver_iterations: true, gravity_y: true }, 'the panel shows PBF\'s parameters');

  // Under PBF the world keeps running: later frames, the same count, every particle in the tank.
  const later = await viewer.waitStatus((s) => s.time > switched.time + 0.05 && s.frames >= switched.frames + 5,
    'five more frames and 0.05 s of simulated time under PBF', 60000);
  assert.equal(later.particles, before.particles);
  const positions = await viewer.positions();
  assert.equal(positions.length, before.particles);
  const outside = positions.filter((p) => p.some((v, axis) => !Number.isFinite(v)
    || v < DOMAIN.min[axis] - 1e-3 || v > DOMAIN.max[axis] + 1e-3));
  assert.equal(outside.length, 0, `every particle is finite and inside the tank (${outside.length} are not: ${JSON.stringify(outside.slice(0, 3))})`);
  await screenshot(viewer, 'solver-pbf');
  assert.deepEqual(viewer.pageErrors, []);
});

test('select-scene loads the PBF dam break, which runs under PBF', { timeout: 240000 }, async () => {
  const viewer = fixture.viewers[0];
  assert.ok(viewer, 'the page is open');
  const scenes = await viewer.testId('select-scene').evaluate((select) => [...select.options].map((o) => o.value));
  assert.ok(scenes.includes('dam_break_pbf'), `select-scene offers dam_break_pbf: ${scenes}`);
  await viewer.testId('select-scene').selectOption('dam_break_pbf');
  const loaded = await viewer.waitStatus((s) => s.solver === 'pbf' && s.particles === 22500 && s.frames > 0,
    'the dam break\'s 22,500 particles under PBF', 60000);
  const later = await viewer.waitStatus((s) => s.time > loaded.time + 0.1, '0.1 s more of simulated time', 90000);
  assert.equal(later.particles, 22500);
  assert.equal(later.lastError, null, `no error: ${JSON.stringify(later.lastError)}`);
  const positions = await viewer.positions();
  const finite = positions.every((p) => p.every(Number.isFinite));
  assert.ok(finite, 'every position is finite');
  // The column (0.5 m long) collapses along the 1.6 m tank: the front moves beyond its start.
  const front = Math.max(...positions.map((p) => p[0]));
  assert.ok(front > 0.55, `the front moved beyond the column's 0.5 m: ${front.toFixed(3)} m at t = ${later.time.toFixed(3)} s`);
  await screenshot(viewer, 'solver-dam-break-pbf');
  assert.deepEqual(viewer.pageErrors, []);
});
