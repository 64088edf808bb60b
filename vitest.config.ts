import { defineConfig } from 'vitest/config';

// Test projects:
// - `node`: everything that needs no browser (clinical/, api/, scripts/), with one throwaway PostgreSQL
//   cluster per run for the storage tests (api/test-support/postgres-global-setup.ts);
// - `dom`: widget components and host-page logic in jsdom (React components, not custom elements);
// - `e2e`: real Chromium via playwright-core, started by e2e/run.mjs, which first finds Chromium.
export default defineConfig({
  oxc: { jsx: { runtime: 'automatic', importSource: '@emotion/react' } },
  test: {
    projects: [
      {
        extends: true,
        test: {
          name: 'node',
          environment: 'node',
          include: ['clinical/**/*.test.ts', 'api/**/*.test.ts', 'scripts/**/*.test.ts'],
          globalSetup: ['api/test-support/postgres-global-setup.ts'],
        },
      },
      {
        extends: true,
        test: {
          name: 'dom',
          environment: 'jsdom',
          include: ['widgets/**/*.test.{ts,tsx}', 'host/**/*.test.{ts,tsx}', 'stories/**/*.test.{ts,tsx}'],
          setupFiles: ['widgets/test-setup.ts'],
        },
      },
      {
        extends: true,
        test: {
          name: 'e2e',
          environment: 'node',
          include: ['e2e/**/*.e2e.ts'],
          globalSetup: ['e2e/global-setup.ts'],
          testTimeout: 60_000,
          hookTimeout: 180_000,
          fileParallelism: false,
        },
      },
    ],
  },
});
