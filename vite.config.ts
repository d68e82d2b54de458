import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';
import { sizeBudget } from './vite-budget';
import { prerenderPages } from './vite-prerender';
import { precompress } from './vite-compress';

// The panel: built into dist/web and served by the API server on port 8009.
// `npx vite` gives a hot-reloading panel on 5173 that proxies /api to a running server.
export default defineConfig({
  root: 'src/web',
  plugins: [react(), sizeBudget(), prerenderPages(), precompress()],
  build: { outDir: '../../dist/web', emptyOutDir: true, chunkSizeWarningLimit: 800 },
  server: { proxy: { '/api': 'http://localhost:8009' } },
});
