// Vite build of the viewer into web/dist (served by `fluidcast serve`); it imports the decoder from ../protocol/js.
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';

const protocolJs = fileURLToPath(new URL('../protocol/js', import.meta.url));

export default defineConfig({
  base: './',
  server: { fs: { allow: ['.', protocolJs] } },
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    target: 'es2022',
    rollupOptions: { output: { manualChunks: { three: ['three'] } } },
    chunkSizeWarningLimit: 800,
  },
});
