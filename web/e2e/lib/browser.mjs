// Drives Debian's Chromium with playwright-core: WebGL through SwiftShader (no GPU needed), every
// request outside 127.0.0.1 refused, the page's console and errors kept as an artifact.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { chromiumPath, ensureArtifactsDir } from './paths.mjs';

export const CHROMIUM_ARGS = [
  '--headless', '--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking',
  '--disable-component-update', '--disable-sync', '--use-angle=swiftshader', '--enable-unsafe-swiftshader',
];

/** playwright-core from web/node_modules, or from PLAYWRIGHT_CORE (a path to its index.mjs or folder). */
export async function loadPlaywright() {
  const override = process.env.PLAYWRIGHT_CORE;
  if (override) {
    const file = override.endsWith('.mjs') || override.endsWith('.js') ? override : join(override, 'index.mjs');
    return import(pathToFileURL(file).href);
  }
  try {
    return await import('playwright-core');
  } catch (error) {
    throw new Error(`playwright-core is not installed in web/node_modules (cd web && npm ci), or set PLAYWRIGHT_CORE: ${error.message}`);
  }
}

export async function launchBrowser() {
  const { chromium } = await loadPlaywright();
  return chromium.launch({ executablePath: chromiumPath, args: CHROMIUM_ARGS, timeout: 60000 });
}

/** Polls fn() until it returns a truthy value; throws with `what` and the last value after timeoutMs. */
export async function waitFor(fn, what, timeoutMs = 15000, intervalMs = 100) {
  const deadline = Date.now() + timeoutMs;
  let last;
  let lastError;
  for (;;) {
    try {
      last = await fn();
      if (last) return last;
    } catch (error) {
      lastError = error;
    }
    if (Date.now() > deadline) {
      const detail = lastError ? `; last error: ${lastError.message}` : `; last value: ${JSON.stringify(last)}`;
      throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}${detail}`);
    }
    await new Promise((r) => setTimeout(r, intervalMs));
  }
}

/**
 * Opens the viewer at url in a fresh context (1280 x 720). Returns {page, context, status(),
 * waitStatus(pred, what, ms), positions(n), pageErrors, blocked, log, saveLog(name), close()}.
 */
export async function openViewer(browser, url, { viewport = { width: 1280, height: 720 }, contextOptions = {} } = {}) {
  const context = await browser.newContext({ viewport, deviceScaleFactor: 1, ...contextOptions });
  const blocked = [];
  await context.route('**/*', (route) => {
    const target = new URL(route.request().url());
    if (target.hostname === '127.0.0.1') return route.continue();
    blocked.push(target.href);
    return route.abort('blockedbyclient');
  });
  const page = await context.newPage();
  page.setDefaultTimeout(30000);
  const log = [];
  const pageErrors = [];
  page.on('console', (msg) => log.push(`[console.${msg.type()}] ${msg.text()}`));
  page.on('pageerror', (error) => {
    pageErrors.push(error.message);
    log.push(`[pageerror] ${error.stack || error.message}`);
  });
  page.on('requestfailed', (request) => log.push(`[requestfailed] ${request.url()} ${request.failure()?.errorText}`));
  page.on('websocket', (ws) => {
    log.push(`[websocket] open ${ws.url()}`);
    ws.on('close', () => log.push(`[websocket] closed ${ws.url()}`));
  });
  await page.goto(url, { waitUntil: 'load', timeout: 30000 });

  const viewer = {
    page,
    context,
    pageErrors,
    blocked,
    log,
    status: () => page.evaluate(() => (window.fluidcast ? window.fluidcast.status() : null)),
    positions: (n) => page.evaluate((count) => window.fluidcast.positions(count), n),
    async waitStatus(predicate, what, timeoutMs = 15000) {
      return waitFor(async () => {
        const status = await viewer.status();
        return status && predicate(status) ? status : false;
      }, what, timeoutMs);
    },
    testId: (id) => page.getByTestId(id),
    saveLog(name) {
      writeFileSync(join(ensureArtifactsDir(), `${name}.log`), `${url}\n${log.join('\n')}\n`);
    },
    async close() {
      await context.close().catch(() => {});
    },
  };
  return viewer;
}

/**
 * Saves a screenshot of the page, or of the locator's box, as artifacts/NAME.png. A clip of the page
 * rather than locator.screenshot(): that one waits for the element to stay put over two animation
 * frames, which takes long where SwiftShader draws a frame in a second.
 */
export async function screenshot(viewer, name, locator = null) {
  const path = join(ensureArtifactsDir(), `${name}.png`);
  let clip;
  if (locator) {
    const box = await locator.boundingBox();
    if (!box) throw new Error(`screenshot ${name}: the element has no box (not visible)`);
    const size = viewer.page.viewportSize();
    const x = Math.max(0, Math.floor(box.x));
    const y = Math.max(0, Math.floor(box.y));
    clip = { x, y, width: Math.min(size.width, Math.floor(box.x + box.width)) - x, height: Math.min(size.height, Math.floor(box.y + box.height)) - y };
  }
  const buffer = await viewer.page.screenshot({ path, clip, timeout: 60000 });
  return { path, buffer };
}

/**
 * Runs fn() with every element that neither holds nor is the locator's element hidden
 * (visibility), so that a screenshot shows the canvas alone; restores them afterwards.
 */
export async function withOnly(locator, fn) {
  await locator.evaluate((target) => {
    window.__e2eHidden = [];
    for (const el of document.body.querySelectorAll('*')) {
      if (el === target || el.contains(target) || target.contains(el)) continue;
      window.__e2eHidden.push([el, el.style.visibility]);
      el.style.visibility = 'hidden';
    }
  });
  try {
    return await fn();
  } finally {
    await locator.evaluate(() => {
      for (const [el, visibility] of window.__e2eHidden || []) el.style.visibility = visibility;
      delete window.__e2eHidden;
    });
  }
}
