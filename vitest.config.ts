import { defineConfig } from 'vitest/config';
import react from '@vitejs/plugin-react';

const serverTests = {
  environment: 'node' as const,
  include: ['src/server/**/*.test.ts', 'src/contract/**/*.test.ts'],
  testTimeout: 30_000,
  hookTimeout: 60_000,
};

// The API suite runs on the embedded PGlite, and again on a PostgreSQL server when
// TEST_DATABASE_URL names one (CI does; each test file gets its own throw-away database).
const onPostgres = process.env.TEST_DATABASE_URL
  ? [{ extends: true as const, test: { ...serverTests, name: 'server-postgres', env: { TEST_DB: 'postgres' } } }]
  : [];

export default defineConfig({
  plugins: [react()],
  test: {
    projects: [
      { extends: true, test: { ...serverTests, name: 'server' } },
      ...onPostgres,
      {
        extends: true,
        test: {
          name: 'web',
          environment: 'jsdom',
          include: ['src/web/**/*.test.{ts,tsx}'],
          setupFiles: ['src/web/test-setup.ts'],
        },
      },
      {
        extends: true,
        test: {
          name: 'e2e',
          environment: 'node',
          include: ['e2e/**/*.test.ts'],
          testTimeout: 120_000,
          hookTimeout: 180_000,
          fileParallelism: false,
        },
      },
    ],
  },
});
