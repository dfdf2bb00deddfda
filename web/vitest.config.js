// Vitest configuration: runs the viewer's tests and the JS frame decoder's tests in ../protocol/js.
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

const protocolJs = fileURLToPath(new URL('../protocol/js', import.meta.url));

export default defineConfig({
  // The decoder lives outside web/: let the dev server read it.
  server: { fs: { allow: ['.', protocolJs] } },
  test: {
    include: ['../protocol/js/**/*.test.js', 'src/**/*.test.js', 'test/**/*.test.js'],
    exclude: ['**/node_modules/**'],
    environment: 'node',
    testTimeout: 60000,
  },
});
