import { defineConfig } from 'vite';
import { chunkUrl } from '../../scripts/chunk-url.mjs';

// Storybook's own Vite settings (the project's vite.config.ts is the host page's).
export default defineConfig({
  plugins: [chunkUrl()],
  oxc: { jsx: { runtime: 'automatic', importSource: '@emotion/react' } },
});
