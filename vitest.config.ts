import { defineConfig, type TestProjectInlineConfiguration } from 'vitest/config';
import { domTestOptions, type UiRuntime } from './scripts/ui-runtime.mjs';

/** The jsdom tests: widget components, elements and host-page logic. */
const DOM_TESTS = ['widgets/**/*.test.{ts,tsx}', 'host/**/*.test.{ts,tsx}', 'stories/**/*.test.{ts,tsx}'];

/**
 * The jsdom tests on one UI runtime (scripts/ui-runtime.mjs): `dom` on Preact, as the bundles and the page
 * ship, and `dom-react` on React itself, as the release's React build (`/widgets/<version>/react/`) runs them.
 * SGX_WIDGETS_RUNTIME tells a test which one it runs on (widgets/ui-runtime.test.ts checks it is so).
 */
function domProject(name: string, runtime: UiRuntime): TestProjectInlineConfiguration {
  const options = domTestOptions(runtime);
  return {
    extends: true,
    resolve: options.resolve,
    test: {
      name,
      environment: 'jsdom',
      include: DOM_TESTS,
      setupFiles: ['widgets/test-setup.ts'],
      env: { SGX_WIDGETS_RUNTIME: runtime },
      server: { deps: options.deps },
    },
  };
}

// Test projects:
// - `node`: everything that needs no browser (clinical/, api/, scripts/), with one throwaway PostgreSQL
//   cluster per run for the storage tests (api/test-support/postgres-global-setup.ts);
// - `node-postgres`: the API suites again, with the app on PostgreSQL instead of DATA_DIR
//   (api/test-support/test-api.ts reads SGX_TEST_STORE): the two stores must answer alike;
// - `dom`: widget components, elements and host-page logic in jsdom, on Preact as shipped;
// - `dom-react`: the same tests on React, so that the React build stays real (a Preact-only API fails it);
// - `e2e`: real Chromium via playwright-core, started by e2e/run.mjs, which first finds Chromium;
// - `containers`: the image built with podman and deploy/compose.yaml brought up (npm run test:containers,
//   not part of npm test: it builds images for several minutes).
/** The suites that drive the app through startTestApi, run on each store. */
const API_SUITES_ON_EVERY_STORE = [
  'api/auth/auth.test.ts',
  'api/oidc/single-sign-on.test.ts',
  'api/oidc/recorded-providers.test.ts',
  'api/auth/second-factor.test.ts',
  'api/auth/sessions.test.ts',
  'api/tools/tools.test.ts',
  'api/patients/patients-history.test.ts',
  'api/exports/exports.test.ts',
  'api/fhir/fhir-export.test.ts',
  'api/account/account.test.ts',
  'api/account/export-load.test.ts',
  'api/account/nothing-left-behind.test.ts',
  'api/http/idempotency.test.ts',
  'api/history/history-cursor.test.ts',
  'api/smart/smart-launch.test.ts',
  'api/smart/send-to-ehr.test.ts',
  'api/http/route-access.test.ts',
  'api/auth/step-up.test.ts',
  'api/auth/second-factor-failures.test.ts',
  'api/smart/smart-second-factor.test.ts',
  'api/http/edge.test.ts',
  'api/secrets-at-rest.test.ts',
  'api/http/request-limits.test.ts',
  'api/ops/ops.test.ts',
  'api/hardening.test.ts',
  'api/fuzz.test.ts',
];

export default defineConfig({
  oxc: { jsx: { runtime: 'automatic', importSource: '@emotion/react' } },
  test: {
    projects: [
      {
        extends: true,
        test: {
          name: 'node',
          environment: 'node',
          include: [
            'clinical/**/*.test.ts',
            'fhir/**/*.test.ts',
            'api/**/*.test.ts',
            'scripts/**/*.test.ts',
            'deploy/**/*.test.ts',
          ],
          globalSetup: ['api/test-support/postgres-global-setup.ts'],
        },
      },
      {
        extends: true,
        test: {
          name: 'node-postgres',
          environment: 'node',
          include: API_SUITES_ON_EVERY_STORE,
          env: { SGX_TEST_STORE: 'postgres' },
          globalSetup: ['api/test-support/postgres-global-setup.ts'],
        },
      },
      domProject('dom', 'preact'),
      domProject('dom-react', 'react'),
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
      {
        extends: true,
        test: {
          name: 'containers',
          environment: 'node',
          include: ['deploy/**/*.containers.ts'],
          testTimeout: 120_000,
          hookTimeout: 60 * 60_000,
        },
      },
    ],
  },
});
