// Controls for what the protocol already does, and the framing: a new emitter's fluid chosen in its
// row (the emitter then emits that fluid), a box turned from its row (the server's rotation), and the
// tank framed clear of the toolbar, overlay, legend and side panel at 1400 × 900 and 390 × 844.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { openViewer, screenshot } from './lib/browser.mjs';
import { useServerAndBrowser } from './lib/fixture.mjs';
import { scenePath } from './lib/paths.mjs';

const fixture = useServerAndBrowser('controls', { scene: scenePath('e2e_two_fluids.json'), threads: 1 });

async function open(viewport = { width: 1280, height: 720 }, contextOptions = {}) {
  const viewer = await openViewer(fixture.browser, `${fixture.server.url}?world=1`, { viewport, contextOptions });
  fixture.viewers.push(viewer);
  await viewer.waitStatus((s) => s.connection === 'open' && s.role === 'control' && s.particles > 0 && s.frames > 1, 'a running world', 30000);
  return viewer;
}

test('a new emitter\'s fluid chosen in its row: it emits that fluid', { timeout: 180000 }, async () => {
  const viewer = await open();
  await viewer.page.waitForFunction(() => window.fluidcast.fluidCounts() !== null, null, { timeout: 20000 }); // coloured by fluid (the scene's view)
  await viewer.testId('btn-add-emitter').click();
  const added = await viewer.waitStatus((s) => s.emitters.length === 1, 'the new emitter', 10000);
  const id = added.emitters[0].id;
  assert.equal(added.emitters[0].fluid, 0, 'a new emitter emits the first fluid');
  const row = viewer.page.locator(`[data-emitter-id="${id}"]`);
  await row.locator('select[data-field=fluid]').selectOption({ label: 'oil' });
  await viewer.waitStatus((s) => s.emitters[0]?.fluid === 1, 'the emitter switched to oil in the server\'s state', 10000);
  await viewer.page.waitForTimeout(300); // frames sent before the switch are through
  const before = await viewer.page.evaluate(() => window.fluidcast.fluidCounts());
  const after = await viewer.page.waitForFunction(
    (start) => { const c = window.fluidcast.fluidCounts(); return c && (c[1] ?? 0) >= start[1] + 40 ? c : null; },
    before, { timeout: 60000 },
  ).then((h) => h.jsonValue());
  console.log(`particles per fluid ${JSON.stringify(before)} -> ${JSON.stringify(after)}`);
  assert.ok(after[0] <= before[0] + 2, `no more water (${before[0]} -> ${after[0]}): the emitter emits oil`);
  await screenshot(viewer, 'controls-emitter-oil');
  assert.equal((await viewer.status()).lastError, null);
});

test('a box turned from the panel: the server\'s rotation changes', { timeout: 120000 }, async () => {
  const viewer = await open();
  const before = await viewer.status();
  await viewer.testId('btn-add-box').click();
  const added = await viewer.waitStatus((s) => s.colliders.length === before.colliders.length + 1, 'the new box', 10000);
  const box = added.colliders.find((c) => !before.colliders.some((b) => b.id === c.id));
  const z = viewer.page.locator(`[data-collider-id="${box.id}"] input[data-field=rotation-z]`);
  await z.fill('30');
  await z.press('Enter');
  await z.blur();
  const turned = await viewer.waitStatus((s) => {
    const c = s.colliders.find((k) => k.id === box.id);
    return c && Array.isArray(c.rotation) && Math.abs(c.rotation[2] - 30) < 0.01;
  }, 'the box turned 30° about z in the server\'s state', 10000);
  const now = turned.colliders.find((k) => k.id === box.id);
  console.log(`box ${box.id}: rotation ${JSON.stringify(now.rotation)}, position ${JSON.stringify(now.position)}`);
  assert.deepEqual(now.position.map((v) => v.toFixed(4)), box.position.map((v) => v.toFixed(4)), 'turning leaves it where it was');
  await screenshot(viewer, 'controls-box-turned');
  assert.equal((await viewer.status()).lastError, null);
});

/** The rects of the UI along the view's edges that the tank must stay clear of (client px). */
function uiRects(page, phone) {
  return page.evaluate((isPhone) => {
    const rect = (el) => {
      if (!el || el.hidden || el.getClientRects().length === 0) return null;
      const r = el.getBoundingClientRect();
      return r.width > 0 && r.height > 0 ? { name: el.dataset.testid || el.id || el.className, left: r.left, top: r.top, right: r.right, bottom: r.bottom } : null;
    };
    const groups = [...document.querySelectorAll('#toolbar > .group')].filter((g) => !(isPhone && g.classList.contains('more')));
    return [
      ...groups.map(rect), rect(document.getElementById('status')), rect(document.getElementById('legend')),
      isPhone ? rect(document.getElementById('sheet-toggle')) : rect(document.getElementById('side')),
    ].filter(Boolean);
  }, phone);
}

for (const [label, viewport, phone] of [['1400x900', { width: 1400, height: 900 }, false], ['390x844', { width: 390, height: 844 }, true]]) {
  test(`the tank is framed clear of the toolbar, overlay, legend and panel at ${label}`, { timeout: 120000 }, async () => {
    const viewer = await open(viewport, phone ? { isMobile: true, hasTouch: true } : {});
    await viewer.page.waitForTimeout(500); // the layout has settled (the observers framed again)
    const { page } = viewer;
    const corners = [];
    for (const x of [0, 0.6]) for (const y of [0, 0.5]) for (const z of [0, 0.4]) corners.push([x, y, z]);
    const points = await page.evaluate((list) => list.map((p) => window.fluidcast.project(p)), corners);
    const tank = {
      left: Math.min(...points.map((p) => p[0])), right: Math.max(...points.map((p) => p[0])),
      top: Math.min(...points.map((p) => p[1])), bottom: Math.max(...points.map((p) => p[1])),
    };
    const rects = await uiRects(page, phone);
    console.log(`${label}: tank drawn at x ${tank.left.toFixed(0)}-${tank.right.toFixed(0)}, y ${tank.top.toFixed(0)}-${tank.bottom.toFixed(0)}; insets ${JSON.stringify((await viewer.status()).insets)}`);
    await screenshot(viewer, `controls-framed-${label}`);
    assert.ok(tank.left >= 0 && tank.top >= 0 && tank.right <= viewport.width && tank.bottom <= viewport.height, 'the tank is on the screen');
    for (const r of rects) {
      const overlaps = tank.left < r.right && tank.right > r.left && tank.top < r.bottom && tank.bottom > r.top;
      assert.ok(!overlaps, `the tank (${JSON.stringify(tank)}) is clear of ${r.name} (${JSON.stringify(r)})`);
    }
    const width = tank.right - tank.left;
    const height = tank.bottom - tank.top;
    assert.ok(width > 0.3 * viewport.width || height > 0.3 * viewport.height, `the tank is not tiny (${width.toFixed(0)} × ${height.toFixed(0)} px)`);
    assert.deepEqual(viewer.pageErrors, []);
  });
}
