import { randomBytes } from 'node:crypto';
import os from 'node:os';
import { defineConfig } from 'vitest/config';
import react from '@vitejs/plugin-react';

const serverTests = {
  environment: 'node' as const,
  include: ['src/server/**/*.test.ts', 'src/contract/**/*.test.ts', 'bench/**/*.test.ts'],
  // Explicit, and several times what a test takes alone: `npm test` must pass while another
  // process keeps both cores of the 2-core CI machine busy (createTestApp alone takes 10–40 s then).
  testTimeout: 60_000,
  hookTimeout: 120_000,
};

// The API suite runs on the embedded PGlite, and again on a PostgreSQL server when
// TEST_DATABASE_URL names one (CI does; each test file gets its own throw-away database).
// Either way global-setup.ts builds the migrated template each file's database is copied from.
const templates = ['src/server/test/global-setup.ts'];
const onPostgres = process.env.TEST_DATABASE_URL
  ? [{ extends: true as const, test: { ...serverTests, name: 'server-postgres', env: { TEST_DB: 'postgres' }, globalSetup: templates } }]
  : [];

// Vitest's default (cores - 1) is a single worker on the 2-core CI machine. The API and panel
// tests wait on databases and jsdom as much as they compute, so two workers take about a third
// off their time; the browser journeys and load tests then run alone, one file at a time.
const workers = Math.max(2, os.availableParallelism() - 1);

const journeys = {
  environment: 'node' as const,
  include: ['e2e/**/*.test.ts'],
  testTimeout: 120_000,
  hookTimeout: 180_000,
};
const ALONE = ['e2e/soak.test.ts', 'e2e/crash-safety.test.ts', 'e2e/scale-out.test.ts'];
// A journey's server starts on a copy of the run's first-start database (e2e/support/templates.ts).
const journeyTemplates = {
  env: { E2E_TEMPLATE_RUN: randomBytes(4).toString('hex') },
  globalSetup: ['e2e/support/global-setup.ts'],
};

export default defineConfig({
  plugins: [react()],
  test: {
    maxWorkers: workers,
    sequence: { groupOrder: 0 },
    projects: [
      { extends: true, test: { ...serverTests, name: 'server', globalSetup: templates } },
      ...onPostgres,
      {
        extends: true,
        test: {
          name: 'web',
          environment: 'jsdom',
          // jsdom renders of whole pages take 3–7 s on a loaded 2-core machine; 5 s (the default) flaked.
          testTimeout: 30_000,
          hookTimeout: 30_000,
          include: ['src/web/**/*.test.{ts,tsx}'],
          setupFiles: ['src/web/test-setup.ts'],
        },
      },
      // Browser journeys, two files at a time: each starts its own server (own port, own database)
      // and its own Chromium, and waits on conditions with generous timeouts, so a journey passes
      // with a core to itself or less (the busy-machine check runs them so).
      {
        extends: true,
        test: { ...journeys, ...journeyTemplates, name: 'e2e', exclude: ALONE, sequence: { groupOrder: 1 } },
      },
      // The load, crash and scale-out journeys measure the machine itself: they run last, one at a time.
      {
        extends: true,
        test: { ...journeys, ...journeyTemplates, name: 'e2e-alone', include: ALONE, fileParallelism: false, sequence: { groupOrder: 2 } },
      },
    ],
  },
});
