import { defineConfig } from 'vite';

// The host page (host/): `npm run dev` serves it with the API proxied to `npm start`'s server;
// `npm run build` writes it to dist/site (the widget bundles and PDFs are added beside it by
// scripts/build.mjs). `process.env.NODE_ENV` is always production in builds: vitest sets "test",
// and a bundle built with development packages inside failed (see scripts/build-widgets.mjs).
export default defineConfig(({ command }) => ({
  root: 'host',
  publicDir: 'public',
  define: command === 'build' ? { 'process.env.NODE_ENV': JSON.stringify('production') } : {},
  oxc: { jsx: { runtime: 'automatic', importSource: '@emotion/react' } },
  build: {
    outDir: '../dist/site',
    emptyOutDir: true,
    target: 'es2022',
    rollupOptions: { output: { chunkFileNames: 'assets/[name]-[hash].js' } },
  },
  server: { proxy: { '/api': 'http://localhost:3000', '/widgets': 'http://localhost:3000' } },
}));
