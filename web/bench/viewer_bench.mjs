#!/usr/bin/env node
// Viewer benchmark (issue 5, point 7): the main-thread time per received frame (hand-over to the
// decode worker, copy and GPU attribute upload, excluding drawing; the worker's decode time beside it) in headless Chromium, at 100k and 1M particles, from the
// viewer's own performance timers (window.fluidcast.frameTimings(), the 'fluidcast-frame' measures).
//
// For each size it starts `fluidcast serve --fast` on a dam break, pauses the world, opens the built
// viewer (which joins with a key frame), then asks for delta frames (one `step` each) and then key
// frames (key_request) one at a time, waiting for each to be handled and drawn: the server is idle
// while the browser works on a frame. The kind
// of each frame is read from its header by a message listener added before the viewer's (an init
// script wraps WebSocket); it costs one byte read and is not inside the viewer's timer.
//
// node web/bench/viewer_bench.mjs [--sizes 100k,1M] [--key 10] [--delta 20] [--warmup 2]
//   [--substeps 20] [--threads 2] [--viewport 640x360] [--json FILE]
// (a count or substeps is N for every size, or SIZE=N,...). The server steps only while the
// browser waits for a delta frame, so it may use every core. The viewport is small because
// SwiftShader's drawing (not measured) competes with the main thread for the cores.
// For comparison, the same frames are also decoded in Node with protocol/js (decode only).
// Environment as the e2e tests: FLUIDCAST_BIN, FLUIDCAST_WEB, CHROMIUM_PATH, PLAYWRIGHT_CORE.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { launchBrowser, openViewer, waitFor } from '../e2e/lib/browser.mjs';
import { checkPrerequisites } from '../e2e/lib/paths.mjs';
import { startServer } from '../e2e/lib/server.mjs';
import { FrameDecoder } from '../../protocol/js/frame_decoder.js';

// The dam breaks of bench/run_bench.sh: spacing 0.02 m, a water block in a tank 3x its length.
const CASES = {
  '100k': { particles: 100000, block: [0.8, 1.0, 1.0], tank: [2.4, 1.4, 1.0] },
  '1M': { particles: 1000000, block: [2.0, 2.0, 2.0], tank: [6.0, 2.8, 2.0] },
};

/** "N" sets every size's value, "100k=N,1M=M" single ones. */
function perSize(table, value) {
  for (const entry of value.split(',')) {
    const [size, n] = entry.includes('=') ? entry.split('=') : [null, entry];
    if (!Number.isInteger(Number(n)) || Number(n) < 0) throw new Error(`bad count ${entry}`);
    for (const key of size ? [size] : Object.keys(CASES)) table[key] = Number(n);
  }
}

function parseArgs(argv) {
  const options = {
    sizes: ['100k', '1M'], key: { '100k': 10, '1M': 10 }, delta: { '100k': 20, '1M': 20 }, warmup: 2,
    substeps: { '100k': 20, '1M': 20 }, threads: 2, viewport: { width: 640, height: 360 }, json: null,
  };
  for (let i = 0; i < argv.length; i += 2) {
    const [name, value] = [argv[i], argv[i + 1]];
    if (value === undefined) throw new Error(`${name}: missing value`);
    switch (name) {
      case '--sizes': options.sizes = value.split(','); break;
      case '--key': perSize(options.key, value); break;
      case '--delta': perSize(options.delta, value); break;
      case '--warmup': options.warmup = Number(value); break;
      case '--threads': options.threads = Number(value); break;
      case '--json': options.json = value; break;
      case '--substeps': perSize(options.substeps, value); break;
      case '--viewport': {
        const [width, height] = value.split('x').map(Number);
        options.viewport = { width, height };
        break;
      }
      default: throw new Error(`unknown option ${name}`);
    }
  }
  for (const size of options.sizes) if (!CASES[size]) throw new Error(`unknown size ${size} (100k or 1M)`);
  return options;
}

