import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { StorybookConfig } from '@storybook/react-vite';

const here = path.dirname(fileURLToPath(import.meta.url));

// Storybook for designers: every element in every state, no API (fetch is mocked per story).
// Offline: no telemetry, no update or "what's new" checks.
const config: StorybookConfig = {
  framework: {
    name: '@storybook/react-vite',
    options: { builder: { viteConfigPath: path.join(here, 'vite.config.ts') } },
  },
  stories: ['../**/*.mdx', '../**/*.stories.@(ts|tsx)'],
  addons: ['@storybook/addon-docs'],
  core: { disableTelemetry: true, disableWhatsNewNotifications: true },
  typescript: { reactDocgen: false },
};
export default config;
