// Starts a real `fluidcast serve` on a random loopback port for one test file and stops it again,
// also when the test fails or the process is interrupted.
import { spawn, spawnSync } from 'node:child_process';
import { fluidcastBin, webDist } from './paths.mjs';

const running = new Set();

function killAll() {
  for (const server of running) {
    try {
      server.child.kill('SIGKILL');
    } catch {
      // already gone
    }
  }
}
// A test process that ends (normally, by an uncaught error or by a signal) takes its servers along.
process.on('exit', killAll);
for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP']) {
  process.once(signal, () => {
    killAll();
    process.exit(128 + ({ SIGHUP: 1, SIGINT: 2, SIGTERM: 15 })[signal]);
  });
}

/**
 * Starts `fluidcast serve --port 0 --web DIST --scene SCENE` with the given options and resolves
 * once it printed its URL. Options: scene (name or file), token, fast, threads (default 1, which
 * makes stepping deterministic), fps, set ({name: value}), env ({NAME: value}, e.g. the server's
 * FLUIDCAST_TEST_* knobs), extraArgs (more options, e.g. ['--public-url', URL]), startTimeoutMs.
 */
export async function startServer(options = {}) {
  const {
    scene = 'dam_break', token, fast = false, threads = 1, fps, set = {}, env = {}, startTimeoutMs = 60000, web = webDist,
    extraArgs = [],
  } = options;
  const args = ['serve', '--port', '0', '--bind', '127.0.0.1', '--web', web, '--scene', scene, '--threads', String(threads)];
  if (token) args.push('--token', token);
  if (fast) args.push('--fast');
  if (fps) args.push('--fps', String(fps));
  for (const [name, value] of Object.entries(set)) args.push('--set', `${name}=${value}`);
  args.push(...extraArgs);

  const child = spawn(fluidcastBin, args, { stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, ...env, OMP_NUM_THREADS: String(threads) } });
  const server = { child, args, log: '', url: null, port: null, exitCode: undefined, stop: null };
  running.add(server);
  const exited = new Promise((resolveExit) => {
    child.on('exit', (code, signal) => {
      server.exitCode = code ?? signal;
      running.delete(server);
      resolveExit(server.exitCode);
    });
  });
  const onData = (chunk) => { server.log += chunk.toString(); };
  child.stdout.on('data', onData);
  child.stderr.on('data', onData);

  server.stop = async (timeoutMs = 10000) => {
    if (server.exitCode !== undefined) return server.exitCode;
    child.kill('SIGTERM');
    let timer;
    const code = await Promise.race([exited, new Promise((r) => { timer = setTimeout(() => r('timeout'), timeoutMs); })]);
    clearTimeout(timer);
    if (code === 'timeout') {
      child.kill('SIGKILL');
      await exited;
      throw new Error(`fluidcast did not stop within ${timeoutMs} ms of SIGTERM; killed. Log:\n${server.log}`);
    }
    return code;
  };

  const deadline = Date.now() + startTimeoutMs;
  while (server.url === null) {
    const match = /http:\/\/127\.0\.0\.1:(\d+)\//.exec(server.log);
    if (match) {
      server.port = Number(match[1]);
      server.url = `http://127.0.0.1:${server.port}/`;
      break;
    }
    if (server.exitCode !== undefined) {
      throw new Error(`fluidcast ${args.join(' ')} exited (${server.exitCode}) before printing its URL:\n${server.log}`);
    }
    if (Date.now() > deadline) {
      await server.stop().catch(() => {});
      throw new Error(`fluidcast ${args.join(' ')} printed no URL within ${startTimeoutMs} ms:\n${server.log}`);
    }
    await new Promise((r) => setTimeout(r, 50));
  }
  return server;
}

/** The parameter table as `fluidcast params --json` prints it (the same as welcome's). */
export function parameterTable() {
  const out = spawnSync(fluidcastBin, ['params', '--json'], { encoding: 'utf8', timeout: 10000 });
  if (out.status !== 0) throw new Error(`fluidcast params --json failed (${out.status}): ${out.stderr}`);
  const table = JSON.parse(out.stdout);
  return Array.isArray(table) ? table : table.parameters;
}