function quantile(values, q) {
  const sorted = [...values].sort((a, b) => a - b);
  if (sorted.length === 0) return NaN;
  const position = (sorted.length - 1) * q;
  const low = Math.floor(position);
  const high = Math.ceil(position);
  return sorted[low] + (sorted[high] - sorted[low]) * (position - low);
}

function summarize(samples) {
  const ms = samples.map((s) => s.ms);
  return {
    frames: samples.length,
    median_ms: quantile(ms, 0.5),
    p90_ms: quantile(ms, 0.9),
    max_ms: Math.max(...ms),
    decode_only_median_ms: quantile(samples.map((s) => s.decodeMs), 0.5),
    worker_decode_median_ms: quantile(samples.map((s) => s.workerMs), 0.5),
    uploads_deferred: samples.filter((s) => s.deferred).length,
    bytes_per_particle: samples.reduce((sum, s) => sum + s.bytes / s.count, 0) / samples.length,
  };
}

// Runs in the page before its scripts: records the header of every binary frame, in arrival order.
function frameTap() {
  window.__benchFrames = [];
  window.__benchFrameData = [];
  const Native = window.WebSocket;
  class TappedWebSocket extends Native {
    constructor(...args) {
      super(...args);
      this.addEventListener('message', (event) => {
        if (!(event.data instanceof ArrayBuffer) || event.data.byteLength < 80) return;
        const view = new DataView(event.data, 0, 80);
        window.__benchFrames.push({
          kind: view.getUint8(5) === 0 ? 'key' : 'delta', sequence: view.getUint32(16, true),
          count: view.getUint32(32, true), bytes: event.data.byteLength,
        });
        // A copy for the decode-only comparison in Node (made here, outside the viewer's timer).
        window.__benchFrameData.push(event.data.slice(0));
      });
    }
  }
  window.WebSocket = TappedWebSocket;
}

async function frameState(viewer) {
  return viewer.page.evaluate(() => ({
    tapped: window.__benchFrames.length,
    deferred: window.fluidcast.status().uploadsDeferred,
    timings: window.fluidcast.frameTimings().length,
    measures: performance.getEntriesByName('fluidcast-frame', 'measure').length,
  }));
}

/** The frames the page received, in order, as Uint8Arrays (fetched as base64). */
async function receivedFrames(viewer) {
  const n = await viewer.page.evaluate(() => window.__benchFrameData.length);
  const frames = [];
  for (let i = 0; i < n; i++) {
    const base64 = await viewer.page.evaluate((index) => {
      const bytes = new Uint8Array(window.__benchFrameData[index]);
      let text = '';
      for (let at = 0; at < bytes.length; at += 0x8000) text += String.fromCharCode.apply(null, bytes.subarray(at, at + 0x8000));
      return btoa(text);
    }, i);
    frames.push(new Uint8Array(Buffer.from(base64, 'base64')));
  }
  return frames;
}

/**
 * Decode-only time of the same frames in Node with protocol/js (what the viewer runs before its
 * upload): the whole stream decoded in order `repeats` times after a warm-up pass; per frame the
 * median over the repeats, in ms.
 */
function decodeOnly(frames, repeats = 5) {
  const perFrame = frames.map(() => []);
  for (let r = 0; r <= repeats; r++) {
    const decoder = new FrameDecoder();
    frames.forEach((bytes, i) => {
      const start = process.hrtime.bigint();
      decoder.decode(bytes);
      const ms = Number(process.hrtime.bigint() - start) / 1e6;
      if (r > 0) perFrame[i].push(ms);
    });
  }
  return perFrame.map((values) => quantile(values, 0.5));
}

/** Waits for two animation frames of the page and 200 ms more. */
async function settle(viewer) {
  await viewer.page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
  await new Promise((r) => setTimeout(r, 200));
}

