/// <reference types="vite/client" />
import { composeStories, setProjectAnnotations } from '@storybook/react-vite';
import { describe, it } from 'vitest';
import * as previewAnnotations from './.storybook/preview.ts';

// Every story renders and runs its play function (portable stories), in jsdom.
setProjectAnnotations([previewAnnotations]);
const modules = import.meta.glob<Record<string, unknown>>('./*.stories.tsx', { eager: true });

for (const [file, module] of Object.entries(modules)) {
  describe(file, () => {
    for (const [name, story] of Object.entries(composeStories(module as Parameters<typeof composeStories>[0]))) {
      it(name, async () => {
        await (story as { run: () => Promise<void> }).run();
      });
    }
  });
}
