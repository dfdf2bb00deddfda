// Where the e2e tests and the viewer benchmark find the server, the built viewer, Chromium and
// playwright-core; each can be overridden by an environment variable.
import { existsSync, mkdirSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

export const e2eDir = resolve(dirname(fileURLToPath(import.meta.url)), '..');
export const webDir = resolve(e2eDir, '..');
export const repoRoot = resolve(webDir, '..');

/** The fluidcast binary: FLUIDCAST_BIN, else build/fluidcast (relative paths from the repository root). */
export const fluidcastBin = resolve(repoRoot, process.env.FLUIDCAST_BIN || 'build/fluidcast');
/** The built viewer served with --web: FLUIDCAST_WEB, else web/dist. */
export const webDist = resolve(repoRoot, process.env.FLUIDCAST_WEB || 'web/dist');
/** Debian's Chromium: CHROMIUM_PATH, else /usr/bin/chromium. */
export const chromiumPath = process.env.CHROMIUM_PATH || '/usr/bin/chromium';
/** Screenshots and logs: E2E_ARTIFACTS, else web/e2e/artifacts. */
export const artifactsDir = resolve(process.env.E2E_ARTIFACTS || join(e2eDir, 'artifacts'));

export function scenePath(name) {
  return join(e2eDir, 'scenes', name);
}

export function ensureArtifactsDir() {
  mkdirSync(artifactsDir, { recursive: true });
  return artifactsDir;
}

/** Throws a message that says what to do when the binary or the built viewer is missing. */
export function checkPrerequisites() {
  const problems = [];
  if (!existsSync(fluidcastBin)) problems.push(`no server binary at ${fluidcastBin} (build it, or set FLUIDCAST_BIN)`);
  if (!existsSync(join(webDist, 'index.html'))) {
    problems.push(`no built viewer at ${webDist}/index.html (cd web && npm ci && npm run build, or set FLUIDCAST_WEB)`);
  }
  if (!existsSync(chromiumPath)) problems.push(`no Chromium at ${chromiumPath} (apt-get install chromium, or set CHROMIUM_PATH)`);
  if (problems.length) throw new Error(`e2e prerequisites missing:\n  ${problems.join('\n  ')}`);
}
