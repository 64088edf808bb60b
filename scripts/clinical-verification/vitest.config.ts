import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    root: path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..'),
    include: ['clinical/**/*.test.ts'],
    environment: 'node',
  },
});
