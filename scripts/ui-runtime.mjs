// The UI runtime the shipped JavaScript carries. The components are written against React's API; the
// element bundles and the product page are built with Preact standing in for it (`preact/compat`), a
// runtime a fifth of React's size that passed every widget, element and browser test (issue 13,
// BENCHMARKS.md). React is kept real beside it: the release also carries every element built on React
// itself (widgets/react/, scripts/build-widgets.mjs), and the tests run on both (the `dom` and `dom-react`
// projects of vitest.config.ts; e2e/react-build.e2e.ts on the React bundles). Switches:
//   SGX_WIDGETS_RUNTIME=react   the default element bundles (widgets/*.js) built on React too
//   SGX_HOST_RUNTIME=react      the product page's client build (vite.config.ts)
// The page is prerendered with React either way (scripts/build-host.mjs): Preact hydrates that markup.

export const UI_RUNTIMES = ['preact', 'react'];
export const DEFAULT_UI_RUNTIME = 'preact';

/** The runtime an environment variable asks for (absent: the default); anything else is an error. */
export function uiRuntime(value) {
  const runtime = value || DEFAULT_UI_RUNTIME;
  if (!UI_RUNTIMES.includes(runtime)) throw new Error(`UI runtime must be one of ${UI_RUNTIMES.join(', ')}: ${value}`);
  return runtime;
}

export const widgetsRuntime = () => uiRuntime(process.env.SGX_WIDGETS_RUNTIME);
export const hostRuntime = () => uiRuntime(process.env.SGX_HOST_RUNTIME);

/** Vite aliases that build React code against preact/compat: React's own entry points, exactly. */
export const PREACT_ALIASES = [
  { find: /^react$/, replacement: 'preact/compat' },
  { find: /^react-dom$/, replacement: 'preact/compat' },
  { find: /^react-dom\/client$/, replacement: 'preact/compat/client' },
  { find: /^react-dom\/test-utils$/, replacement: 'preact/test-utils' },
  { find: /^react\/jsx-runtime$/, replacement: 'preact/jsx-runtime' },
  { find: /^react\/jsx-dev-runtime$/, replacement: 'preact/jsx-dev-runtime' },
];

/** `resolve` options of a Vite build for `runtime`. */
export const resolveFor = (runtime) => (runtime === 'preact' ? { alias: PREACT_ALIASES } : {});

/**
 * Vite and vitest options that run the jsdom tests on `runtime`. For Preact every package is inlined (so
 * the aliases reach the imports of React inside them), ES builds are preferred (Emotion's CommonJS files
 * require('react') where no alias reaches), and Testing Library's ES build is used for the same reason.
 */
export function domTestOptions(runtime) {
  if (runtime !== 'preact') return { resolve: {}, deps: {} };
  return {
    resolve: {
      conditions: ['module', 'browser', 'development'],
      alias: [
        ...PREACT_ALIASES,
        {
          find: /^@testing-library\/react$/,
          replacement: '@testing-library/react/dist/@testing-library/react.esm.js',
        },
      ],
    },
    deps: { inline: true },
  };
}
