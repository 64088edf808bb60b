import { defineConfig } from 'vitest/config';

// Test projects: `node` holds everything that needs no browser (clinical/, api/, scripts/);
// `e2e` drives Debian's Chromium with playwright-core and is started by e2e/run.mjs,
// which first makes sure a Chromium binary exists.
export default defineConfig({
  test: {
    projects: [
      {
        test: {
          name: 'node',
          environment: 'node',
          include: ['clinical/**/*.test.ts', 'api/**/*.test.ts', 'scripts/**/*.test.ts'],
        },
      },
      {
        test: {
          name: 'e2e',
          environment: 'node',
          include: ['e2e/**/*.e2e.ts'],
          testTimeout: 60_000,
          hookTimeout: 120_000,
          fileParallelism: false,
        },
      },
    ],
  },
});
