#!/usr/bin/env node
// Runs the browser end-to-end tests one file at a time (each starts its own fluidcast server and
// Chromium): node web/e2e/run.mjs [NAME...] where NAME picks files (load, gravity, emitter, watch, solver, panel, ...).
// Environment: FLUIDCAST_BIN (default build/fluidcast), FLUIDCAST_WEB (default web/dist),
// CHROMIUM_PATH (default /usr/bin/chromium), PLAYWRIGHT_CORE (default web/node_modules),
// E2E_ARTIFACTS (default web/e2e/artifacts), E2E_FILE_TIMEOUT_S (default 600 per file).
// Exits 0 when every file passed.
import { spawn } from 'node:child_process';
import { readdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { artifactsDir, checkPrerequisites, chromiumPath, e2eDir, ensureArtifactsDir, fluidcastBin, webDist } from './lib/paths.mjs';

const ORDER = ['load', 'gravity', 'emitter', 'watch', 'solver', 'panel', 'scene', 'workshop', 'phone'];
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
let current = null;
for (const signal of ['SIGINT', 'SIGTERM']) {
  process.once(signal, () => {
    if (current) current.kill('SIGTERM'); // its own handlers stop its server and browser
    process.exit(130);
  });
}

const results = [];
for (const name of files) {
  const file = join(e2eDir, `${name}.e2e.mjs`);
  console.log(`\n== e2e: ${name}`);
  const started = Date.now();
  let output = '';
  const code = await new Promise((resolve) => {
    current = spawn(process.execPath, ['--test', '--test-reporter=spec', file], { stdio: ['inherit', 'pipe', 'pipe'] });
    for (const [from, to] of [[current.stdout, process.stdout], [current.stderr, process.stderr]]) {
      from.on('data', (chunk) => {
        to.write(chunk);
        output = (output + chunk.toString()).slice(-200000);
      });
    }
    const timer = setTimeout(() => {
      console.error(`e2e: ${name} ran over ${timeoutS} s; stopping it`);
      current.kill('SIGTERM');
      setTimeout(() => current.kill('SIGKILL'), 10000).unref();
    }, timeoutS * 1000);
    current.on('exit', (exitCode, signal) => {
      clearTimeout(timer);
      resolve(exitCode ?? signal);
    });
  });
  current = null;
  results.push({ name, ok: code === 0, code, seconds: ((Date.now() - started) / 1000).toFixed(1), output });
}

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
