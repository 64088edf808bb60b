import { defineConfig } from 'vite';
import { PURE_MODULES } from './scripts/build-widgets.mjs';
import { hostRuntime, resolveFor } from './scripts/ui-runtime.mjs';

// The host page (host/): `npm run dev` serves it with the API proxied to `npm start`'s server;
// `npm run build` writes it to dist/site (the widget bundles and PDFs are added beside it by
// scripts/build.mjs). `process.env.NODE_ENV` is always production in builds: vitest sets "test",
// and a bundle built with development packages inside failed (see scripts/build-widgets.mjs).
// The browser's build runs on Preact (scripts/ui-runtime.mjs); the prerender (an SSR build, scripts/build-host.mjs)
// renders with React, whose markup Preact hydrates.
export default defineConfig(({ command, isSsrBuild }) => ({
  root: 'host',
  resolve: isSsrBuild ? {} : resolveFor(hostRuntime()),
  publicDir: 'public',
  define: command === 'build' ? { 'process.env.NODE_ENV': JSON.stringify('production') } : {},
  oxc: { jsx: { runtime: 'automatic', importSource: '@emotion/react' } },
  build: {
    outDir: '../dist/site',
    emptyOutDir: true,
    target: 'es2022',
    rollupOptions: {
      // clinical/ and contracts/ have no top-level side effects: what the page does not use of them goes
      treeshake: { moduleSideEffects: (id) => !PURE_MODULES.test(id) },
      output: { chunkFileNames: 'assets/[name]-[hash].js' },
    },
  },
  server: { proxy: { '/api': 'http://localhost:3000', '/widgets': 'http://localhost:3000' } },
}));
