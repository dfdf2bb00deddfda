#!/usr/bin/env node
// Runs the browser end-to-end tests, E2E_JOBS files at a time (each starts its own fluidcast server,
// one thread, and Chromium; two files beside each other slow each other down, but less than they
// would take one after the other): node web/e2e/run.mjs [NAME...] where NAME picks files (load, gravity, emitter, watch, solver, panel, ...).
// Each file's output is printed whole when it ends, so that files running together do not mix.
// Environment: FLUIDCAST_BIN (default build/fluidcast), FLUIDCAST_WEB (default web/dist),
// CHROMIUM_PATH (default /usr/bin/chromium), PLAYWRIGHT_CORE (default web/node_modules),
// E2E_ARTIFACTS (default web/e2e/artifacts), E2E_FILE_TIMEOUT_S (default 600 per file), E2E_JOBS
// (default 2; 1 runs them one after another, their output as it comes). Exits 0 when every file passed.
import { spawn } from 'node:child_process';
import { readdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { artifactsDir, checkPrerequisites, chromiumPath, e2eDir, ensureArtifactsDir, fluidcastBin, webDist } from './lib/paths.mjs';

// the files that take longest start first, so that the others fill in beside them
const ORDER = ['stable2d', 'oil_water', 'workshop', 'load', 'gravity', 'emitter', 'watch', 'solver', 'panel', 'scene', 'phone'];
const wanted = process.argv.slice(2);
const files = readdirSync(e2eDir)
  .filter((f) => f.endsWith('.e2e.mjs'))
  .map((f) => f.replace(/\.e2e\.mjs$/, ''))
  .filter((name) => wanted.length === 0 || wanted.includes(name))
  .sort((a, b) => (ORDER.indexOf(a) + 1 || 99) - (ORDER.indexOf(b) + 1 || 99) || a.localeCompare(b));
if (files.length === 0) {
  console.error(`e2e: no test file matches ${wanted.join(' ')}`);
  process.exit(2);
}
checkPrerequisites();
rmSync(artifactsDir, { recursive: true, force: true });
ensureArtifactsDir();
console.log(`e2e: server ${fluidcastBin}, viewer ${webDist}, browser ${chromiumPath}, artifacts ${artifactsDir}`);

const timeoutS = Number(process.env.E2E_FILE_TIMEOUT_S || 600);
const jobs = Math.max(1, Number(process.env.E2E_JOBS || 2));
const running = new Set();
for (const signal of ['SIGINT', 'SIGTERM']) {
  process.once(signal, () => {
    for (const child of running) child.kill('SIGTERM'); // their own handlers stop their servers and browsers
    process.exit(130);
  });
}

/* Runs one file; its output goes straight through with one job, else whole when it ends. */
function runFile(name) {
  const file = join(e2eDir, `${name}.e2e.mjs`);
  const live = jobs === 1;
  if (live) console.log(`\n== e2e: ${name}`);
  const started = Date.now();
  let output = '';
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ['--test', '--test-reporter=spec', file], { stdio: ['inherit', 'pipe', 'pipe'] });
    running.add(child);
    for (const [from, to] of [[child.stdout, process.stdout], [child.stderr, process.stderr]]) {
      from.on('data', (chunk) => {
        if (live) to.write(chunk);
        output = (output + chunk.toString()).slice(-200000);
      });
    }
    const timer = setTimeout(() => {
      console.error(`e2e: ${name} ran over ${timeoutS} s; stopping it`);
      child.kill('SIGTERM');
      setTimeout(() => child.kill('SIGKILL'), 10000).unref();
    }, timeoutS * 1000);
    child.on('close', (exitCode, signal) => {
      clearTimeout(timer);
      running.delete(child);
      if (!live) process.stdout.write(`\n== e2e: ${name}\n${output}`);
      const code = exitCode ?? signal;
      resolve({ name, ok: code === 0, code, seconds: ((Date.now() - started) / 1000).toFixed(1), output });
    });
  });
}

const results = new Array(files.length);
let next = 0;
async function worker() {
  while (next < files.length) {
    const at = next++;
    results[at] = await runFile(files[at]);
  }
}
await Promise.all(Array.from({ length: Math.min(jobs, files.length) }, worker));

console.log('\n== e2e summary');
for (const r of results) console.log(`${r.ok ? 'pass' : 'FAIL'}  ${r.name}  (${r.seconds} s${r.ok ? '' : `, exit ${r.code}`})`);
// Each failing file's own account again, last, where a log's tail (CI's) still shows it.
for (const r of results.filter((x) => !x.ok)) {
  const lines = r.output.split('\n');
  const from = lines.findIndex((line) => line.includes('failing tests:'));
  const account = from >= 0 ? lines.slice(from, from + 80) : lines.slice(-40);
  console.log(`\n== e2e: why ${r.name} failed\n${account.join('\n')}`);
}
console.log(`screenshots and page logs: ${artifactsDir}`);
process.exit(results.every((r) => r.ok) ? 0 : 1);
