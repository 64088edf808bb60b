import { defineConfig } from 'vite';

// Storybook's own Vite settings (the project's vite.config.ts is the host page's).
export default defineConfig({
  oxc: { jsx: { runtime: 'automatic', importSource: '@emotion/react' } },
});
