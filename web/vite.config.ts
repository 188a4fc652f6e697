import preact from '@preact/preset-vite';
import { defineConfig } from 'vite';

/** The API server `npm run dev:web` forwards to; `npm run dev` starts one on this port. */
const API = process.env.IMAGEGATE_URL ?? 'http://127.0.0.1:8787';

export default defineConfig({
  root: import.meta.dirname,
  plugins: [preact()],
  build: {
    // Served by the API server from dist/web (src/runtimes/node/web-app-routes.ts); `files` ships dist/.
    outDir: '../dist/web',
    emptyOutDir: true,
    target: 'es2022',
    sourcemap: false,
  },
  server: {
    proxy: Object.fromEntries(['/api', '/app', '/files', '/docs', '/openapi.json', '/health'].map((path) => [path, API])),
  },
});
