import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';
import { sizeBudget } from './vite-budget';
import { prerenderPages } from './vite-prerender';
import { precompress } from './vite-compress';

const START_MODULES = new RegExp(
  [
    String.raw`node_modules/(react-router|@tanstack)/`,
    String.raw`node_modules/@mantine/core/esm/components/(Alert|Center|CloseButton|Code|VisuallyHidden)/`,
    String.raw`node_modules/@tabler/icons-react/dist/esm/createReactComponent`,
    String.raw`src/web/app/(mount|router|providers|guards|paths|screens|theme|contrast|query-client|shell/layout-loading)\.`,
    String.raw`src/web/lib/(paths|session|api-client|stylesheet)\.`,
    String.raw`src/web/components/(error-fallback|page-loader|no-access-page)\.`,
    String.raw`src/web/features/auth/(auth-context|auth\.api)\.`,
  ].join('|'),
);

// The panel: built into dist/web and served by the API server on port 8009.
// `npx vite` gives a hot-reloading panel on 5173 that proxies /api to a running server.
export default defineConfig({
  root: 'src/web',
  plugins: [react(), sizeBudget(), prerenderPages(), precompress()],
  // No modulepreload polyfill: every browser the panel supports has modulepreload (sign-in budget).
  build: { outDir: '../../dist/web', emptyOutDir: true, chunkSizeWarningLimit: 800, modulePreload: { polyfill: false },
    rollupOptions: {
      output: {
        // What the panel starts with after React DOM (main.tsx's second step, app/mount.tsx) in one
        // chunk, not a dozen small ones shared with the routes (the sign-in budget, vite-budget.ts).
        codeSplitting: {
          includeDependenciesRecursively: false,
          groups: [{ name: 'start', test: START_MODULES }],
        },
      },
    },
  },
  server: { proxy: { '/api': 'http://localhost:8009' } },
});
