// One server and one browser per test file, started in before() and always stopped in after().
import { after, before } from 'node:test';
import { launchBrowser } from './browser.mjs';
import { checkPrerequisites } from './paths.mjs';
import { startServer } from './server.mjs';

/**
 * Registers before/after hooks and returns {server, browser, viewers}: the server started with
 * serverOptions (lib/server.mjs) and Chromium. Viewers pushed on `viewers` are closed (their logs
 * saved) before the server stops, so a page never watches its server go away.
 */
export function useServerAndBrowser(name, serverOptions) {
  const fixture = { server: null, browser: null, viewers: [] };
  before(async () => {
    checkPrerequisites();
    fixture.server = await startServer(serverOptions);
    fixture.browser = await launchBrowser();
  }, { timeout: 120000 });
  after(async () => {
    const problems = [];
    for (const [i, viewer] of fixture.viewers.entries()) {
      try {
        viewer.saveLog(`${name}-page${i + 1}`);
      } catch (error) {
        problems.push(error);
      }
      await viewer.close();
    }
    if (fixture.browser) await fixture.browser.close().catch((error) => problems.push(error));
    if (fixture.server) {
      const code = await fixture.server.stop().catch((error) => { problems.push(error); return null; });
      if (code !== null && code !== 0) problems.push(new Error(`fluidcast exited with ${code} on SIGTERM:\n${fixture.server.log}`));
    }
    if (problems.length) throw problems[0];
  }, { timeout: 60000 });
  return fixture;
}
