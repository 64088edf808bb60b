import { defineConfig } from 'vite';

// Shared Vite settings. Later issues add the widget library builds and the host page here.
// `process.env.NODE_ENV` must be replaced in library builds: without it the output ships both
// React builds and throws "process is not defined" on a plain page (shared/design/widgets.md).
export default defineConfig({
  define: { 'process.env.NODE_ENV': JSON.stringify('production') },
  build: { target: 'es2022' },
});