/** Sends one request that causes exactly one frame, waits until the viewer handled it; returns it. */
async function oneFrame(viewer, request, what) {
  const before = await frameState(viewer);
  const sent = Date.now();
  await viewer.page.evaluate((message) => window.fluidcast.send(message), request);
  await waitFor(async () => {
    const now = await frameState(viewer);
    return now.tapped > before.tapped && now.timings >= now.tapped ? now : false;
  }, what, 120000, 20);
  const wallMs = Date.now() - sent;
  // Let the viewer draw it before the next request (SwiftShader's drawing would compete for the
  // cores); a paused world sends nothing else meanwhile, which is checked.
  await settle(viewer);
  const after = await frameState(viewer);
  if (after.tapped !== before.tapped + 1 || after.timings !== after.tapped) {
    throw new Error(`${what}: expected one new frame, got ${after.tapped - before.tapped} (timings ${after.timings}, frames ${after.tapped})`);
  }
  return viewer.page.evaluate((i) => {
    const timings = window.fluidcast.frameTimings();
    const decodeTimings = window.fluidcast.decodeTimings();
    return { ...window.__benchFrames[i], ms: timings[i], workerMs: decodeTimings[i], index: i };
  }, after.tapped - 1).then((frame) => ({ ...frame, wallMs, deferred: after.deferred > before.deferred }));
}

/**
 * Pauses world 1 before the viewer joins, from a bare WebSocket in a blank page of the server's
 * origin: a viewer that joins a running 1M world on a software renderer falls behind the stream
 * and would see its pause only after the frames already sent to it.
 */
async function pauseWorld(browser, url) {
  const context = await browser.newContext();
  try {
    const page = await context.newPage();
    await page.goto(`${url}healthz`);
    await page.evaluate(() => new Promise((resolve, reject) => {
      const ws = new WebSocket(`ws://${location.host}/`, 'fluidcast.v1');
      const timer = setTimeout(() => reject(new Error('no ack to pause within 120 s')), 120000);
      ws.onopen = () => ws.send(JSON.stringify({ type: 'hello', client: 'viewer bench' }));
      ws.onmessage = (event) => {
        if (typeof event.data !== 'string') return;
        const message = JSON.parse(event.data);
        if (message.type === 'welcome') ws.send(JSON.stringify({ type: 'pause', world: 1, id: 1 }));
        else if (message.type === 'error') reject(new Error(`pause: ${message.code}: ${message.message}`));
        else if (message.type === 'ack' && message.id === 1) {
          clearTimeout(timer);
          ws.close();
          resolve();
        }
      };
    }));
  } finally {
    await context.close();
  }
}

async function benchSize(browser, size, options, work) {
  const c = CASES[size];
  const scene = join(work, `viewer_bench_${size}.json`);
  writeFileSync(scene, JSON.stringify({
    name: `viewer_bench_${size}`, description: `viewer benchmark dam break, ${size} particles`,
    domain: { min: [0, 0, 0], max: c.tank }, fluid: [{ type: 'box', min: [0, 0, 0], max: c.block }],
  }));
  const substeps = options.substeps[size] ?? 20;
  console.error(`viewer bench: ${size}: starting the server (substeps ${substeps}, ${options.threads} thread(s))`);
  const server = await startServer({ scene, fast: true, threads: options.threads, set: { substeps }, startTimeoutMs: 300000 });
  let viewer = null;
  try {
    await pauseWorld(browser, server.url);
    viewer = await openViewerWithTap(browser, `${server.url}?world=1`, { viewport: options.viewport });
    const joined = await viewer.waitStatus((s) => s.connection === 'open' && s.role === 'control' && s.frames > 0 && s.paused,
      'the first frame of the paused world', 180000);
    if (joined.particles !== c.particles) throw new Error(`${size}: the world has ${joined.particles} particles`);
    await settle(viewer);
    const joinFrames = await viewer.page.evaluate(() => {
      const timings = window.fluidcast.frameTimings();
      return window.__benchFrames.map((f, i) => ({ ...f, ms: timings[i] }));
    });
    const world = joined.world;
    const key = [];
    const delta = [];
    const samples = { key, delta };
    const take = (frame, i, what) => {
      console.error(`viewer bench: ${size}: ${what} ${i + 1}: ${frame.kind} frame, ${frame.ms.toFixed(2)} ms, ${frame.bytes} bytes, handled after ${frame.wallMs} ms`);
      if (i >= options.warmup) samples[frame.kind].push(frame);
    };
    // A step is answered by a delta frame, or by a key frame where the server moved the viewer to
    // another rate tier (PROTOCOL.md section 5); each counts as what it is.
    for (let i = 0; delta.length < options.delta[size]; i++) {
      if (i >= 2 * (options.warmup + options.delta[size])) throw new Error(`${size}: only ${delta.length} delta frames in ${i} steps`);
      take(await oneFrame(viewer, { type: 'step', world, frames: 1 }, `${size}: step ${i + 1}`), i, 'step');
    }
    // Key frames after the steps, so that they carry the moving fluid's velocities.
    for (let i = 0; i < options.warmup + options.key[size]; i++) {
      const frame = await oneFrame(viewer, { type: 'key_request', world }, `${size}: key frame ${i + 1}`);
      if (frame.kind !== 'key') throw new Error(`${size}: key_request answered by a ${frame.kind} frame`);
      take(frame, i, 'key_request');
    }
    const status = await viewer.status();
    const webgl = await viewer.page.evaluate(() => {
      const gl = document.createElement('canvas').getContext('webgl2');
      const info = gl && gl.getExtension('WEBGL_debug_renderer_info');
      return gl ? { version: gl.getParameter(gl.VERSION), renderer: info ? gl.getParameter(info.UNMASKED_RENDERER_WEBGL) : null } : null;
    });
    const measures = await viewer.page.evaluate(() => performance.getEntriesByName('fluidcast-frame', 'measure').length);
    const decoded = decodeOnly(await receivedFrames(viewer));
    for (const frame of [...key, ...delta]) frame.decodeMs = decoded[frame.index];
    const result = {
      size, particles: c.particles, decoding: status.decoding, substeps, threads: options.threads, viewport: options.viewport, warmup: options.warmup,
      first_frame: joinFrames[0] ?? null, join_frames: joinFrames.length,
      key: summarize(key), delta: summarize(delta), render_fps: status.renderFps, sim_time_end: status.time, webgl, measures,
      timings_match_measures: measures === (await frameState(viewer)).timings,
    };
    console.error(`viewer bench: ${size}: key ${result.key.median_ms.toFixed(2)} ms median, delta ${result.delta.median_ms.toFixed(2)} ms median`);
    viewer.saveLog(`viewer-bench-${size}`);
    return result;
  } finally {
    if (viewer) await viewer.close();
    await server.stop(30000);
  }
}

async function openViewerWithTap(browser, url, { viewport }) {
  // openViewer() navigates at once; add the tap to the context first through a wrapper browser.
  const wrapped = {
    newContext: async (options) => {
      const context = await browser.newContext(options);
      await context.addInitScript(frameTap);
      return context;
    },
  };
  return openViewer(wrapped, url, { viewport });
}

async function main() {
  const options = parseArgs(process.argv.slice(2));
  checkPrerequisites();
  const work = mkdtempSync(join(tmpdir(), 'viewer-bench-'));
  const browser = await launchBrowser();
  const results = [];
  try {
    for (const size of options.sizes) results.push(await benchSize(browser, size, options, work));
  } finally {
    await browser.close().catch(() => {});
    rmSync(work, { recursive: true, force: true });
  }
  const output = { chromium: browser.version(), node: process.version, results };
  if (options.json) writeFileSync(options.json, `${JSON.stringify(output, null, 2)}\n`);
  console.log(JSON.stringify(output));
}

main().catch((error) => {
  console.error(`viewer bench: ${error.stack || error.message}`);
  process.exit(1);
});
